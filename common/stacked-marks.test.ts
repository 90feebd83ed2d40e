import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasStackedMarks, isStack, MANY_MARKS, MAX_STACKED_MARKS } from './stacked-marks.js';

/**
 * A stack is counted as the ink is drawn, whatever the encoding (common/stacked-marks.ts): a
 * precomposed letter carries its own marks (ᾯ, U+1FAF, is Ω and three), and some marks are
 * several (U+0344 is U+0308 U+0301). Counted as code points, ᾯ with four more or four U+16128
 * (three each) passed as short runs.
 */
const DRAWN = /^(?:(?!\p{Default_Ignorable_Code_Point})[\p{Mn}\p{Me}])$/u;
const drawnIn = (s: string) => [...s.normalize('NFD')].filter((c) => DRAWN.test(c)).length;

describe('stacked marks, composed or not', () => {
  it('MANY_MARKS is every drawn mark that is several in its decomposition, none is less than one, and no character carries four (all code points)', () => {
    const many = new RegExp(`^${MANY_MARKS}$`, 'u');
    const missing: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = String.fromCodePoint(c);
      if (!/\p{M}/u.test(s)) {
        // A character's own marks: at most three, so one more after it is never a stack.
        if (drawnIn(s) > MAX_STACKED_MARKS - 1) missing.push(c.toString(16));
        continue;
      }
      if (DRAWN.test(s) && (drawnIn(s) > 1 !== many.test(s) || drawnIn(s) < 1))
        missing.push(c.toString(16));
    }
    expect(missing).toEqual([]);
  });

  it('a letter’s own marks count with those after it', () => {
    expect(hasStackedMarks('\u1faf\u0301')).toBe(false); // three and one
    expect(hasStackedMarks('\u1faf\u0301\u0300')).toBe(true); // three and two
    expect(hasStackedMarks('x' + '\u{16128}'.repeat(2))).toBe(true); // three each
    expect(hasStackedMarks('x\u0344\u0344')).toBe(false); // two each
    expect(hasStackedMarks('x\u0344\u0344\u0301')).toBe(true);
    // A keycap's U+20E3 ends a picture: the marks after it sit on nothing of their own.
    expect(isStack('1\ufe0f\u20e3\u0301\u0301\u0301\u0301', 3, '\u0301'.repeat(4))).toBe(false);
    expect(MAX_STACKED_MARKS).toBe(4);
  });

  it('property: composed (NFC), decomposed (NFD) or as given, the same answer (fixed seed)', () => {
    const piece = fc.oneof(
      fc.constantFrom('a', 'é', '\u1faf', 'ệ', 'Ω', ' ', '1\ufe0f\u20e3', 'လျှော့', '\ufe0f'),
      fc
        .tuple(
          fc.constantFrom('\u0301', '\u0323', '\u0345', '\u0344', '\u20dd', '\u0f73', '\u102c'),
          fc.integer({ min: 1, max: 6 }),
        )
        .map(([m, n]) => m.repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const t = pieces.join('');
        const given = hasStackedMarks(t);
        expect(hasStackedMarks(t.normalize('NFD'))).toBe(given);
        expect(hasStackedMarks(t.normalize('NFC'))).toBe(given);
      }),
      { numRuns: 1000 },
    );
  });
});
