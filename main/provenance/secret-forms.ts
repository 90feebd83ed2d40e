import type { SignificantValue } from './values.js';

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
 * in ROT13 and ROT13 backwards. A code (kind `secret`, upper case) is matched in the upper-case
 * stream, a key (kind `token`, case matters) in the stream as written. Only values of at least
 * MIN_FORM characters: a four-digit PIN is every fourth year or room number read in a stream.
 */

export const MIN_FORM = 6;

/** What the index keeps of one form: where it is matched and the value it stands for. */
export interface SecretForm {
  /** The form's letters and digits (upper case for a code). */
  text: string;
  /** Matched in the stream as written (a key) rather than upper-cased (a code). */
  exact: boolean;
  key: Pick<SignificantValue, 'kind' | 'value'>;
}

/** ROT13 of ASCII letters (digits and the rest unchanged). */
export function rot13(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) out += String.fromCharCode(((c - 52) % 26) + 65);
    else if (c >= 97 && c <= 122) out += String.fromCharCode(((c - 84) % 26) + 97);
    else out += s[i];
  }
  return out;
}

const backwards = (s: string) => s.split('').reverse().join('');

/** The forms of one of the user's values (none for a value too short to read in a stream). */
export function formsOf(key: Pick<SignificantValue, 'kind' | 'value'>): SecretForm[] {
  if (key.kind !== 'secret' && key.kind !== 'token') return [];
  const exact = key.kind === 'token';
  const core = key.value.replace(/[^A-Za-z0-9]/g, '');
  const text = exact ? core : core.toUpperCase();
  if (text.length < MIN_FORM) return [];
  const texts = new Set([text, backwards(text), rot13(text), rot13(backwards(text))]);
  return [...texts].map((t) => ({ text: t, exact, key }));
}

/**
 * The first characters of a form or of a place in a stream, as a number: base 36 over
 * HASH_CHARS characters, below 2^31 so that V8 keeps it a small integer. Letters in either case
 * count the same (a key's place is then checked as written).
 */
const HASH_CHARS = 5;
const HASH_MOD = 36 ** HASH_CHARS;
const DIGIT_OF = new Int8Array(128).fill(-1);
for (let c = 48; c < 58; c++) DIGIT_OF[c] = c - 48;
for (let c = 65; c < 91; c++) DIGIT_OF[c] = c - 55;
for (let c = 97; c < 123; c++) DIGIT_OF[c] = c - 87;

export function formHash(s: string, at = 0): number {
  let h = 0;
  for (let i = at; i < at + HASH_CHARS; i++) h = h * 36 + DIGIT_OF[s.charCodeAt(i)]!;
  return h;
}

/** At most this many characters of a call's texts are read as a stream (values.ts's scan, twice). */
export const MAX_STREAM = 400_000;

/**
 * Every place in a text's stream of letters and digits where a form of `lookup` starts: one
 * pass by character code (no copy of the text is made), a rolling hash per letter or digit, a
 * bit test per place (`maybe`), a map lookup and a comparison only where the bit is set.
 */
export function formsIn(
  text: string,
  maybe: (hash: number) => boolean,
  lookup: (hash: number) => Iterable<SecretForm>,
): SecretForm[] {
  const out: SecretForm[] = [];
  const n = Math.min(text.length, MAX_STREAM);
  // Where the last HASH_CHARS letters and digits were, so a place's first one is known.
  const at = new Int32Array(HASH_CHARS);
  let seen = 0;
  let h = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? DIGIT_OF[c]! : c < 0xd800 || c > 0xdfff ? wideDigit(c) : -1;
    if (d < 0) continue;
    h = (h * 36 + d) % HASH_MOD;
    at[seen % HASH_CHARS] = i;
    seen++;
    if (seen < HASH_CHARS || !maybe(h)) continue;
    const start = at[seen % HASH_CHARS]!;
    for (const f of lookup(h)) if (!out.includes(f) && formAt(text, start, n, f)) out.push(f);
  }
  return out;
}

/** Whether the form's characters follow from `i` on, other characters skipped. */
function formAt(text: string, i: number, n: number, f: SecretForm): boolean {
  let k = 0;
  for (; i < n && k < f.text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 128) c = asciiOf(c);
    if (c < 0 || DIGIT_OF[c]! < 0) continue;
    if (!f.exact && c >= 97) c -= 32; // a code is matched in upper case
    if (c !== f.text.charCodeAt(k)) return false;
    k++;
  }
  return k === f.text.length;
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

/** Bits of each generation's filter of form hashes (8 KiB). */
export const FORM_FILTER_BITS = 1 << 16;
export const filterBit = (hash: number) => hash & (FORM_FILTER_BITS - 1);
