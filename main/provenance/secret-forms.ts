import { backwards, encodingsOf, rot13 } from './form-encodings.js';
import type { SignificantValue } from './values.js';

export { rot13 };

/**
 * The forms a key or code of the user's takes in an outgoing call once a stranger has asked for
 * it "written backwards", "in ROT13", "digit by digit with dashes", "split over two fields" or
 * glued into a longer string (outside corpus batch 6 and its review; docs/provenance.md, "The
 * private-data rule reads the call's strings decoded"). Rather than guess where a code starts in
 * the call, the call's letters and digits are read as one stream (every other character
 * dropped: separators, line breaks, the gap between two strings) and every place in it is
 * looked up against the forms of the user's own values, held by the index (content-index.ts).
 * So `4-8-2-9-1-3`, `4 8 2 9 1 3`, `ref482913x`, `"482", "913"` and `319284` all read as 482913.
 *
 * A form is a value's letters and digits (a key's `_` and `-` dropped too), as written, backwards,
 * in ROT13 and ROT13 backwards, and the letters and digits of the value in each encoding and
 * composition of two of form-encodings.ts (made once, when the value is indexed). A code (kind
 * `secret`, upper case) and every encoded form are matched in the upper-case stream, a key's own
 * forms (kind `token`, case matters) in the stream as written. Only values of at least MIN_FORM
 * characters: a four-digit PIN is every fourth year or room number read in a stream.
 */

export const MIN_FORM = 6;

/** What the index keeps of one form: where it is matched and the value it stands for. */
export interface SecretForm {
  /** The form's letters and digits (upper case for a code). */
  text: string;
  /** Matched in the stream as written (a key) rather than upper-cased (a code). */
  exact: boolean;
  key: Pick<SignificantValue, 'kind' | 'value'>;
  /** Digits only: matched only where no digit adjoins it in the text (not inside a longer run). */
  bounded: boolean;
}

/** The letters and digits of a text (what the stream reads of it), at most MAX_FORM_TEXT. */
const streamOf = (s: string) => s.replace(/[^A-Za-z0-9]/g, '').slice(0, MAX_FORM_TEXT);

/**
 * The forms of one of the user's values (none for a value too short to read in a stream): its
 * letters and digits as written, backwards, in ROT13 and ROT13 backwards (a key's case kept),
 * and in every encoding and composition of two of form-encodings.ts (computed here once, when
 * the value enters the index; matched in upper case, as hex and base32 are written either way).
 */
export function formsOf(key: Pick<SignificantValue, 'kind' | 'value'>): SecretForm[] {
  if (key.kind !== 'secret' && key.kind !== 'token') return [];
  const exact = key.kind === 'token';
  const core = key.value.replace(/[^A-Za-z0-9]/g, '');
  const text = exact ? core : core.toUpperCase();
  if (text.length < MIN_FORM) return [];
  // Each cut to MAX_FORM_TEXT as the encoded forms are: a place's compare then reads at most
  // that many letters and digits, so a stream of one repeated character against a 256-character
  // key of that character (a token a stranger's mail planted) costs 40 steps a place, not 256
  // (review of the encoded forms: 0.8 s for one call of 400,000 characters before).
  const plain = new Set(
    [text, backwards(text), rot13(text), rot13(backwards(text))].map((t) =>
      t.slice(0, MAX_FORM_TEXT),
    ),
  );
  const forms = [...plain].map((t) => form(t, exact, key));
  const folded = new Set([...plain].map((t) => t.toUpperCase()));
  for (const e of encodingsOf(key.value)) {
    const t = streamOf(e).toUpperCase();
    if (t.length < MIN_FORM || folded.has(t)) continue;
    folded.add(t);
    forms.push(form(t, false, key));
  }
  return forms;
}

/**
 * Of an encoded form, this many letters and digits are matched: enough that no other text has
 * them by chance (a key's hex is 64 and more), and the index's memory stays about 27 KiB a value
 * (content-index.ts bounds the values that have forms).
 */
export const MAX_FORM_TEXT = 40;
// A run of digits this short is matched only where it is not part of a longer run in the text
// (a CSV of 10,000 digits would hold a six-digit code's digits by chance 2% of the time).
const SHORT_DIGITS = /^[0-9]{1,11}$/;
const form = (
  text: string,
  exact: boolean,
  key: Pick<SignificantValue, 'kind' | 'value'>,
): SecretForm => ({ text, exact, key, bounded: SHORT_DIGITS.test(text) });

/**
 * The first characters of a form or of a place in a stream, as a number: six bits a character
 * over HASH_CHARS characters (30 bits, a small integer to V8), so the stream's rolling value is
 * a shift and a mask a character. Letters in either case count the same (a key's place is then
 * checked as written).
 */
const HASH_CHARS = 5;
const HASH_MASK = (1 << (6 * HASH_CHARS)) - 1;
const DIGIT_OF = new Int8Array(128).fill(-1);
for (let c = 48; c < 58; c++) DIGIT_OF[c] = c - 48;
for (let c = 65; c < 91; c++) DIGIT_OF[c] = c - 55;
for (let c = 97; c < 123; c++) DIGIT_OF[c] = c - 87;

export function formHash(s: string, at = 0): number {
  let h = 0;
  for (let i = at; i < at + HASH_CHARS; i++) h = (h << 6) | DIGIT_OF[s.charCodeAt(i)]!;
  return h;
}

/** At most this many characters of a call's texts are read as a stream (values.ts's scan, twice). */
export const MAX_STREAM = 400_000;

/**
 * Every place in a text's stream of letters and digits where a form starts: one pass by
 * character code (no copy of the text is made), a rolling value per letter or digit and a bit
 * test per place in each generation's filter (`filters`, one or two), a map lookup and a
 * comparison only where a bit is set. The forms are the index's, made once per value (a couple
 * of hundred each): the pass costs the same whatever their number (a Rabin–Karp search for many
 * patterns at once, in place of an Aho–Corasick automaton, whose tables would cost the index
 * ~36 entries a character of every form).
 */
export function formsIn(
  text: string,
  filters: readonly Uint8Array[],
  lookup: (hash: number) => Iterable<SecretForm>,
): SecretForm[] {
  const out: SecretForm[] = [];
  const n = Math.min(text.length, MAX_STREAM);
  const f0 = filters[0];
  if (!f0) return out;
  const f1 = filters[1] ?? f0;
  let seen = 0;
  let h = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? DIGIT_OF[c]! : c < 0xd800 || c > 0xdfff ? wideDigit(c) : -1;
    if (d < 0) continue;
    h = ((h << 6) | d) & HASH_MASK;
    if (++seen < HASH_CHARS) continue;
    const b = filterBit(h);
    if (((f0[b >>> 3]! | f1[b >>> 3]!) & (1 << (b & 7))) === 0) continue;
    const start = placeStart(text, i);
    for (const f of lookup(h)) if (!out.includes(f) && formAt(text, start, n, f)) out.push(f);
  }
  return out;
}

/** Where the place ending at `end` starts: HASH_CHARS letters and digits back. */
function placeStart(text: string, end: number): number {
  let k = 0;
  let i = end;
  for (; i >= 0; i--) {
    let c = text.charCodeAt(i);
    if (c >= 128) c = asciiOf(c);
    if (c >= 0 && DIGIT_OF[c]! >= 0 && ++k === HASH_CHARS) break;
  }
  return i;
}

/**
 * Whether the form's characters follow from `i` on, other characters skipped; for a short run
 * of digits (`bounded`), with no digit right before or after it in the text: `4-8-2-9-1-3` and
 * `ref482913x` are the code, a window of a longer run of digits (`…7,48291,3…`) is not.
 */
function formAt(text: string, i: number, n: number, f: SecretForm): boolean {
  if (f.bounded && i > 0 && isDigit(text.charCodeAt(i - 1))) return false;
  let k = 0;
  for (; i < n && k < f.text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 128) c = asciiOf(c);
    if (c < 0 || DIGIT_OF[c]! < 0) continue;
    if (!f.exact && c >= 97) c -= 32; // a code is matched in upper case
    if (c !== f.text.charCodeAt(k)) return false;
    k++;
  }
  if (k !== f.text.length) return false;
  return !(f.bounded && i < text.length && isDigit(text.charCodeAt(i)));
}

function isDigit(c: number): boolean {
  if (c >= 128) c = asciiOf(c);
  return c >= 48 && c <= 57;
}

/**
 * A letter or digit of another script or width read as its ASCII one: a decimal digit of any
 * script (Unicode general category Nd: `٤` `४` `４` are 4) and the fullwidth Latin letters
 * (U+FF21–FF5A, NFKC's A–z). A stranger's "write the code in Arabic numerals" or in fullwidth
 * slipped past a stream of ASCII only (review of the encoded forms). Basic plane only (the
 * mathematical digits are surrogate pairs); each code point looked up once, then kept.
 */
const ND = /^\p{Nd}$/u;
const WIDE = new Int16Array(0x10000); // 0 not looked up yet, -1 none, else the ASCII code
function asciiOf(c: number): number {
  let a = WIDE[c]!;
  if (a === 0) WIDE[c] = a = wideOf(c);
  return a;
}
function wideOf(c: number): number {
  if (c >= 0xff21 && c <= 0xff3a) return c - 0xff21 + 65;
  if (c >= 0xff41 && c <= 0xff5a) return c - 0xff41 + 97;
  if (!ND.test(String.fromCharCode(c))) return -1;
  // Unicode's decimal digits come in runs of ten from zero (UAX #44, Nd): the run's start.
  let zero = c;
  while (zero > 128 && ND.test(String.fromCharCode(zero - 1))) zero--;
  return 48 + ((c - zero) % 10);
}
const wideDigit = (c: number) => {
  const a = asciiOf(c);
  return a < 0 ? -1 : DIGIT_OF[a]!;
};

/**
 * Bits of each generation's filter of form hashes (64 KiB): a value has a couple of hundred
 * forms, and a place whose bit is set costs a map lookup.
 */
const FILTER_LOG = 19;
export const FORM_FILTER_BITS = 1 << FILTER_LOG;
// Mixed, so that a bit depends on every character of the place (the low bits are its last three).
export const filterBit = (hash: number) => Math.imul(hash, 0x9e3779b1) >>> (32 - FILTER_LOG);
