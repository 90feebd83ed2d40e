/**
 * Short plain text, in which no value can be read (issue 34): "Echo: m12", "OK", "Created 3
 * issues". The content index reads every result an agent receives; most are texts like these,
 * and the full reading (values.ts, readings.ts, encoded-readings.ts) runs some thirty patterns
 * over each to find nothing. One pass over the characters proves there is nothing to find, and
 * counts the words for the phrase index (values.ts `shingles`).
 *
 * A text is plain when it is at most PLAIN_MAX_CHARS long and
 *
 * 1. holds only ASCII letters and digits, spaces, tabs, line breaks and `:` `,` `!` `?` `'`: no
 *    `@` `.` `/` (addresses, hosts, links), no `%` `&` `\` `=` `[({<` `+` `-` `_` `"` (the
 *    encodings and veils identity.ts and encoded-readings.ts undo, phones' and keys' marks), and
 *    nothing outside ASCII (NFKC, full-width forms, CJK, lookalikes, tag characters);
 * 2. has fewer than PLAIN_MAX_DIGITS digits: a phone needs nine (values.ts PHONE), a phone with
 *    letters for digits seven real ones (readings.ts);
 * 3. has no run of letters and digits as long as PLAIN_MAX_RUN: base64 and hex runs are read
 *    from sixteen (encoded-readings.ts LONG_RUN), keys from twenty-four (values.ts TOKEN);
 * 4. has no word a spelled-out address is made with: "dot", "point", "punkt", "punto", "ponto",
 *    "pont", "punt", "piste", … (readings.ts DOT_WORDS, taken from there; every spelled reading
 *    needs one);
 * 5. has no four one-letter words in a row, with only spaces, tabs, line breaks or commas
 *    between them: the letter-by-letter reading (readings.ts) joins such runs, and could spell a
 *    word of rule 4 ("p o i n t").
 *
 * With these, every reading leaves the text as it is or gives one with no address, host, link
 * or phone in it (rot13 of it, an iCalendar text unfolded), and the scan finds no value in the
 * text or in them. plain-text.property.test.ts checks that the full reading agrees, over
 * generated texts on both sides of every rule.
 */

import { DOT_WORDS } from './readings.js';

/** Longer texts are read in full: the fast path is for short answers. */
export const PLAIN_MAX_CHARS = 4096;
const PLAIN_MAX_DIGITS = 7;
const PLAIN_MAX_RUN = 16;
const MAX_SINGLES = 4;

/**
 * The number of words (runs of letters and digits, as `shingles` counts them) of a plain text,
 * or -1 when the text is not plain and must be read in full.
 */
export function plainWords(text: string): number {
  if (text.length > PLAIN_MAX_CHARS) return -1;
  let words = 0;
  let digits = 0;
  let start = -1; // where the current word started, or -1 between words
  let singles = 0; // one-letter words in a row
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const digit = c >= 48 && c <= 57;
    if (digit || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      if (digit && ++digits >= PLAIN_MAX_DIGITS) return -1;
      if (start < 0) {
        start = i;
        words++;
      } else if (i - start + 1 >= PLAIN_MAX_RUN) return -1;
      continue;
    }
    if (start >= 0) {
      const length = i - start;
      if (length === 1) {
        if (++singles >= MAX_SINGLES) return -1;
      } else {
        singles = 0;
        // A dot word's length and first letter (bit sets, below) before the lookup, here and not
        // in a call per word: most words have neither (issue 34).
        const first = (text.charCodeAt(start) | 0x20) - 97; // ASCII lower case, a = 0
        if (
          length <= 30 &&
          (dotLengths & (1 << length)) !== 0 &&
          first >= 0 &&
          (dotFirsts & (1 << first)) !== 0 &&
          dotWord(text, start, length)
        )
          return -1;
      }
      start = -1;
    }
    // Between words: what a letter-by-letter run may be separated by keeps the count of
    // one-letter words (a superset of readings.ts's separators); other marks end a run.
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 44) continue;
    if (c === 58 || c === 33 || c === 63 || c === 39) {
      singles = 0;
      continue;
    }
    return -1;
  }
  return words;
}

// Rule 4's words are readings.ts's own (DOT_WORDS), so a word added there is not skipped here.
// Only ASCII ones can be in a plain text (rule 1); their lengths and first letters as bit sets,
// so most words are passed over without a string made.
const ASCII_DOT_WORDS = new Set(
  DOT_WORDS.map((w) => w.toLowerCase()).filter((w) => /^[a-z]{1,30}$/.test(w)),
);
let dotLengths = 0;
let dotFirsts = 0;
for (const w of ASCII_DOT_WORDS) {
  dotLengths |= 1 << w.length;
  dotFirsts |= 1 << (w.charCodeAt(0) - 97);
}

/** Whether the word (a run of ASCII letters and digits) is one of rule 4's. */
function dotWord(text: string, start: number, length: number): boolean {
  return ASCII_DOT_WORDS.has(text.slice(start, start + length).toLowerCase());
}
