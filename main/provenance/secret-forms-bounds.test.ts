import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spelledReadings } from './call-spellings.js';
import {
  FORM_FILTER_BITS,
  MAX_FORM_TEXT,
  filterBit,
  formHash,
  formsIn,
  formsOf,
  type SecretForm,
} from './secret-forms.js';

/**
 * Rule 2's stream and call-spellings.ts run on every outgoing call, whatever the agent writes
 * in it: their work grows with the call's length, never with its square, and a form's compare
 * is bounded whatever value a stranger's mail planted in the index (review of the encoded forms).
 * A hash or filter bit alone never finds a value: each place is compared character by character.
 */

type Value = { kind: 'secret' | 'token'; value: string };

function index(values: Value[]) {
  const byHash = new Map<number, SecretForm[]>();
  const bits = new Uint8Array(FORM_FILTER_BITS / 8);
  for (const v of values)
    for (const f of formsOf(v)) {
      const h = formHash(f.text);
      byHash.set(h, [...(byHash.get(h) ?? []), f]);
      const b = filterBit(h);
      bits[b >> 3] = bits[b >> 3]! | (1 << (b & 7));
    }
  return { bits, lookup: (h: number) => byHash.get(h) ?? [] };
}

const VALUES: Value[] = [
  { kind: 'secret', value: '482913' },
  { kind: 'token', value: 'sk_live_Znav96A8b5aHhRJwg9RUUxQ4' },
  // Planted by a stranger's mail: a key of one repeated letter, as long as values.ts reads.
  { kind: 'token', value: `${'A'.repeat(250)}B1` },
  { kind: 'token', value: `${'7'.repeat(200)}x${'7'.repeat(55)}` },
];

describe('forms are bounded', () => {
  it(`no form of any code or key is longer than MAX_FORM_TEXT (${MAX_FORM_TEXT})`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom('secret' as const, 'token' as const),
        fc.string({ unit: fc.constantFrom(...'Aa7_-'), minLength: 6, maxLength: 256 }),
        (kind, value) => formsOf({ kind, value }).every((f) => f.text.length <= MAX_FORM_TEXT),
      ),
    );
    for (const v of VALUES)
      expect(Math.max(...formsOf(v).map((f) => f.text.length))).toBeLessThanOrEqual(MAX_FORM_TEXT);
  });
});

// Hostile texts of about n characters: runs of escape marks, half-escapes, alternating hex and
// not, digits, nested encodings, surrogate pairs, NULs, the first letters of a form repeated.
const HOSTILE: Record<string, (n: number) => string> = {
  'backslash-x run': (n) => '\\x'.repeat(n / 2),
  'backslash-x4 run': (n) => '\\x4'.repeat(n / 3),
  '&# run': (n) => '&#'.repeat(n / 2),
  '&#1 run': (n) => '&#1'.repeat(n / 3),
  '&#x then zeros': (n) => `&#x${'0'.repeat(n)}g`,
  '% run': (n) => '%'.repeat(n),
  '%25 nested': (n) => `\\x41%${'25'.repeat(n / 2)}41`,
  'hex/non-hex': (n) => 'ag'.repeat(n / 2),
  'hex bytes apart': (n) => '41 42 43    '.repeat(n / 12),
  '0x bytes glued': (n) => `${'0x41'.repeat(n / 4)}g`,
  '\\x bytes': (n) => `${'\\x41'.repeat(n / 4)}g`,
  'quoted-printable': (n) => `${'=41'.repeat(n / 3)}=`,
  '\\u escapes': (n) => '\\u0041'.repeat(n / 6),
  '\\u{ then zeros': (n) => `\\u{${'0'.repeat(n)}`,
  'digits (1 MiB scale)': (n) => '7'.repeat(n),
  'digits varied': (n) => Array.from({ length: n }, (_, i) => (i * 7919) % 10).join(''),
  'surrogate pairs': (n) => '\uD835\uDFCE'.repeat(n / 2),
  NULs: (n) => '\u0000'.repeat(n),
  'nested hex of hex': (n) => {
    let s = '482913';
    while (s.length < n)
      s = Buffer.from(s)
        .toString('hex')
        .replace(/../g, (x) => `\\x${x}`);
    return s.slice(0, n);
  },
  'a form apart by signs': (n) => 'A!!!!!!!'.repeat(n / 8),
  "a form's first letters": (n) => 'A'.repeat(n),
  "a code's first digits": (n) => '48291 '.repeat(n / 6),
};

// Linear time on these texts is measured, not asserted: no clock decides a test here (BRIEF, "No
// clock in tests"; eslint/test-clock.js). The review of the encoded forms timed t(4n) / t(n), the
// least of nine runs each, at 3.6–5.1 for every text below (≈ 4 is linear, ≈ 16 quadratic); the
// work is bounded whatever the text by the caps read here (MAX_SPELLED_CHARS, MAX_STREAM) and
// by MAX_FORM_TEXT per compare (above). What the tests below hold: every hostile text is read to
// the end at 4n, readings never grow what they decode, and the stream finds exactly the values a
// text holds.
const RUN_KEYS = VALUES.slice(2).map((v) => v.value);

describe('hostile texts are read to the end, their output bounded', () => {
  const ix = index(VALUES);
  const n = 40_000; // 4n under both caps (MAX_SPELLED_CHARS, MAX_STREAM): one path read
  for (const [name, make] of Object.entries(HOSTILE)) {
    it(`call-spellings: ${name}`, () => {
      // Readings only ever shrink what they decode (each adds two spaces around 3+ bytes).
      const out = spelledReadings(make(4 * n));
      expect(out.reduce((a, s) => a + s.length, 0)).toBeLessThanOrEqual(2 * 4 * n);
    });
    it(`stream: ${name}`, () => {
      const found = new Set(formsIn(make(4 * n), [ix.bits], ix.lookup).map((f) => f.key.value));
      // None of these texts holds the code or the live key in any form; a long run of one letter
      // or digit may meet the planted keys, whose forms are their first MAX_FORM_TEXT characters.
      for (const v of found) expect(RUN_KEYS).toContain(v);
    });
  }
});

describe('a hash match alone finds nothing (each place compared exactly)', () => {
  const all = VALUES.flatMap(formsOf);
  const ones = new Uint8Array(FORM_FILTER_BITS / 8).fill(255);
  // Every place collides with every form: only the compare can tell them apart.
  const values = (found: SecretForm[]) => [...new Set(found.map((f) => f.key.value))];
  const collide = (text: string) => values(formsIn(text, [ones], () => all));
  const exact = (text: string) => {
    const ix = index(VALUES);
    return values(formsIn(text, [ix.bits], ix.lookup));
  };

  it('texts that hold no form: nothing found under total collision', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'4829137AaBbskZn_ -'), maxLength: 300 }),
        (t) => {
          const found = new Set(collide(t));
          // Whatever is found is there: the same as the real index finds.
          expect(found).toEqual(new Set(exact(t)));
        },
      ),
    );
    expect(collide('48291x 4829 1 4 829 1x 91284 sk_live_Znav96A8b5a')).toEqual([]);
  });

  it('the first characters (the hashed ones) alike, the rest not: not found', () => {
    expect(collide('48291 7')).toEqual([]);
    expect(collide('sk live Xnav96A8b5aHhRJwg9RUUxQ4')).toEqual([]);
    expect(collide('sklivZnav96A8b5aHhRJwg9RUUxQ4')).toEqual([]);
    // A key's hash folds case; its own forms' compare does not (its compositions' forms, in
    // upper case, read its first 28 letters and digits: 'SK_LIVE_ZNAV…' is found by them).
    expect(exact('SK_LIVE_ZNAV96A8B5AHHRJWG9RUUXQ4')).toEqual(['sk_live_Znav96A8b5aHhRJwg9RUUxQ4']);
    expect(exact('sk live Znav96A8b5aHhRJwg9RUUxQ4')).toEqual(['sk_live_Znav96A8b5aHhRJwg9RUUxQ4']);
    expect(collide('4-8-2-9-1-3')).toEqual(['482913']);
  });
});
