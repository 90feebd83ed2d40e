import { canonicalAddress, canonicalHost, hostOfAddress, siteOf, unveil } from './identity.js';
import { IPV4_IN_TEXT, IPV6_IN_TEXT } from './ip-hosts.js';
import { bridgedLinks, linkPattern, mayHoldLink, wholeLink } from './link-text.js';

/**
 * The significant values of a text, as Airlock compares them between what an
 * agent read and what it asks to do (issue 22, issue 30): e-mail addresses,
 * URLs, domains, phone numbers, long keys, and long verbatim spans (as word
 * shingles). Text is unveiled first and every value is keyed by the one
 * normalisation in identity.ts, for content and arguments alike.
 *
 * Every pattern here is linear-time (no nested quantifiers over the same
 * characters), because the text comes from strangers: a mail body or a remote
 * server's result. Inputs are capped before scanning (MAX_SCAN_CHARS).
 */

/** `secret` values come from secrets.ts (short codes in private content), not from extractValues. */
export type ValueKind = 'email' | 'url' | 'domain' | 'phone' | 'token' | 'secret';

export interface SignificantValue {
  kind: ValueKind;
  /** The key (identity.ts): canonical address, URL without fragment, host, digits. */
  value: string;
  /** As it appeared, for the card ("billing@Evil.example"). */
  raw: string;
}

/** A text longer than this is scanned only up to here (mail bodies are paged at 20 k anyway). */
export const MAX_SCAN_CHARS = 200_000;
/** Words per shingle: 8 words is a phrase, not a coincidence (cf. plagiarism detectors' 5–10). */
export const SHINGLE_WORDS = 8;

// A local part (dot-atom letters, or a quoted string) @ a dotted host: IDN letters and their
// combining marks allowed, and "_" as DNS allows it — a host read without them would end early,
// in another domain than the one mail goes to (`x@a.my_team.example` is not `x@a.my`); the
// Calendar tools take such guests (args.ts isGuestAddress), and the two must read one host. Not
// in the last label, which is a top-level domain (none has "_"): Markdown emphasis around an
// address (`_billing@evil.example_`) would otherwise read as host `evil.example_`, and the
// address it names, billing@evil.example, would not be found in the text.
const EMAIL =
  /(?:"[^"\r\n@]{1,64}"|[\p{L}\p{N}._%+-]{1,64})@(?:[\p{L}\p{N}\p{M}_-]{1,63}\.){1,8}[\p{L}][\p{L}\p{N}\p{M}-]{1,62}/gu;
// Links that send somewhere: the web, and file drops a tool may upload to (ftp, s3, …). Where a
// link is and where it ends, as WHATWG URL reads it (`https:evil.example`, tabs inside): link-text.ts.
const URL_RE = linkPattern(2048);
const SCHEMES = new Set([
  'http:',
  'https:',
  'file:',
  'ftp:',
  'ftps:',
  'sftp:',
  'ws:',
  'wss:',
  's3:',
  'gs:',
]);
// A domain written without a scheme ("upload it to drop.evil.example/u"): not part of an address
// or a URL (those are taken above), and not a file name (report.pdf).
const BARE_DOMAIN =
  /(?<![\p{L}\p{N}@./:_-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,8}[\p{L}]{2,24}(?![\p{L}\p{N}@_-]|\.[\p{L}\p{N}])/gu;
const FILE_EXT =
  /\.(pdf|html?|js|ts|json|txt|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|csv|zip|md|py|sh|exe|ics|eml|xml|ya?ml|log|css|php|aspx?|tar|gz|mp[34]|mov|wav|ini|cfg|conf|jsx|tsx|vcf|rtf|odt|bak|tmp)$/i;
// A key, password or token: one long run of letters, digits, '_' and '-' with both letters and
// digits (API keys, reset links' codes). Checked for letters+digits after matching.
const TOKEN = /(?<![\w-])[A-Za-z0-9_-]{24,256}(?![\w-])/g;
// A phone: optional +, then 9–15 digits with common separators (E.164 allows 15 digits).
const PHONE = /(?<![\w@.])\+?\d[\d ().-]{7,22}\d(?![\w@])/g;

// A scheme alone, its colon perhaps trimmed off as punctuation (see urlKey).
const BARE_SCHEME = /^[a-z][a-z0-9+.-]*:?[\\/]*$/i;

/** The canonical host of a URL as fetch would resolve it (WHATWG URL), and the URL's key. */
export function urlKey(raw: string): { url: string; host: string } | null {
  const trimmed = raw.replace(/[.,;:!?*]+$/, '');
  // A scheme with nothing after it ("the http: prefix", a text of `http: ` repeated) names no
  // host: `new URL` would throw, and a thrown error costs more than the whole scan of it.
  if (BARE_SCHEME.test(trimmed)) return null;
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    return null;
  }
  if (!SCHEMES.has(u.protocol)) return null;
  const host = canonicalHost(u.hostname);
  if (!host) return null;
  const port = u.port ? `:${u.port}` : '';
  return { url: `${u.protocol}//${host}${port}${u.pathname}${u.search}`.toLowerCase(), host };
}

/** Every significant value in `text` (deduplicated by kind+value). */
export function extractValues(text: string): SignificantValue[] {
  const t = unveil(text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text);
  const out = new Map<string, SignificantValue>();
  const add = (kind: ValueKind, value: string, raw: string) => {
    const key = `${kind}:${value}`;
    if (value && !out.has(key)) out.set(key, { kind, value, raw });
  };
  // Cheap guards first: most text has no '@' and no link scheme, and those scans are the costly ones.
  if (t.includes('@'))
    for (const m of t.matchAll(EMAIL)) {
      const value = canonicalAddress(m[0]);
      if (!value) continue;
      add('email', value, m[0]);
      add('domain', siteOf(hostOfAddress(value)), m[0].slice(m[0].lastIndexOf('@') + 1));
    }
  // Links, as WHATWG URL reads them (link-text.ts). Read in the unveiled text, whose keys every
  // side shares, then in the text as written when unveiling changed it: `new URL` reads it as
  // written (`https://x%2fy@evil.example/` goes to evil.example, its unveiled `x/y@` ends the
  // host at x), but only for a host not read already, so one link keeps one key.
  const linkHosts = new Set<string>();
  const addLink = (raw: string, read: string, keyLink: boolean, newHostOnly: boolean) => {
    const k = urlKey(read);
    if (!k || (newHostOnly && linkHosts.has(k.host))) return;
    linkHosts.add(k.host);
    if (keyLink) add('url', k.url, raw);
    add('domain', siteOf(k.host), k.host);
  };
  const readLinks = (s: string, asWritten: boolean) => {
    // A text that is one link is read whole, as `new URL(text)` reads it: where fetch given this
    // very string goes.
    const whole = text.length <= MAX_SCAN_CHARS ? wholeLink(s) : undefined;
    if (whole !== undefined) addLink(text.trim(), whole, true, asWritten);
    if (!mayHoldLink(s)) return;
    for (const m of s.matchAll(URL_RE)) addLink(m[0], m[0], true, asWritten);
    // And bridged across the tabs and line breaks in it, as WHATWG removes them: its host only,
    // as for any other reading (readings.ts), since a link key lets calls off (a fetch of a
    // stranger's link exactly as written) and a bridged one may have glued the next line's word
    // into it.
    const bridged = bridgedLinks(s);
    if (bridged !== s)
      for (const m of bridged.matchAll(URL_RE)) addLink(m[0], m[0], false, asWritten);
  };
  readLinks(t, false);
  if (t !== text)
    readLinks(text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text, true);
  // Domains written alone: scanned in what is left once addresses and links are taken out
  // ("dan.smith" of dan.smith+x@… is no domain).
  let rest = t;
  if (out.size > 0) rest = rest.replace(EMAIL, ' ').replace(URL_RE, ' ');
  if (rest.includes('.'))
    for (const m of rest.matchAll(BARE_DOMAIN)) {
      if (FILE_EXT.test(m[0])) continue;
      const host = canonicalHost(m[0]);
      if (host) add('domain', siteOf(host), m[0]);
    }
  // IP addresses written alone (`post it to 203.0.113.77`, `203。0。113。77`): hosts, keyed as a
  // link's host is (ip-hosts.ts), so `http://3405803853/` in a call is the address the text gave.
  if (/\d[.。]\d/.test(rest))
    for (const m of rest.matchAll(IPV4_IN_TEXT)) add('domain', canonicalHost(m[0]), m[0]);
  if (rest.includes('['))
    for (const m of rest.matchAll(IPV6_IN_TEXT)) add('domain', canonicalHost(m[0]), m[0]);
  if (!/\d/.test(t)) return [...out.values()]; // phones and keys have digits
  for (const m of t.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, '');
    if (digits.length < 9 || digits.length > 15) continue;
    // Dates and times (2026-12-01 10:00) look like digit runs; a phone has no run of 4 digits
    // followed by '-' and 2 digits and '-' and 2 digits.
    if (/\d{4}-\d{2}-\d{2}/.test(m[0])) continue;
    add('phone', digits, m[0].trim());
  }
  for (const m of t.matchAll(TOKEN)) {
    if (!/\d/.test(m[0]) || !/[a-z]/i.test(m[0])) continue;
    add('token', m[0], m[0]);
  }
  return [...out.values()];
}

/** The long keys of a text alone (what rule 2 needs of a field that is not a destination). */
export function tokensOf(text: string): SignificantValue[] {
  if (!/\d/.test(text)) return [];
  const t = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const out: SignificantValue[] = [];
  for (const m of t.matchAll(TOKEN))
    if (/[a-z]/i.test(m[0])) out.push({ kind: 'token', value: m[0], raw: m[0] });
  return out;
}

/** Lower-case words (letters and digits) of a text, capped. */
function words(text: string): string[] {
  const t = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  return t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** FNV-1a, 32 bit: cheap, and a collision only costs a false match of one shingle. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Hashes of every SHINGLE_WORDS-word window of the text (none for shorter texts). Each word is
 * hashed once; a window's hash mixes its words' hashes in order (no string per window).
 */
export function shingles(text: string): number[] {
  // Links are compared as links (url and domain values), not as words: the words of a
  // newsletter's link are not its prose.
  const prose = mayHoldLink(text) ? text.replace(URL_RE, ' ') : text;
  const w = words(prose).map(fnv1a);
  const out: number[] = [];
  for (let i = 0; i + SHINGLE_WORDS <= w.length; i++) {
    let h = 0x811c9dc5;
    for (let j = i; j < i + SHINGLE_WORDS; j++) h = Math.imul(h ^ w[j]!, 0x01000193);
    out.push(h >>> 0);
  }
  return out;
}

/** One string inside a JSON value, with the keys that lead to it. */
export interface Leaf {
  /** Object keys and array indices from the root ("to", 0). */
  path: (string | number)[];
  value: string;
}

/** Every string inside a JSON value (arguments), with its path; at most 1,000. */
export function leavesOf(value: unknown, path: (string | number)[] = [], out: Leaf[] = []): Leaf[] {
  if (out.length > 1000 || path.length > 32) return out;
  if (typeof value === 'string') {
    out.push({ path, value });
    // A request body written as JSON or as a form is more arguments (`{"to": "…"}`, `to=…&…`).
    const inner = structured(value);
    if (inner !== undefined) leavesOf(inner.value, [...path, inner.key], out);
  } else if (typeof value === 'number' && Number.isFinite(value))
    out.push({ path, value: String(value) });
  else if (Array.isArray(value)) value.forEach((v, i) => leavesOf(v, [...path, i], out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) leavesOf(v, [...path, k], out);
  }
  return out;
}

const FORM = /^[\w.[\]-]+=[^&\s]*(?:&[\w.[\]-]+=[^&\s]*)+$/;

/** The JSON or form-encoded value a string holds, if it is one. */
function structured(s: string): { key: string; value: unknown } | undefined {
  if (s.length > 20_000) return undefined;
  const t = s.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      return { key: '(json)', value: JSON.parse(t) as unknown };
    } catch {
      return undefined;
    }
  }
  // A form has an '=' (a cheap test first: most strings are not forms).
  if (t.includes('=') && FORM.test(t))
    return { key: '(form)', value: Object.fromEntries(new URLSearchParams(t)) };
  return undefined;
}
