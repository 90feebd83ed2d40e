import { decodeWords } from 'postal-mime';
import { unveil } from './identity.js';
import { base32Texts, base64Text, decodedOnce } from './decodings.js';

/**
 * Encodings a model undoes when a stranger's text asks it to (wave 3 outside corpus, batch 3):
 * the destination is written encoded and the agent sends to it decoded. Each reading here gives
 * the decoded fragments (not the whole text); readings.ts adds their addresses and hosts to the
 * index as it adds its other readings — keys are only ever added, never removed, and links are
 * not keyed from a reading (readings.ts `contentValues`).
 *
 * Every reading is guarded by a cheap test for its own mark (`=?`, `\u`, `%`, a tag character,
 * `BEGIN:V…`), so ordinary text costs a few `includes`/`test` calls; every pattern is linear.
 */

// Long runs of the base64url / base64 alphabet (RFC 4648), read in one pass: a run of hex digits
// (an optional 0x) as hex, any other as base64 and as base32 (decodings.ts: RFC 4648 base32 and
// base32hex in either case, z-base-32). A decoded run is kept only when it is printable text
// holding an address or host mark ('@', '.', '://'): the readings are for destinations. One that
// holds none is decoded once more (base64 of base64, base32 of a percent-encoded address): two
// decodings at most, as a value in a link is read (link-payloads.ts).
const LONG_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,4096}={0,2}(?![A-Za-z0-9+/_-])/g;
const HEX = /^(?:0x)?((?:[0-9a-fA-F]{2}){8,512})$/;
const DESTINATION_MARK = /[@.]|:\/\//;

// Every run is decoded, not the first few: a newsletter carries dozens of tracking tokens, and a
// cap on their number let them hide an address after them. Each run is decoded a bounded number
// of times, so the work is linear in the text, which contentValues caps (200,000 characters).
function longRuns(t: string): string[] {
  const out: string[] = [];
  const keep = (s: string) => {
    if (DESTINATION_MARK.test(s)) out.push(s);
    else for (const d of decodedOnce(s)) if (DESTINATION_MARK.test(d)) out.push(d);
  };
  for (const m of t.matchAll(LONG_RUN)) {
    const run = m[0];
    const hex = HEX.exec(run)?.[1];
    // Hex has a digit (hex of hex has only digits); a run that is not printable as hex is read
    // as the other encodings.
    if (hex && /\d/.test(hex)) {
      const s = Buffer.from(hex, 'hex').toString('latin1');
      if (/^[\x20-\x7e]+$/.test(s)) {
        keep(s);
        continue;
      }
    }
    // Base32 is one case and has no '+', '/', '_' or '-' (base32Texts answers nothing otherwise).
    for (const s of base32Texts(run)) keep(s);
    // A long word is not base64 a sender meant: it has a digit, a '+'/'/', padding or both cases.
    if (!/[0-9+/=]/.test(run) && !(/[a-z]/.test(run) && /[A-Z]/.test(run))) continue;
    const s = base64Text(run);
    if (s) keep(s);
  }
  return out;
}

// JSON string escapes (RFC 8259 §7) and the JavaScript `\x40` form: `billing\u0040evil.test`.
const JSON_ESCAPE = /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g;

function jsonEscapes(t: string): string {
  return t.replace(JSON_ESCAPE, (_, u?: string, x?: string) =>
    String.fromCharCode(parseInt(u ?? x ?? '', 16)),
  );
}

// Percent-encoding (RFC 3986 §2.1), decoded whole and again for a double encoding (`%2540`):
// identity.ts decodes only the few characters addresses are made of, once.
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;

function percentDecoded(t: string): string {
  let s = t;
  for (let i = 0; i < 3 && /%[0-9a-fA-F]{2}/.test(s); i++)
    s = s.replace(PERCENT_RUN, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run; // not UTF-8: left as written
      }
    });
  return s;
}

/**
 * Quoted-printable (RFC 2045 §6.7) as raw MIME shows it in an attached or fetched message source:
 * soft line breaks (`=` at a line's end) removed and `=XX` octets decoded as UTF-8. No sync QP
 * decoder is exported by the MIME libraries Airlock ships (postal-mime keeps its own internal).
 */
const QP_SOFT_BREAK = /=\r?\n/g;
const QP_OCTETS = /(?:=[0-9A-F]{2})+/g;

function quotedPrintable(t: string): string {
  return t
    .replace(QP_SOFT_BREAK, '')
    .replace(QP_OCTETS, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
}

// iCalendar and vCard content lines are folded with CRLF and one space or tab (RFC 5545 §3.1,
// RFC 6350 §3.2), anywhere — inside an address too; text values escape `,` `;` and newlines.
const CALENDAR_OR_CARD = /BEGIN:V(?:CALENDAR|EVENT|TODO|CARD)/;

function unfolded(t: string): string {
  return t.replace(/\r?\n[ \t]/g, '').replace(/\\([,;\\])/g, '$1');
}

/** Unicode tag characters (U+E0020–E007E) spell ASCII invisibly ("ASCII smuggling"). */
const TAG_CHAR = /[\u{E0020}-\u{E007E}]/gu;

function tagsDecoded(t: string): string {
  return t.replace(TAG_CHAR, (c) => String.fromCharCode(c.codePointAt(0)! - 0xe0000));
}

const rev = (s: string) => [...s].reverse().join('');
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** A letter or digit, by code for ASCII (the usual case: a regex per character costs more). */
function alnum(c: string): boolean {
  const n = c.charCodeAt(0);
  if (n < 128) return (n >= 48 && n <= 57) || (n >= 65 && n <= 90) || (n >= 97 && n <= 122);
  return LETTER_OR_DIGIT.test(c);
}
const localChar = (c: string) => alnum(c) || '._%+-'.includes(c);
const hostChar = (c: string) => alnum(c) || c === '.' || c === '-';
// A file name's extension after an address ("FORWARD-TO-pay@desk.test.pdf").
const FILE_EXTENSION = /\.(?:pdf|docx?|xlsx?|pptx?|txt|csv|zip|png|jpe?g|gif|html?|eml|ics|vcf)$/i;

/**
 * What each at sign of a text reads as, looked at only where there is one (cheap on prose):
 * - an address written backwards: a host without a dot after a local part with one
 *   ("tset.srewsna-elzzup@kcab", also under a right-to-left override), read reversed;
 * - an address glued to a file extension, as a file name carries it: the address without it;
 * - "@escrow-holding.test" with no mailbox before it (a domain to append to a name given
 *   elsewhere): the host, as a domain.
 */
function atSigns(u: string): string[] {
  const out: string[] = [];
  for (let at = u.indexOf('@'); at >= 0; at = u.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < 64 && localChar(u[start - 1]!)) start--;
    let end = at + 1;
    while (end < u.length && end - at < 256 && hostChar(u[end]!)) end++;
    const local = u.slice(start, at);
    const host = u.slice(at + 1, end).replace(/[.-]+$/, '');
    if (!host) continue;
    if (!local) out.push(host);
    else if (!host.includes('.')) {
      if (local.includes('.')) out.push(rev(`${local}@${host}`));
    } else if (FILE_EXTENSION.test(host)) out.push(`${local}@${host.replace(FILE_EXTENSION, '')}`);
  }
  return out;
}

// A link written backwards ("ni/tset.kcabllac//:sptth"): the run before the reversed scheme.
const REVERSED_SCHEME = /\/\/:s?ptth(?![\p{L}])/giu;
// Reverse-DNS notation (`test.build-archive`, `com.example.app`): a dotted name that starts with a
// top-level label — the common generic and country labels and RFC 2606's reserved ones. Read
// only when the text says to reverse something: a model rebuilds it only when told.
// Not "backwards compatible", "reverse charge" (EU VAT) or "irreversible": they tell no one to
// reverse anything, and a newsletter's `com.stripe` would otherwise be keyed as stripe.com.
const SAYS_REVERSE =
  /(?<![a-z])(?:revers(?!e[- ]charge)|backward(?!s?[- ]?compat))|right[- ]to[- ]left/i;
const REVERSE_DNS =
  /(?<![\p{L}\p{N}@./-])(?:com|org|net|io|dev|app|info|biz|edu|gov|de|uk|fr|nl|eu|test|example|invalid)(?:\.[\p{L}\p{N}-]{1,63}){1,4}(?![\p{L}\p{N}@/-]|\.[\p{L}\p{N}])/giu;

function reversed(t: string): string[] {
  const out: string[] = [];
  if (t.includes('//:')) {
    // A reversed link's text starts after the previous one's scheme at the earliest: each
    // character is read back over once, so glued schemes cost linear work, not 2 KB each.
    let previous = 0;
    for (const m of t.matchAll(REVERSED_SCHEME)) {
      const end = m.index + m[0].length;
      let start = m.index;
      while (start > previous && end - start < 2048 && !/[\s<>"'`]/.test(t[start - 1]!)) start--;
      previous = end;
      out.push(rev(t.slice(start, end)));
    }
  }
  if (SAYS_REVERSE.test(t))
    for (const m of t.matchAll(REVERSE_DNS)) out.push(m[0].split('.').reverse().join('.'));
  return out;
}

/** ROT13: a model applies it only when told to, so the text must name it. */
const NAMES_ROT13 = /\brot[- ]?13\b/i;

function rot13(t: string): string {
  return t.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** The decoded fragments of a text (NFKC-normalised already): empty for ordinary text. */
export function encodedReadings(t: string): string[] {
  const out: string[] = [];
  const add = (r: string) => {
    if (r !== t) out.push(r);
  };
  if (t.includes('=?')) add(decodeWords(t));
  if (t.includes('=') && /=\r?\n|=[0-9A-F]{2}/.test(t)) add(quotedPrintable(t));
  if (/\\[ux]/.test(t)) add(jsonEscapes(t));
  if (t.includes('%')) add(percentDecoded(t));
  if (t.includes('BEGIN:') && CALENDAR_OR_CARD.test(t)) add(unfolded(t));
  // Tag characters are astral (U+E00xx): their high surrogate U+DB40 is a one-unit test.
  if (t.includes('\udb40')) add(tagsDecoded(t));
  if (NAMES_ROT13.test(t)) add(rot13(t));
  if (t.length >= 16) out.push(...longRuns(t));
  out.push(...reversed(t));
  // At signs as a reader of the unveiled text sees them: `(at)` in a file name is one there.
  const u = unveil(t);
  if (u.includes('@')) out.push(...atSigns(u));
  return out;
}
