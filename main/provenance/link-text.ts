/**
 * Where a link is in a text, as the WHATWG URL parser (and so `fetch`, Node's `URL`) reads one
 * (security finding F3). One reading for a stranger's text and for a call's arguments alike:
 * values.ts takes links with these, and content and arguments both go through it.
 *
 * - A special scheme (URL Standard §4.2 "special scheme": http, https, ws, wss, ftp, file) needs
 *   no `//`: the "special authority slashes state" and "special authority ignore slashes state"
 *   (§4.4, basic URL parser) skip any number of `/` or `\`, none included, before the host. So
 *   `https:evil.example/up`, `https:/evil.example/up` and `http:\\evil.example/up` go to
 *   evil.example. (`file:` takes a host only after exactly two slashes, "file slash state";
 *   `new URL` decides, here as everywhere.) The other schemes read (ftps, sftp, s3, gs) are not
 *   special: their host follows `//` only ("path or authority state").
 * - The basic URL parser first removes leading and trailing C0 controls and spaces and then "all
 *   ASCII tab or newline from input" (§4.4, steps 1–3): `https://evil.exa<TAB>mple/` goes to
 *   evil.example. A string that is one link (a call's `url` argument, a result that is only a
 *   link) is therefore read whole, as `new URL(string)` reads it (`wholeLink`). In free text a
 *   tab or line break may as well end a link as sit inside one ("see https://a.example⏎Thanks"),
 *   so a link is read both as written (up to the break) and bridged (`bridgedLinks`: every tab
 *   or line break from its scheme on to the next space removed, what the parser would get were
 *   that run passed to it); a reading only adds keys, never hides the link as written.
 */

/** A special scheme and its slashes of either kind, or another scheme read here and `//`. */
const LINK_START = String.raw`\b(?:(?:https?|wss?|ftp|file):[\\/]*|(?:ftps|sftp|s3|gs):\/\/)`;

/**
 * A link in a text, up to `maxChars` after its start: it ends at white space or a closing
 * bracket, but for an IPv6 host's own (`http://[::1]:8080/`, with or without user-info, which
 * may hold `@`: WHATWG's host follows the last one). The extent only bounds the string given to
 * `new URL`, which reads the host.
 */
export function linkPattern(maxChars: number): RegExp {
  return new RegExp(
    `${LINK_START}(?:[^\\s<>"'\`)\\]}[/]{0,256}@)?(?:\\[[0-9a-f:.]{2,45}\\])?[^\\s<>"'\`)\\]}]{0,${maxChars}}`,
    'gi',
  );
}

/** Whether a text may hold a link (a cheap guard before the scans). */
export function mayHoldLink(text: string): boolean {
  if (!text.includes(':')) return false;
  return HAS_SCHEME.test(text) || (/[\t\n\r]/.test(text) && SPLIT_SCHEME.test(text));
}
const HAS_SCHEME = /(?:https?|wss?|ftp|file)[\t\n\r]*:|(?:ftps|sftp|s3|gs):\/\//i;

// The basic URL parser's first steps (URL Standard §4.4 "basic URL parser", steps 1–3): remove
// leading and trailing C0 control or space, then every ASCII tab or newline.
// eslint-disable-next-line no-control-regex
const C0_OR_SPACE_ENDS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TAB_OR_NEWLINE = /[\t\n\r]/g;
// A scheme at the start (tabs and newlines inside it included: the parser removes them first).
// eslint-disable-next-line no-control-regex
const SCHEME_HEAD = /^[\u0000-\u0020]*[a-z][a-z0-9+.\-\t\n\r]*:/i;
const READ_SCHEMES = new Set(
  ['http', 'https', 'ws', 'wss', 'ftp', 'file', 'ftps', 'sftp', 's3', 'gs'].map((s) => `${s}:`),
);

/**
 * The string `new URL(text)` parses when the text starts with a scheme: the whole text without
 * its leading and trailing C0 controls and spaces and without any tab or newline. Undefined
 * for a text that does not start with a scheme (most text).
 */
export function wholeLink(text: string): string | undefined {
  const head = SCHEME_HEAD.exec(text.slice(0, 64))?.[0];
  // Only the schemes values.ts reads: "Subject: …" starts with a scheme too, and is no link.
  if (
    !head ||
    !READ_SCHEMES.has(head.replace(C0_OR_SPACE_ENDS, '').replace(TAB_OR_NEWLINE, '').toLowerCase())
  )
    return undefined;
  return text.replace(C0_OR_SPACE_ENDS, '').replace(TAB_OR_NEWLINE, '');
}

// A special scheme, which tabs and newlines may split (`ht<TAB>tps:`), and its colon.
const SCHEME_SPLIT = String.raw`\b(?:h[\t\n\r]*t[\t\n\r]*t[\t\n\r]*p(?:[\t\n\r]*s)?|w[\t\n\r]*s(?:[\t\n\r]*s)?|f[\t\n\r]*t[\t\n\r]*p|f[\t\n\r]*i[\t\n\r]*l[\t\n\r]*e)[\t\n\r]*:`;
const SPLIT_SCHEME = new RegExp(SCHEME_SPLIT, 'i');
// Such a scheme and everything after it up to the next space, across runs of tabs and line
// breaks. The classes on either side of a break are disjoint, so the scan is linear (the text is
// a stranger's).
const BRIDGE = new RegExp(`${SCHEME_SPLIT}[^\\s<>"'\`]*(?:[\\t\\n\\r]+[^\\s<>"'\`]+)*`, 'gi');

/**
 * The text with every link bridged across the tabs and line breaks in it (see above), or the
 * text itself when no link has one (the usual case).
 */
export function bridgedLinks(text: string): string {
  if (!/[\t\n\r]/.test(text)) return text;
  return text.replace(BRIDGE, (run) => run.replace(TAB_OR_NEWLINE, ''));
}
