import { describe, expect, it, vi } from 'vitest';
import {
  MAX_FORM_CHARS,
  MAX_FORM_TEXTS,
  MAX_FORM_TOKENS,
  MAX_PIECES,
  MAX_DERIVED_TOKEN,
  privateForms,
} from './private-forms.js';
import { privateFormTexts } from './private-readings.js';

/**
 * What private-forms.ts does with a megabyte a stranger shaped against each of its readings:
 * counted in the decoder's calls and the texts given back, not timed. Every reading is guarded
 * by a mark; each input below is made of that mark, so every guard passes everywhere.
 */

const work = vi.hoisted(() => ({ calls: 0, charsIn: 0 }));
vi.mock('./decodings.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./decodings.js')>();
  return {
    ...real,
    decodingsNamed: (v: string, depth?: number) => {
      work.calls++;
      work.charsIn += v.length;
      return real.decodingsNamed(v, depth);
    },
  };
});

const MB = 1 << 20;
const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);

const adversarial: Record<string, string> = {
  'hex bytes with separators': fill('0x34 0x38-'),
  'reversed hex bytes': fill('43x0 83x0 '),
  'escapes of every kind': fill('\\u0034&#52;=34=38%34\\x34'),
  'escapes backwards': fill(';25#&83%43%'),
  'escapes in ROT13': fill('\\h0034&#k34;0k34 '),
  'digit words': fill('four eight two nine one three '),
  'digit words backwards and in ROT13': fill('ruof thgie sbhe rvtug '),
  'characters spelled one by one': fill('N-D-g-y- -'),
  'short tokens': fill('NDgyOTEz '),
  'tokens with pieces': fill('a1b2c3=d4e5f6=g7h8i9=j0k1l2=m3n4o5=p6q7r8 '),
  'one long token': fill('QUJD'),
};

describe('the encoded forms of a megabyte', () => {
  for (const [name, value] of Object.entries(adversarial))
    it(`${name}: bounded texts, characters and decodings`, () => {
      work.calls = work.charsIn = 0;
      const r = privateForms([value], [value], [value]);
      expect(r.length).toBeLessThanOrEqual(MAX_FORM_TEXTS);
      expect(r.reduce((n, t) => n + t.length, 0)).toBeLessThanOrEqual(MAX_FORM_CHARS);
      // Each token is decoded backwards, in ROT13, as written and in at most MAX_PIECES pieces,
      // each at most MAX_DERIVED_TOKEN characters (a longer run is a file's bytes, not read).
      expect(work.calls).toBeLessThanOrEqual(MAX_FORM_TOKENS * (3 + MAX_PIECES));
      expect(work.charsIn).toBeLessThanOrEqual(
        MAX_FORM_TOKENS * (3 + MAX_PIECES) * MAX_DERIVED_TOKEN,
      );
    });
});

describe('the encoded forms of a call of many strings and lines', () => {
  it('joins lines and fields within the same bounds', () => {
    // Every boundary joinable (each side looks encoded), in 5,000 strings of 200 lines.
    const leaves = Array.from({ length: 5000 }, (_, i) => ({
      path: [`f${i}`],
      value: 'NDgy\nOTEz\n'.repeat(100),
    }));
    work.calls = work.charsIn = 0;
    const r = privateFormTexts(leaves, undefined, true, []);
    expect(r.length).toBeLessThanOrEqual(MAX_FORM_TEXTS);
    expect(r.reduce((n, t) => n + t.length, 0)).toBeLessThanOrEqual(MAX_FORM_CHARS);
    expect(work.calls).toBeLessThanOrEqual(MAX_FORM_TOKENS * (3 + MAX_PIECES));
  });
});
