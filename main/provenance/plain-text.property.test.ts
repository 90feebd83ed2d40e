import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContentIndex } from './content-index.js';
import { plainWords } from './plain-text.js';
import { contentValues, DOT_WORDS } from './readings.js';
import { extractValues, shingles } from './values.js';

/**
 * Issue 34: the content index reads no value from a short plain text (plain-text.ts) and hashes
 * no phrase from one of fewer than eight words. Proven here against the full reading: over
 * generated texts — plain words and the near misses of every rule (digits, long runs, one-letter
 * words, the words of a spelled address, every mark the readings look for) — whenever
 * `plainWords` says plain, the full reading (values as written and as read, readings.ts) finds
 * nothing and `shingles` hashes one phrase per word past the seventh; then a held-out list.
 */

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const word = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((c) => c.join(''));

/** An address spelled out, its "dot" maybe letter by letter ("p o i n t"): rules 4 and 5. */
const spelled = fc
  .tuple(
    word(LETTERS, 2, 8),
    fc.constantFrom(' at ', ' AT ', ' arroba ', ' '),
    word(LETTERS, 2, 8),
    fc.constantFrom(' dot ', ' point ', ' d o t ', ' p o i n t ', ' p, o, i, n, t ', ' P O I N T '),
    word(LETTERS, 2, 6),
  )
  .map((p) => p.join(''));
/** A phone's digits in groups (rule 2), and keys glued with `-` or `_` past any run (rule 3). */
const phone = fc
  .array(word(DIGITS + 'OoIl', 1, 4), { minLength: 2, maxLength: 5 })
  .chain((groups) => fc.constantFrom(' ', '  ', ', ').map((sep) => groups.join(sep)));
/** Marks glued to words, as a link, a veiled host or an address is written (rule 1). */
const marked = fc
  .tuple(
    word(LETTERS, 1, 6),
    fc.constantFrom('://', '%2e', '%2E', '%40', '@', '.', '/', '&#46;', '-\n'),
    word(LETTERS, 1, 6),
  )
  .chain(([a, mark, b]) =>
    fc.constantFrom(`${a}${mark}${b}`, `https${mark}${b}`, `${b}${mark}sptth`),
  );
const glued = fc
  .array(word(LETTERS + DIGITS, 4, 15), { minLength: 2, maxLength: 4 })
  .chain((runs) => fc.constantFrom('-', '_').map((sep) => runs.join(sep)));

/** What plain text is made of, and the fragments that sit on the edge of a rule. */
const fragment = fc.oneof(
  { weight: 1, arbitrary: spelled },
  { weight: 1, arbitrary: phone },
  { weight: 1, arbitrary: glued },
  { weight: 1, arbitrary: marked },
  { weight: 8, arbitrary: word(LETTERS, 2, 9) },
  { weight: 2, arbitrary: word(LETTERS + DIGITS, 1, 17) },
  { weight: 2, arbitrary: word(DIGITS, 1, 4) },
  { weight: 3, arbitrary: fc.constantFrom(...LETTERS, ...DIGITS) }, // one-letter words
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'dot',
      'DOT',
      'Point',
      'punkt',
      'punto',
      'ponto',
      'dots',
      'pointer',
      'at',
      'AT',
      'arroba',
      'rot13',
      'rot 13',
      'BEGIN:VCARD',
      'hxxp',
      'reverse',
      'at sign',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '.',
      '@',
      '-',
      '_',
      '/',
      '://',
      '%40',
      '&#64;',
      '\\u0040',
      '=40',
      '=?',
      '(',
      '[at]',
      '"',
      '+',
      'é',
      '\u3002',
      'е', // Cyrillic
      '＠',
      '\u{E0041}',
      '\u200B',
      'O',
      'l',
      'YmlsbGluZ0BldmlsLnRlc3Q',
      'YWJAZXZpbC50ZXN0', // base64 of ab@evil.test: a run of sixteen
      '62696c6c696e67406576696c2e74657374',
      'tset.live@gnillib',
      'billing@evil.test',
      'drop.evil.test',
      'https://evil.test/u',
      '+1 (555) 019-2837',
      '555 019 2837',
      '5550192837',
    ),
  },
);
const separator = fc.oneof(
  { weight: 8, arbitrary: fc.constant(' ') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(', ', ',', ': ', '! ', '? ', "'", '\n', '\t', '\r\n', '\n '),
  },
);
const textArb = fc
  .array(fc.tuple(fragment, separator), { maxLength: 20 })
  .map((parts) => parts.map(([f, s]) => f + s).join(''));

/** The words `shingles` hashes (values.ts `words`). */
const wordCount = (t: string) => (t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).length;

function agrees(t: string): boolean {
  const n = plainWords(t);
  if (n < 0) return false;
  expect(n).toBe(wordCount(t));
  expect(extractValues(t)).toEqual([]);
  expect(contentValues(t)).toEqual([]);
  expect(shingles(t)).toHaveLength(Math.max(0, n - 7));
  return true;
}

describe('plain text: nothing to read, the same as the full reading (issue 34)', () => {
  it('generated texts said plain hold no value as written or as read, and their words counted', () => {
    let plain = 0;
    let found = 0;
    fc.assert(
      fc.property(textArb, (t) => {
        if (agrees(t)) plain++;
        else if (contentValues(t).length > 0) found++;
      }),
      { numRuns: 6_000, seed: 0x34_0c },
    );
    // Both sides are well visited: ≈ 2,200 texts are plain, and ≈ 2,300 of the others hold values
    // the full reading finds (so a rule let too loose meets them).
    expect(plain).toBeGreaterThan(1_500);
    expect(found).toBeGreaterThan(1_500);
  });

  it('one-letter words, spelled words and digits on the edge of their rules', () => {
    // Each of these, read in full, holds a value: none may be taken for plain.
    for (const t of [
      'billing at evil dot test',
      'send it to billing at evil dot test',
      'billing at evil p o i n t test',
      'b i l l i n g at evil dot test',
      'then vault desk dot test',
      'call 555 019 2837',
      'call 5 5 5 0 1 9 2 8 3 7',
      'call 555 O19 2837',
      'YmlsbGluZ0BldmlsLnRlc3Q',
      'YWJAZXZpbC50ZXN0', // base64 of ab@evil.test: a run of sixteen
      'key sk4eC39HqLyjWDarjtT1zdp7dc',
    ]) {
      expect(contentValues(t).length, t).toBeGreaterThan(0);
      expect(plainWords(t), t).toBe(-1);
    }
    for (const t of ['Echo: m12', 'OK', '', 'Created 3 issues', 'I have a cat', 'Done: 4 of 5!'])
      expect(agrees(t), t).toBe(true);
    // Not plain, though it holds nothing: read in full, as before (rule 4 is a word, not a phrase).
    expect(plainWords('at the point of no return')).toBe(-1);
  });

  it("every word readings.ts reads as a dot makes a text not plain (rule 4 is readings.ts's list)", () => {
    const ascii = DOT_WORDS.filter((w) => /^[a-z]+$/i.test(w));
    expect(ascii.length).toBeGreaterThan(0);
    for (const w of ascii)
      for (const v of [w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1)]) {
        const t = `Echo: billing at evil ${v} test`;
        expect(contentValues(t).length, t).toBeGreaterThan(0);
        expect(plainWords(t), t).toBe(-1);
      }
  });

  it('the index keys a plain text as the full reading does: by its reference alone', () => {
    const index = new ContentIndex();
    const item = {
      kind: 'remote' as const,
      label: 'a result',
      ref: 'everything',
      untrusted: true,
      private: false,
      tool: 'everything__echo',
    };
    index.add(item, 'Echo: m12');
    expect(index.size()).toBe(1); // the item, found by its reference
    expect(index.itemsWithRef('everything')).toHaveLength(1);
    // Eight words or more: hashed as phrases, as before.
    index.add(item, 'Echo: the quick brown fox jumps over the lazy dog');
    expect(index.size()).toBe(1 + 3); // ten words: three phrases
    index.add(item, 'Echo: billing at evil dot test');
    expect(index.hasValue({ kind: 'email', value: 'billing@evil.test' })).toBe(true);
  });
});
