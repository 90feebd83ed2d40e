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
  return s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
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

/** A call's letters and digits, as written and upper case, aligned: what forms are matched in. */
export interface FormStream {
  exact: string;
  upper: string;
}

/** At most this many characters of a call's texts are read as a stream (values.ts's scan, twice). */
export const MAX_STREAM = 400_000;

export function formStream(text: string): FormStream {
  const t = text.length > MAX_STREAM ? text.slice(0, MAX_STREAM) : text;
  const exact = t.replace(/[^A-Za-z0-9]+/g, '');
  return { exact, upper: exact.toUpperCase() };
}

/**
 * Every place in the stream where a form of `lookup` starts: one rolling hash per character,
 * a bit test per place (`maybe`), a map lookup only where the bit is set.
 */
export function formsIn(
  stream: FormStream,
  maybe: (hash: number) => boolean,
  lookup: (hash: number) => readonly SecretForm[] | undefined,
): SecretForm[] {
  const { upper, exact } = stream;
  const out: SecretForm[] = [];
  if (upper.length < MIN_FORM) return out;
  let h = 0;
  for (let i = 0; i < upper.length; i++) {
    h = (h * 36 + DIGIT_OF[upper.charCodeAt(i)]!) % HASH_MOD;
    if (i < HASH_CHARS - 1 || !maybe(h)) continue;
    const at = i - HASH_CHARS + 1;
    for (const f of lookup(h) ?? [])
      if ((f.exact ? exact : upper).startsWith(f.text, at) && !out.includes(f)) out.push(f);
  }
  return out;
}

/** Bits of each generation's filter of form hashes (8 KiB). */
export const FORM_FILTER_BITS = 1 << 16;
export const filterBit = (hash: number) => hash & (FORM_FILTER_BITS - 1);
