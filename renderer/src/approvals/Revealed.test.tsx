import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';

/**
 * Issue 27, item 6: "Show all" on a 50,000-character argument froze the approval page for 6.5 s
 * and 200,000 characters never answered; budgets allow 4 MiB of arguments. What showing a value
 * costs is counted here — characters run through `reveal`, elements rendered — and must not
 * grow with the size of the value; e2e/approvals-large.spec.ts checks the page in Chromium.
 */
const work = vi.hoisted(() => ({ revealed: 0 }));
vi.mock('./reveal', async (original) => {
  const m = await original<typeof import('./reveal')>();
  return {
    ...m,
    reveal: (text: string) => {
      work.revealed += text.length;
      return m.reveal(text);
    },
  };
});
const { ClippedText, FullText, BLOCK_CHARS, BLOCKS_PER_STEP, CLIP_CHARS, clipParts, clipText } =
  await import('./Revealed');
const { chunkText, reveal, revealPlain } = await import('./reveal');

const count = (html: string, what: RegExp) => html.match(what)?.length ?? 0;
/** Values of every kind, at a size: plain, words and lines, hidden characters every other one, runs. */
const kinds: Record<string, (n: number) => string> = {
  plain: (n) => 'a'.repeat(n),
  lines: (n) => 'lorem ipsum dolor\n'.repeat(Math.ceil(n / 18)).slice(0, n),
  hidden: (n) => 'a\u200b'.repeat(n / 2),
  spaces: (n) => 'a    '.repeat(n / 5),
  json: (n) =>
    JSON.stringify({ list: Array.from({ length: n / 20 }, (_, i) => `item ${i}`) }, null, 2),
};

describe('showing a value costs what its screenful costs, whatever its size', () => {
  for (const [kind, make] of Object.entries(kinds)) {
    it(`${kind}: 50,000 characters and 4 MiB cost the same to show clipped, and to open in full`, () => {
      const cost = (n: number) => {
        const text = make(n);
        work.revealed = 0;
        const clipped = renderToStaticMarkup(<ClippedText text={text} />);
        const clippedWork = work.revealed;
        work.revealed = 0;
        const full = renderToStaticMarkup(<FullText text={text} />);
        return {
          clippedWork,
          clippedElements: count(clipped, /<(span|mark)\b/g),
          fullWork: work.revealed,
          fullElements: count(full, /<(span|mark|div)\b/g),
        };
      };
      const small = cost(50_000);
      const huge = cost(4 * 1024 * 1024);
      expect(huge).toEqual(small);
      // Bounded by the step, not the value.
      expect(small.clippedWork).toBeLessThanOrEqual(2 * BLOCK_CHARS + CLIP_CHARS);
      expect(small.fullWork).toBeLessThanOrEqual(BLOCKS_PER_STEP * BLOCK_CHARS + 64);
    });
  }

  it('a value under the clip is shown whole, with no full view to open', () => {
    const html = renderToStaticMarkup(<ClippedText text={'short\u202evalue'} />);
    expect(html).toContain('RLO');
    expect(html).not.toContain('show-all');
  });

  it('the head of a long value reads as before: a 20,000-blank run is one mark, what follows stays in sight', () => {
    const text = 'pay' + '\u00a0'.repeat(20_000) + 'THE-END' + '\nx'.repeat(100);
    const c = clipText(text);
    const head = c.head.map((p) => ('mark' in p ? `[${p.mark}]` : p.text)).join('');
    expect(head.startsWith('pay[NBSP×20000]THE-END\nx')).toBe(true);
    expect(c).toEqual(clipParts(reveal(text)));
  });
});

describe('blocks show exactly what the whole value would', () => {
  const alphabet = fc.constantFrom(
    'a',
    'b',
    ' ',
    '\n',
    '\t',
    '\u00a0',
    '\u200b',
    '\u202e',
    '\r',
    '😀',
    '\u{e0041}',
    'é',
  );
  it('cut anywhere: joined they are the value, revealed one by one they read as the whole revealed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(alphabet, fc.integer({ min: 1, max: 9 })), { maxLength: 60 }),
        fc.integer({ min: 1, max: 40 }),
        (runs, size) => {
          const text = runs.map(([c, n]) => c.repeat(n)).join('');
          const blocks = chunkText(text, size);
          expect(blocks.join('')).toBe(text);
          for (const b of blocks) expect(b.length).toBeGreaterThan(0);
          for (const b of blocks.slice(1)) expect(b.charCodeAt(0) & 0xfc00).not.toBe(0xdc00);
          expect(blocks.map(revealPlain).join('')).toBe(revealPlain(text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('the head counts what it does not show', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 6000 }), (text) => {
        const c = clipText(text);
        const whole = clipParts(reveal(text));
        expect(c.head).toEqual(whole.head);
        expect(c.hiddenChars > 0).toBe(whole.hiddenChars > 0);
      }),
      { numRuns: 300 },
    );
  });
});
