import { domainToASCII, domainToUnicode } from 'node:url';
import { skeleton } from '../../common/lookalike.js';
import { lowerAscii, unveil } from '../provenance/identity.js';
import { bridgedLinks, wholeLink } from '../provenance/link-text.js';

/**
 * Reading addresses and links for domain-scoped grants (issue 27 item 1). Built-in tools say what
 * they reach themselves (GrantShape, read by their own parser); these rules are for tools that do
 * not — third-party servers, whose parser Airlock cannot see — and so they are strict: anything
 * that looks like an address or a link and cannot be placed in the domain makes the call ask.
 */

/** A grant's domain as stored and shown: trimmed, ASCII letters lower-cased (lowerAscii). */
export function normalizeDomain(d: string): string {
  return lowerAscii(d.trim()).replace(/^[@.]+/, '');
}

// Where the WHATWG URL parser ends a host (its path, query and fragment start: URL Standard, "host
// state"). domainToASCII parses its input as a URL's host and answers the part before the first
// of these, so `domainToASCII("example.com/.evil.test")` is "example.com" — while an attendee
// `x@example.com/.evil.test` (Calendar's address check lets "/", "?", "#" and "\" through) is
// sent to Google as it is, naming a domain under evil.test. nodemailer keeps these characters
// away from domainToASCII for the same reason (shared normalizeDomain, URL_PARSER_UNSAFE).
const URL_HOST_END = /[/\\?#]/;

/**
 * A domain in IDNA ASCII form (UTS #46, WHATWG's domainToASCII — what `new URL()` and fetch do to a
 * host), the form mail and DNS use and grants compare: `ｅxample.com` is `example.com`, and
 * `my_team.example.com` is itself (the URL host parser lets "_" through, as DNS does). '' for a
 * name it refuses and for one it would read only the head of (URL_HOST_END). Read as written:
 * IDNA folds case itself, and the composer hands it the domain as written (lowerAscii says why
 * lower-casing first reads `STRAẞE.de` as another domain than strasse.de, where the mail goes).
 */
export function readDomain(domain: string): string {
  if (URL_HOST_END.test(domain)) return '';
  return domainToASCII(domain.trim());
}

/**
 * The domain mail written to `written` goes to (readDomain: IDNA on the name as written, as the
 * composer reads it), in a form to show: as written when that is its Unicode form and that form
 * reads as itself (`jõgeva.ee`, `例え.jp`, ASCII letters in any case), else in ASCII —
 * `STRAẞE.de` shows strasse.de, where the mail goes; a punycode name stays punycode; a name with
 * a deviation character (`straße.de`: IDNA2003 and transitional software read it strasse.de), a
 * letter drawn like an ASCII one that is not that letter with marks (`аpple.com`, `pɑypal.com`,
 * and so most Greek and Cyrillic names, `пример.рф`), or a label mixing Latin with another
 * script shows in ASCII, as browsers show such hosts. '' when IDNA cannot read it. Used by an
 * offered domain grant and a mail card.
 */
export function deliveredDomain(written: string): string {
  const ascii = readDomain(written);
  if (!ascii) return '';
  const unicode = domainToUnicode(ascii);
  // Compared lower-cased whole: a name whose lower case reads otherwise (`STRAẞE`) differs here.
  const asWritten = unicode === written.trim().toLowerCase().normalize('NFC');
  const ambiguous =
    DEVIATION.test(unicode) ||
    [...unicode].some(drawnLikeAscii) ||
    unicode.split('.').some(mixesLatin);
  return asWritten && !ambiguous ? unicode : ascii;
}
// UTS #46 §4 deviation characters: read one way by IDNA2008 (kept) and another by IDNA2003.
const DEVIATION = /[\u00DF\u03C2\u200C\u200D]/;

/**
 * A letter drawn like an ASCII one that is not that letter with marks: its look-alike skeleton
 * (common/lookalike.ts, UTS #39 confusables) is ASCII but its base letter is not — Cyrillic "а",
 * Latin alpha "ɑ", script "ɡ", dotless "ı", Lisu "ꓑ", whatever the script; "ü" (u with a mark) is
 * not one.
 */
function drawnLikeAscii(c: string): boolean {
  if (c.charCodeAt(0) < 0x80) return false;
  const drawn = skeleton(c);
  const base = c.normalize('NFD')[0]!.toLowerCase();
  // The skeleton reads i and l as one letter: "í" (i with a mark) is drawn as "l" and is itself.
  return /^\p{ASCII}+$/u.test(drawn) && !(/^[a-z]$/.test(base) && skeleton(base) === drawn);
}

/**
 * A label mixing Latin letters with letters of another script (Chromium's IDN display policy,
 * UTS #39 §5.1): `pa੦pal` (Gurmukhi zero), `ⲣaypal` (Coptic) — the skeleton's table does not
 * hold every look-alike, the mix itself is the sign.
 */
function mixesLatin(label: string): boolean {
  return (
    /\p{Script=Latin}/u.test(label) &&
    /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u.test(label)
  );
}

/**
 * `host` is `want` or one of its subdomains, both read by readDomain: an invalid name never
 * matches.
 */
export function inDomain(host: string, want: string): boolean {
  const h = readDomain(host);
  const w = readDomain(normalizeDomain(want));
  if (!h || !w) return false;
  return h === w || h.endsWith(`.${w}`);
}

/** The domain of an address as a mail system routes it: after the last "@"; '' when there is none. */
export function addressDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : address.slice(at + 1);
}

// "@" and the spellings a server or mail client may decode into one: full-width and small
// commercial at (NFKC maps both to "@"), percent-encoding, HTML character references.
const AT = /[@\uFF20\uFE6B]|%40|&#0*64;?|&#x0*40;?|&commat;/gi;
// A host name after an "@": letters, digits, marks, hyphens, "_" and dots, and any other
// character but ASCII and white space — IDNA reads "。" as a dot, drops a soft hyphen, and
// (as Node's domainToASCII and the taint check do) takes "、" or "—" into a label, so
// `a@example.com、x.evil.test` is a domain under evil.test; readDomain (inDomain) then says what
// the whole is. "_" too, as DNS and readDomain take it: read without it,
// `a@example.com_x.evil.test` (a domain under evil.test) would be example.com.
const HOST_AFTER = /^(?:[\p{L}\p{N}\p{M}._-]|[^\p{ASCII}\s])+/u;
// What a mail parser (postal-mime, which the taint check reads destinations with) still takes into
// a domain after HOST_AFTER stops: an ASCII character that is neither a host character nor an
// address or list separator. Followed — before white space or a separator — by another dot, it
// names another domain: `a@example.com!x.evil.test` and `a@example.com)x.evil.test` are domains
// under evil.test to that parser. A host so followed cannot be placed.
const DOMAIN_GOES_ON = /^[^\s\p{L}\p{N}\p{M}._,;"<(:@-][^\s,;"<(@]*\.[^\s,;"<(@.]/u;
// Anything with a scheme and "//", or a scheme-relative "//host" (for where an "@" is inside a link).
const LINK =
  /(?<![a-z0-9+.-])[0-9+.-]*[a-z][a-z0-9+.-]*:[/\\]{2}[^\s"'<>`]*|(?<![:/\\\w])[/\\]{2}[^\s"'<>`/\\]+/gi;
// Where a link may start, as the thing that acts reads one (security finding F3, as
// provenance/link-text.ts): a special scheme (URL Standard §4.2) with any number of slashes or
// backslashes, none included (`https:evil.test/x` goes to evil.test); any scheme with "//"; a
// scheme-relative "//host". Every start is read, those inside another link's query too
// (`https://example.com/r?to=https:evil.test/x` names evil.test). A scheme starts where a run of
// scheme characters does, its leading digits and signs skipped (the look-behind keeps the scan
// linear on a long run of letters, as in LINK).
const LINK_START =
  /\b(?:https?|wss?|ftp|file):|(?<![a-z0-9+.-])[0-9+.-]*[a-z][a-z0-9+.-]*:[/\\]{2}|(?<![:/\\\w])[/\\]{2}/gi;
// A link's extent: up to white space, a quote or an angle bracket (`new URL` reads the host).
const TOKEN = /[^\s"'<>`]+/g;
// Bounds on the work for one text: beyond them the call asks.
const MAX_LINK_STARTS = 256;
const MAX_LINK_CHARS = 8192;

/**
 * The hosts of the links in a text, read by `new URL` (what fetch uses); null when a link written
 * with "//" names no host it can read, or there are too many or too long to read. A special
 * scheme without "//" that does not parse, or has no host (`http:` alone, `file:report.pdf`),
 * is no link to that parser, and is passed over.
 */
function linkHosts(text: string): string[] | null {
  const hosts: string[] = [];
  let starts = 0;
  for (const token of text.matchAll(TOKEN)) {
    for (const m of token[0].matchAll(LINK_START)) {
      if (++starts > MAX_LINK_STARTS) return null;
      const link = linkFrom(token[0], m.index);
      if (link === null) return null;
      const strict = /^(?:[a-z][a-z0-9+.-]*:)?[/\\]{2}/i.test(link);
      let host = '';
      try {
        host = new URL(link).hostname;
      } catch {
        if (strict) return null;
      }
      if (!host && strict) return null;
      // And as a reader of prose takes it: up to a closing bracket, without trailing
      // punctuation (`[x](http:evil.test:8080)` is a link to evil.test; whole, it parses not).
      const cut = link.replace(/[)\]}].*$/s, '').replace(/[.,;:!?*]+$/, '');
      let cutHost = '';
      try {
        if (cut !== link) cutHost = new URL(cut).hostname;
      } catch {
        // not a link either way
      }
      if (cutHost) hosts.push(cutHost);
      // A host whose last label is no DNS label (`example.com)` of `[x](https://example.com)`)
      // reaches no one: the cut reading stands for it.
      if (host && !(cutHost && !HOLDABLE.test(host))) hosts.push(host);
    }
  }
  // A quote, angle bracket or backtick ends a link above, but not to the URL parser, which takes
  // `"` or `'` into a host: `http:"x.evil.test` goes to a name under evil.test (whose owner
  // answers for it). Read up to white space too, keeping a host that parses and that someone
  // could hold (its last label a top-level domain's: `'https://example.com'` is not `com'`).
  // The parser removes tabs and line breaks first (bridgedLinks stops at a quote: read them here).
  const words = /[\t\n\r]/.test(text) ? `${text} ${text.replace(/[\t\n\r]+/g, '')}` : text;
  for (const token of words.matchAll(WORD)) {
    if (!/["'<>`]/.test(token[0])) continue;
    for (const m of token[0].matchAll(LINK_START)) {
      if (++starts > MAX_LINK_STARTS) return null;
      const link = linkFrom(token[0], m.index);
      if (link === null) return null;
      // Whole, and without the closing quotes or brackets of what it was written in.
      for (const l of new Set([link, link.replace(/["'<>`)\]}.,;:!?*]+$/, '')]))
        try {
          const host = new URL(l).hostname;
          if (HOLDABLE.test(host)) hosts.push(host);
        } catch {
          // not a link to that parser
        }
    }
  }
  return hosts.filter(Boolean).map((h) => h.replace(/^\[|\]$/g, ''));
}
/**
 * The link starting at `index` of a token, as given to the URL parser (a protocol-relative one as
 * https); null when longer than a grant reads.
 */
function linkFrom(token: string, index: number): string | null {
  const rest = token.slice(index).replace(/^[0-9+.-]+/, '');
  if (rest.length > MAX_LINK_CHARS) return null;
  return rest.startsWith('/') || rest.startsWith('\\') ? `https:${rest}` : rest;
}
const WORD = /\S+/g;
// A host someone could hold: its last label a DNS label (or an IP address).
const HOLDABLE = /(?:^|\.)[a-z0-9-]+\.?$|^\[[0-9a-f:.]+\]$/;

function strings(value: unknown, out: string[], depth = 0): void {
  if (depth > 64) throw new Error('arguments nested too deep');
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out, depth + 1);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out, depth + 1);
    }
}

/**
 * Every host named by an address or a link anywhere in the arguments (keys included), or null
 * when something address- or link-shaped names no host Airlock can read — then no domain can be
 * said to cover the call.
 */
export function hostsIn(args: unknown): string[] | null {
  const texts: string[] = [];
  try {
    strings(args, texts);
  } catch {
    return null;
  }
  const hosts: string[] = [];
  // Each text as written and as the taint check reads it (identity.ts unveil: NFKC, invisible
  // characters dropped, `%2e`/`&#46;` decoded): `a@example.com%2eevil.test` or one with a soft
  // hyphen before `x.evil.test` is example.com as written, a domain under evil.test decoded — as
  // a server that decodes its input, or IDNA (which drops the soft hyphen), reads it.
  for (const text of texts.flatMap((t) => [...new Set([t, unveil(t)])])) {
    const links = [...text.matchAll(LINK)];
    // An "@" in a link's user-info is followed by its path (`https://ann@example.com/a.html`):
    // not a domain going on; the link's host is read below, by the URL parser.
    const inLink = (i: number) => links.some((l) => i > l.index && i < l.index + l[0].length);
    for (const m of text.matchAll(AT)) {
      const after = text.slice(m.index + m[0].length);
      const host = HOST_AFTER.exec(after)?.[0] ?? '';
      if (!host) return null;
      if (!inLink(m.index) && DOMAIN_GOES_ON.test(after.slice(host.length))) return null;
      hosts.push(host);
    }
    // Each link as written, and as WHATWG URL reads it: tabs and line breaks inside removed
    // (bridged in free text; a text that is one link, whole), as provenance/link-text.ts.
    for (const reading of new Set([text, bridgedLinks(text), wholeLink(text) ?? text])) {
      const found = linkHosts(reading);
      if (!found) return null;
      hosts.push(...found);
    }
  }
  return hosts;
}

// What a third-party tool's constrained argument may hold: bare addresses or plain http(s) links,
// nothing any reasonable parser could read two ways — no names, quotes, angle brackets, comments,
// groups, percent routing ("a%b@c"), bang paths, encoded words or whitespace inside.
const BARE_ADDRESS = /^[A-Za-z0-9._+-]+@((?:[A-Za-z0-9-]+\.)+[A-Za-z0-9-]+)$/;
const PLAIN_LINK =
  /^https?:\/\/((?:[A-Za-z0-9-]+\.)*[A-Za-z0-9-]+)(?::\d{1,5})?(?:[/?#][^\s\\@"'<>`]*)?$/i;

/**
 * The hosts of a third-party tool's constrained argument: a string or a list of strings, each a
 * bare address, a plain link, or such items separated by commas. Null for anything else.
 */
export function strictHosts(value: unknown): string[] | null {
  const items = Array.isArray(value) ? value : [value];
  const hosts: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') return null;
    for (const part of item.split(',')) {
      const p = part.trim();
      const host = BARE_ADDRESS.exec(p)?.[1] ?? PLAIN_LINK.exec(p)?.[1];
      if (!host) return null;
      hosts.push(host);
    }
  }
  return hosts.length ? hosts : null;
}
