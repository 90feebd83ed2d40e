import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { quoted } from './card-text.js';
import { CLUSTER_WINDOW, codePoints, codeUnits, cutText, textPrefix } from './text-cut.js';

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
  // The cut segments a window before it, not the text up to it (text-cut.ts CLUSTER_WINDOW): the
  // same boundary as segmenting everything, for long texts whose cut falls in any cluster shorter
  // than the window — flags after a run of regional indicators of either parity included.
  const FLAG_HALF = '🇦';
  const longText = fc
    .array(
      fc.oneof(
        fc.constantFrom(...CLUSTERS),
        fc.string({ unit: 'binary', maxLength: 8 }),
        fc.nat({ max: 700 }).map((n) => FLAG_HALF.repeat(n)),
        fc.nat({ max: 400 }).map((n) => 'x'.repeat(n)),
      ),
      { maxLength: 40 },
    )
    .map((p) => p.join(''));

  it('property: a long text is cut where segmenting all of it would cut (window of CLUSTER_WINDOW units)', () => {
    fc.assert(
      fc.property(longText, fc.nat({ max: 3000 }), (s, max) => {
        const all = [...boundaries(s)].filter((e) => e <= max);
        const want = Math.max(...all);
        // The cluster the cut falls in is shorter than the window (what the window promises).
        const next = [...boundaries(s)].filter((e) => e > max);
        fc.pre(next.length === 0 || Math.min(...next) - want < CLUSTER_WINDOW);
        expect(textPrefix(s, max, codeUnits).length).toBe(want);
        const points = [...s].slice(0, max).join('').length;
        expect(textPrefix(s, max).length).toBe(
          Math.max(...[...boundaries(s)].filter((e) => e <= points)),
        );
      }),
      { numRuns: 1500 },
    );
  });

  it('segments no more than a window before the cut, however long the text (a result cut for the agent)', () => {
    // Calls through: the spy only records what each segment() was given.
    const spy = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      const zalgo = 'a' + '\u0301'.repeat(1_000_000);
      const prose = 'Lorem ipsum café 👩‍👧 🇫🇷. '.repeat(100_000);
      expect(textPrefix(prose, 1_000_000, codeUnits).length).toBeLessThanOrEqual(1_000_000);
      // A cluster longer than the window is cut where the window begins: a start, whole code points.
      const z = textPrefix(zalgo, 20_000, codeUnits);
      expect(z.length).toBe(20_000 - CLUSTER_WINDOW);
      expect(zalgo.startsWith(z)).toBe(true);
      expect(cutText(zalgo, 60)).toBe('…');
      const lengths = spy.mock.calls.map(([input]) => input.length);
      expect(lengths.length).toBeGreaterThan(0);
      expect(Math.max(...lengths)).toBeLessThanOrEqual(CLUSTER_WINDOW + 2);
    } finally {
      spy.mockRestore();
    }
  });
});
