import { decodingsNamed, percentDecodedFully, printableText } from './decodings.js';
import { rot13 } from './secret-forms.js';

/**
 * More readings of a call's strings for the private-data rule (private-readings.ts calls this):
 * the common reversible encodings a stranger asks the user's code or key to be sent in, and
 * compositions of two of them (outside corpus batch 6's review: a six-digit code in base32, hex
 * written `0x34 0x38 …`, `\x34\x38…` or `34-38-…`, a code's base64 written backwards).
 * private-readings.ts already decodes a call's base64, hex, base32 (16 characters and more) and
 * percent-encoding; these add:
 * - escapes undone in place, in every spelling at once: `\uXXXX`, `\u{X}`, `\xXX` (ECMA-262
 *   §12.9.4), HTML numeric references and `&amp;` (WHATWG HTML §13.2.5.72–80), percent-encoding
 *   (RFC 3986 §2.1) and quoted-printable `=XX` runs and soft breaks (RFC 2045 §6.7); twice, so an
 *   escape of an escape (`&#37;34`) reads too;
 * - hex bytes in their usual spellings: upper or lower case, a `0x` or `\x` before each byte or
 *   the run, bytes apart by spaces, dashes, colons, commas or dots, and such a run backwards;
 * - each token of the base64/base32/hex alphabets (8–256 characters) backwards and in ROT13, and
 *   a short one (under 16 characters, which private-readings.ts reads as base64 and hex only)
 *   as written, through decodings.ts's decoders (two deep);
 * - digits spelled as words (`four eight two nine one three`), as digits.
 * Each text decoded is read once more the first two ways (base64 of `%34%38…`). Backwards, ROT13,
 * separators, a value split over fields or glued into a longer string are the rule's stream
 * (secret-forms.ts), which reads every text given here.
 *
 * Bounded: at most MAX_FORM_CHARS characters of texts read and as many given back in at most
 * MAX_FORM_TEXTS texts, MAX_FORM_TOKENS tokens decoded (three or four ways each, decodings.ts's
 * own bounds each), at most PLAIN_MAX texts of the first readings per text; each pattern is
 * linear (private-forms-bounds.test.ts counts the work on a megabyte shaped against them).
 */

export const MAX_FORM_CHARS = 200_000;
export const MAX_FORM_TEXTS = 1000;
export const MAX_FORM_TOKENS = 300;
export const MAX_TOKEN = 256;
export const MAX_DERIVED_TOKEN = 1024;
// The longest token read backwards and in ROT13.
const MAX_TURNED = 128;
const HEX_DIGITS = /^(?:\d\d){6,}$/;
// Pieces of a token between `=` signs read as written: a key=value pair or two, not a list.
export const MAX_PIECES = 4;
// decodings.ts reads a token of MIN_TOKEN or more (private-readings.ts' long ones) every way.
const MIN_TOKEN = 16;

/**
 * `strings` are the call's own (private-readings.ts decoded their tokens already); `joined` are
 * their lines joined across fields and line breaks, whose tokens are read as written too;
 * `decoded` what private-readings.ts decoded them to, read the first ways only.
 */
export function privateForms(
  strings: readonly string[],
  joined: readonly string[] = [],
  decoded: readonly string[] = [],
): string[] {
  const out: string[] = [];
  let budget = MAX_FORM_CHARS;
  let given = MAX_FORM_CHARS;
  // Each text once: the rule scans every text given (its stream, its candidates, its tokens).
  const gave = new Set<string>();
  const give = (texts: readonly string[]) => {
    for (const x of texts) {
      if (gave.has(x)) continue;
      if (out.length >= MAX_FORM_TEXTS || x.length > given) return;
      given -= x.length;
      gave.add(x);
      out.push(x);
    }
  };
  const spend: Spend = { tokens: MAX_FORM_TOKENS, read: new Map() };
  const texts = [...strings, ...joined, ...decoded];
  for (const [n, text] of texts.entries()) {
    if (budget <= 0 || given <= 0 || out.length >= MAX_FORM_TEXTS) break;
    const t = text.length > budget ? text.slice(0, budget) : text;
    budget -= t.length;
    const first = plainForms(t, true);
    give(first);
    // A decoded text's own tokens were read by the decoder (decodings.ts, two deep); only what
    // the readings above made of it is read for tokens again.
    const own = n < strings.length + joined.length;
    for (const [k, x] of (own ? [t, ...first] : first).entries())
      for (const d of tokenForms(x, spend, !own || k > 0 || n >= strings.length)) {
        give([d]);
        give(plainForms(d));
      }
  }
  return out;
}

/**
 * The escapes undone, the hex spellings decoded, the digit words as digits, characters spelled
 * one by one joined — each of these on the text and on what one of them gave (a composition of
 * two: `% four seven` is digit words, then characters joined, then percent-encoding): the texts
 * that differ. With `outer`, also the text backwards or in ROT13 when it holds escapes written
 * that way (`33%13%`, `;15#&`, `\\h0034`), read the same ways.
 */
function plainForms(t: string, outer = false): string[] {
  const out: string[] = [];
  if (!anyMark(t)) return out;
  let frontier = [t];
  for (let round = 0; round < PLAIN_ROUNDS && frontier.length > 0; round++) {
    const next: string[] = [];
    for (const x of frontier)
      for (const step of PLAIN_STEPS) {
        const y = step(x);
        if (y !== x && y !== t && !out.includes(y) && out.length < PLAIN_MAX) {
          out.push(y);
          next.push(y);
        }
      }
    frontier = next;
  }
  const add = (x: string) => {
    if (x !== t && !out.includes(x) && out.length < 2 * PLAIN_MAX) out.push(x);
  };
  if (outer && (REVERSED_ESCAPE.test(t) || REVERSED_DIGIT_WORD.test(t))) {
    const b = backwards(t);
    add(b);
    for (const x of plainForms(b)) add(x);
  }
  if (outer && (ROT13_ESCAPE.test(t) || ROT13_DIGIT_WORD.test(t) || ROT13_HEX.test(t))) {
    const r = rot13(t);
    add(r);
    for (const x of plainForms(r)) add(x);
  }
  return out;
}

// Every mark any reading here is guarded by: a text with none, most of a call's, is not read
// again. The marks led by a sign (escapes as written, backwards, in ROT13) are tested only where
// the text has such a sign: one pattern of them all started a match at every hex letter (the
// check's cost: ten scans of each text cost it ~10 µs a call; the one pattern ~2.5 µs a text).
const SIGN = /[\\&%=;]|0[kK]|[xX]0/;
// Made on first use: the word patterns are declared below.
let ANY_WORD: RegExp | undefined;
const anyMark = (t: string) =>
  (ANY_WORD ??= new RegExp(
    `${DIGIT_WORD.source}|${REVERSED_DIGIT_WORD.source}|${ROT13_DIGIT_WORD.source}`,
    'i',
  )).test(t) ||
  SINGLES_MARK.test(t) ||
  HEX_MARK.test(t) ||
  ROT13_HEX.test(t) ||
  (SIGN.test(t) && (ESCAPE_MARK.test(t) || REVERSED_ESCAPE.test(t) || ROT13_ESCAPE.test(t)));

// Each step is guarded by a cheap test for its own mark.
const PLAIN_STEPS: ((t: string) => string)[] = [
  (t) => unescaped(t),
  (t) => hexSpelled(t),
  (t) => digitWords(t),
  (t) => joinedSingles(t),
];
const PLAIN_ROUNDS = 3;
// Texts the steps give one text at most (each step at most once more on what one gave).
const PLAIN_MAX = 8;

const backwards = (s: string) => s.split('').reverse().join('');
// Escapes as they read backwards: `%34%38` is `83%43%`, `&#52;` is `;25#&`, `\u0034` is `4300u\`,
// `0x34 0x38` is `83x0 43x0`.
const REVERSED_ESCAPE =
  /(?:[0-9a-fA-F]{2}[%=]){2}|;[0-9a-fA-F]+[xX]?#&|[0-9a-fA-F]{4}[uU]\\|[0-9a-fA-F]{2}[xX](?:\\|0\b)/;
// Escapes in ROT13: `\u` is `\h`, `\x` is `\k`, `&#x` is `&#k`, `0x` is `0k`.
// Hex digits a–f are n–s in ROT13: `%4O`.
const ROT13_ESCAPE =
  /\\[hHkK][0-9a-fA-F]{2}|&#[kK]|\b0[kK][0-9a-fA-F]{2}|%(?:[0-9][n-sN-S]|[n-sN-S][0-9n-sN-S])/;

// Single characters apart by separators (`N-D-g-y-O-T-E-z`, `4 8 2 9 1 3`): a token spelled out.
// A digit's word backwards (`ruof` is `four`).
const REVERSED_DIGIT_WORD = /\b(?:orez|eno|owt|eerht|ruof|evif|xis|neves|thgie|enin)\b/i;
// Hex bytes in ROT13 (a–f are n–s): a byte with such a letter beside another byte, apart by a
// separator. A byte of printable ASCII (a code's, a key's) starts with 2–7: two letters n–s are
// no such byte, and matched prose everywhere ("no on "), so that every text was read again in
// ROT13 whole and its ROT13 given to the rule to scan (review of the encoded forms' cost).
const ROT13_HEX =
  /[2-7][n-sN-S][-: ,][2-7][0-9n-sN-S][-: ,]|[2-7][0-9n-sN-S][-: ,][2-7][n-sN-S][-: ,]/;
// A digit's word in ROT13 (`sbhe` is `four`): a text spelled so is read in ROT13 whole.
const ROT13_DIGIT_WORD = /\b(?:mreb|bar|gjb|guerr|sbhe|svir|fvk|frira|rvtug|avar)\b/i;

// The characters of escapes too (`% 4 7 % 3 9` once digit words are read).
const SINGLES =
  /(?<![A-Za-z0-9])(?:[A-Za-z0-9+/=%&#\\][ \t\r\n.,:;_-]{1,4}){5,}[A-Za-z0-9+/=%&#\\](?![A-Za-z0-9])/g;
const SINGLES_MARK =
  /(?:^|[^A-Za-z0-9])[A-Za-z0-9+/=%&#\\][ \t\r\n.,:;_-]{1,4}[A-Za-z0-9+/=%&#\\](?:[ \t\r\n.,:;_-]|$)/;
/**
 * Characters spelled one by one, joined: the separators between two are dropped, unless they
 * are a sign and a space (`- -`, the space between two spelled words), kept as a space, so
 * `t-w-o- -s-i-x` is `two six`. Space alone (a line break where the value was wrapped) is dropped.
 */
const WORD_GAP = /[^\s][\s]|[\s][^\s]/;
function joinedSingles(t: string): string {
  if (!SINGLES_MARK.test(t)) return t;
  return t.replace(
    SINGLES,
    (run) => ` ${run.replace(/[ \t\r\n.,:;_-]+/g, (sep) => (WORD_GAP.test(sep) ? ' ' : ''))} `,
  );
}

const ESCAPE_MARK = /\\[uUxX]|&#|&amp;|%[0-9a-fA-F]{2}|=[0-9A-Fa-f]{2}=|=\r?\n/;
// Runs of one kind of escape; each decoded as bytes (UTF-8) where the escape writes bytes.
const ESCAPES =
  /(?:\\[uU]\{[0-9a-fA-F]{1,6}\}|\\[uU][0-9a-fA-F]{4})+|(?:\\[xX][0-9a-fA-F]{2})+|(?:&#(?:[xX]0*[0-9a-fA-F]{1,6}|0*\d{1,7});?)+|(?:=[0-9A-Fa-f]{2}){2,}|&amp;|=\r?\n/g;
const CODE_POINT =
  /\\[uU]\{([0-9a-fA-F]{1,6})\}|\\[uU]([0-9a-fA-F]{4})|&#(?:[xX]0*([0-9a-fA-F]{1,6})|0*(\d{1,7}));?/g;

function unescaped(t: string): string {
  let s = t;
  for (let round = 0; round < 2 && ESCAPE_MARK.test(s); round++) {
    const next = percentDecodedFully(s.replace(ESCAPES, decodeRun));
    if (next === s) break;
    s = next;
  }
  return s;
}

function decodeRun(run: string): string {
  if (run === '&amp;') return '&';
  if (run[0] === '=' && (run[1] === '\n' || run[1] === '\r')) return ''; // a soft line break
  if (run[0] === '=' || run[1] === 'x' || run[1] === 'X') {
    // Bytes: `\xE2\x82\xAC` or `=E2=82=AC` is one UTF-8 character.
    const text = printableText(Buffer.from(run.replace(/\\[xX]|=/g, ''), 'hex'));
    return text ?? run;
  }
  return run.replace(
    CODE_POINT,
    (whole, braced?: string, four?: string, hex?: string, dec?: string) => {
      const code = parseInt(braced ?? four ?? hex ?? dec!, dec ? 10 : 16);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    },
  );
}

// At least three bytes of hex, each perhaps after `0x` or `\x`, apart by at most two separators.
// A line break counts as a separator: a run wrapped over two lines is one run.
// Also `|` and `/` (`34|38|32`), and up to three (`34 . 38 . 32`): review of the encoded forms.
const HEX_RUN =
  /(?<![0-9A-Za-z])(?:(?:0[xX]|\\[xX])?[0-9a-fA-F]{2}[ \t\r\n,;:._|/-]{0,3}){3,}(?![0-9A-Za-z])/g;
// A prefix, or three bytes apart by separators: hex written whole is a token (read as one).
const HEX_MARK =
  /(?:0[xX]|\\[xX])[0-9a-fA-F]{2}|[0-9a-fA-F]{2}[ \t\r\n,;:._|/-]{1,3}[0-9a-fA-F]{2}[ \t\r\n,;:._|/-]{1,3}[0-9a-fA-F]{2}/;

/**
 * Hex bytes in their usual spellings, decoded in place (forwards, else backwards). A word of
 * prose that is hex too (`ba`, `cafe`) may border the run: the run is also read without its first
 * or last byte.
 */
function hexSpelled(t: string): string {
  if (!HEX_MARK.test(t)) return t;
  return t.replace(HEX_RUN, (run) => {
    const bytes = run.match(HEX_BYTE) ?? [];
    for (const [from, to] of TRIMS) {
      if (bytes.length - from - to < 3) continue;
      const digits = bytes
        .slice(from, bytes.length - to)
        .join('')
        .replace(/0[xX]|\\[xX]/g, '');
      const text =
        printableText(Buffer.from(digits, 'hex')) ??
        printableText(Buffer.from(digits.split('').reverse().join(''), 'hex'));
      if (text) return ` ${text} `;
    }
    return run;
  });
}
const HEX_BYTE = /(?:0[xX]|\\[xX])?[0-9a-fA-F]{2}/g;
const TRIMS: [number, number][] = [
  [0, 0],
  [1, 0],
  [0, 1],
  [1, 1],
];

const DIGIT_WORD = /\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b/i;
const DIGIT_WORDS = /\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b/gi;
// Three digit words at least: one alone is prose ("one of the two"), and reads the same.
const MIN_DIGIT_WORDS = 3;
const DIGIT_OF: Record<string, string> = {
  zero: '0',
  oh: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};

/**
 * Digits spelled as English words, written as digits, where the text spells three or more
 * (`P four Z three two Q` is `P 4 Z 3 2 Q`: the stream then reads `P4Z32Q`).
 */
function digitWords(t: string): string {
  if (!DIGIT_WORD.test(t)) return t;
  let n = 0;
  for (const _ of t.matchAll(DIGIT_WORDS)) if (++n >= MIN_DIGIT_WORDS) break;
  if (n < MIN_DIGIT_WORDS) return t;
  return t.replace(DIGIT_WORDS, (w) => DIGIT_OF[w.toLowerCase()] ?? w);
}

const LINK = /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s<>"'`]*/gi;
// A token of the base64 (and url), base32 and hex alphabets, padding on either end (backwards).
// Greedy over one character class, so a run is matched once, whatever its length.
const TOKEN = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/=_-]{8,}/g;
// What an encoder writes and a word does not: a digit or a sign, a capital after a small letter,
// or capitals only (base32).
const ENCODED_LOOK = /[0-9+/=_]|[a-z][A-Z]|^[A-Z]+$/;

/**
 * Texts a token decodes to backwards, in ROT13, and as written when it is short (under 16
 * characters) or found in a text this module derived (`derived`), which private-readings.ts'
 * decoders never saw.
 */
interface Spend {
  /** Tokens still to be decoded in this call. */
  tokens: number;
  /**
   * Tokens decoded in this call, and whether as a derived text's (which reads more ways): the
   * texts read here are mostly the call's text again (its lines joined, its escapes undone), so
   * most of their tokens were decoded already, and decoding them again gave the same texts.
   */
  read: Map<string, boolean>;
}

function tokenForms(t: string, spend: Spend, derived: boolean): string[] {
  const out: string[] = [];
  if (t.length < 8) return out;
  // A link's parts are link-payloads.ts' (as encoded-arguments.ts leaves them).
  const text = t.includes('://') ? t.replace(LINK, ' ') : t;
  for (const m of text.matchAll(TOKEN)) {
    if (spend.tokens <= 0) break;
    const token = m[0];
    // A longer run is a file's bytes (an image, an attachment), not a code; in a text this
    // module joined or decoded (rare), a key encoded twice.
    if (token.length > (derived ? MAX_DERIVED_TOKEN : MAX_TOKEN) || !ENCODED_LOOK.test(token))
      continue;
    // Read as a derived text's, a token is read every way an own text's is, and as written
    // when MIN_TOKEN or longer (shorter, it is read as written either way).
    const more = derived && token.length >= MIN_TOKEN;
    const before = spend.read.get(token);
    if (before === true || (before === false && !more)) continue;
    spend.read.set(token, more);
    spend.tokens--;
    const core = token.replace(/^=+|=+$/g, '');
    // Backwards or in ROT13 over one encoding is two; as written, two deep: a short token (a
    // longer one is encoded-arguments.ts', which reads a short one once, as base64 or hex only)
    // and a token in a text this module derived.
    const variants: [string, number][] = [];
    // A value encoded once is short (a key of 48 characters is 96 in hex); a number (a date, a
    // phone, an amount) is no encoding backwards, unless hex of digits (`331393238343`).
    if (core.length <= MAX_TURNED && (/[A-Za-z]/.test(core) || HEX_DIGITS.test(core))) {
      variants.push([core.split('').reverse().join(''), 1]);
      // ROT13 changes letters only: a token of digits and signs reads the same.
      if (/[A-Za-z]/.test(core)) variants.push([rot13(core), 1]);
    }
    const turned = variants.length;
    if (derived || core.length < MIN_TOKEN) variants.push([core, 2]);
    // A token glued after a key (`id=ODI2Mzk1`): each piece between `=` signs as written.
    if (core.includes('='))
      for (const p of core
        .split(/=+/)
        .filter((x) => x.length >= 6)
        .slice(0, MAX_PIECES))
        variants.push([p, 2]);
    // A token of hex digits only (most ids) turned is read as hex alone: base32hex and z-base-32
    // take its characters too, and decoding it three more ways was most of this module's cost.
    const hexOnly = /^[0-9a-fA-F]+$/.test(core);
    for (const [i, [v, depth]] of variants.entries()) {
      if (hexOnly && i < turned) {
        const d = v.length % 2 === 0 ? printableText(Buffer.from(v, 'hex')) : undefined;
        if (d !== undefined && !out.includes(d)) out.push(d);
        continue;
      }
      for (const { text: d } of decodingsNamed(v, depth)) if (!out.includes(d)) out.push(d);
    }
  }
  return out;
}
