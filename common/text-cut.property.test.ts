import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoted } from './card-text.js';
import { codePoints, codeUnits, cutText, textPrefix } from './text-cut.js';

/**
 * The one cutter of shown text (text-cut.ts), over generated text of every kind: any code point
 * (fast-check's full-Unicode unit), whole grapheme clusters, and the clusters a cut used to split —
 * emoji sequences, flags, letters with marks, Hangul jamo. A cut is a start of the text, no longer
 * than asked, and ends where a cluster ends: never a lone surrogate.
 */

const CLUSTERS = ['👩‍👧', '🇫🇷', 'e\u0301', 'Z\u0335\u0336', '\u1100\u1161\u11a8', '❤️', '😀', 'a'];
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.array(fc.constantFrom(...CLUSTERS), { maxLength: 60 }).map((p) => p.join('')),
);

/** Where the text's grapheme clusters end, read by the platform's segmenter (UAX #29). */
function boundaries(s: string): Set<number> {
  const ends = new Set([0]);
  for (const g of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s))
    ends.add(g.index + g.segment.length);
  return ends;
}

const LONE_SURROGATE = /[\ud800-\udfff]/u;

describe('common/text-cut: one cutter for all shown text', () => {
  it('property: cutText keeps a start of the text ending between clusters, at most max long, never a lone surrogate', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 80 }), (s, max) => {
        const cut = cutText(s, max);
        expect(cut).not.toMatch(LONE_SURROGATE);
        expect(codePoints(cut)).toBeLessThanOrEqual(Math.max(max, 1));
        if (cut === s) {
          expect(codePoints(s)).toBeLessThanOrEqual(max);
          return;
        }
        expect(cut.endsWith('…')).toBe(true);
        const kept = cut.slice(0, -1);
        expect(s.startsWith(kept)).toBe(true);
        expect(boundaries(s).has(kept.length)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: textPrefix in UTF-16 units is the longest cluster-boundary start that fits', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 120 }), (s, max) => {
        const kept = textPrefix(s, max, codeUnits);
        expect(kept).not.toMatch(LONE_SURROGATE);
        expect(kept.length).toBeLessThanOrEqual(max);
        expect(s.startsWith(kept)).toBe(true);
        const ends = [...boundaries(s)].filter((e) => e <= max);
        expect(kept.length).toBe(Math.max(...ends));
      }),
      { numRuns: 1000 },
    );
  });

  it('cuts before a cluster, not inside it', () => {
    expect(cutText('ab👩‍👧', 4)).toBe('ab…');
    expect(cutText('cafe\u0301 au lait', 5)).toBe('caf…');
    expect(textPrefix('x😀', 2, codeUnits)).toBe('x');
    expect(cutText('short', 5)).toBe('short');
  });

  it('property: a card’s quoted value is cut between clusters too (card-text.ts quoted)', () => {
    const long = fc
      .array(fc.constantFrom('👩‍👧', '🇫🇷', 'e\u0301', 'a', '😀'), { minLength: 150, maxLength: 260 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(long, (v) => {
        const m = /^“(.*)…” \(\d+ more characters\)$/su.exec(quoted(v));
        if (!m) return;
        expect(v.startsWith(m[1]!)).toBe(true);
        expect(boundaries(v).has(m[1]!.length)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
