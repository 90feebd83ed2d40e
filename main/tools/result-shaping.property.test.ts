import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capText, capTextWalk, CUT_META_KEY } from './result-shaping.js';
import type { CallToolResult } from './types.js';

/** No lone surrogate (String#isWellFormed, ES2024, outside this build's lib): `u` pairs them. */
const wellFormed = (s: string) => !/\p{Cs}/u.test(s);

/**
 * capText gives a result within its budget back without walking it (issue 34); everything else
 * goes through the walk. Held to the walk over generated results, hostile shapes included: the
 * same answer (the very object where nothing is cut), or the same error.
 */
const text = fc.string({ maxLength: 12 });
const oddValue = fc.oneof(fc.integer(), fc.constant(null), fc.constant(undefined), fc.boolean());
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('text'), text: oddValue }),
  fc.record({
    type: fc.constant('resource'),
    resource: fc.oneof(
      fc.record({ uri: fc.constant('a:b'), text }),
      fc.record({ uri: fc.constant('a:b'), blob: fc.constant('AA==') }),
      fc.record({ uri: fc.constant('a:b'), text: oddValue }),
    ),
  }),
  fc.record({ type: fc.constant('image'), data: text, mimeType: fc.constant('image/png') }),
  fc.record({ type: fc.constant('resource_link'), uri: text, name: text }),
);
const structured = fc.dictionary(
  fc.string({ maxLength: 4 }),
  fc.oneof(
    text,
    fc.array(fc.oneof(text, fc.integer()), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 3 }), text, { maxKeys: 3 }),
    fc.integer(),
  ),
  { maxKeys: 4 },
);
const result = fc.record(
  {
    content: fc.array(block, { maxLength: 5 }),
    structuredContent: structured,
    isError: fc.boolean(),
  },
  { requiredKeys: [] },
);

function outcome(run: () => CallToolResult): { value?: CallToolResult; error?: string } {
  try {
    return { value: run() };
  } catch (err) {
    return { error: String(err) };
  }
}

describe('capText', () => {
  it('answers as the walk does over generated results and budgets', () => {
    let untouched = 0;
    let cut = 0;
    fc.assert(
      fc.property(result, fc.oneof(fc.nat(80), fc.constant(Number.NaN)), (r, max) => {
        const res = r as unknown as CallToolResult;
        const fast = outcome(() => capText(res, max));
        const walk = outcome(() => capTextWalk(res, max));
        expect(fast).toEqual(walk);
        if (walk.value === res) {
          untouched++;
          expect(fast.value).toBe(res);
        } else if (walk.value) cut++;
      }),
      { numRuns: 4000, seed: 0x34_12 },
    );
    // Both sides of the shortcut are reached often enough for the comparison to mean something.
    expect(untouched).toBeGreaterThan(800);
    expect(cut).toBeGreaterThan(800);
  });

  it('leaves a result with a hole or a non-array content to the walk', () => {
    // eslint-disable-next-line no-sparse-arrays
    const holey = { content: [{ type: 'text', text: 'a' }, , { type: 'text', text: 'b' }] };
    expect(capText(holey as unknown as CallToolResult, 10)).toEqual(
      capTextWalk(holey as unknown as CallToolResult, 10),
    );
    const notArray = { content: { length: 1 } };
    expect(() => capText(notArray as unknown as CallToolResult, 10)).toThrow();
  });

  it('never cuts a character in half: what is kept is well-formed text, a prefix of the original', () => {
    // Whole code points, astral ones (surrogate pairs: emoji, CJK extensions) among them.
    const unicode = fc.string({ unit: 'binary', maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(unicode, { minLength: 1, maxLength: 4 }),
        unicode,
        fc.nat(40),
        (texts, inStructured, max) => {
          const r = capText(
            {
              content: texts.map((t) => ({ type: 'text' as const, text: t })),
              structuredContent: { s: inStructured },
            },
            max,
          );
          const kept = [
            ...(r.content ?? []).slice(0, texts.length).map((b) => (b as { text: string }).text),
            (r.structuredContent as { s: string }).s,
          ];
          const whole = [...texts, inStructured];
          kept.forEach((k, i) => {
            expect(wellFormed(k)).toBe(true);
            expect(whole[i]!.startsWith(k)).toBe(true);
          });
          // What was cut is counted, the dropped half of a pair with it.
          const cut = whole.join('').length - kept.join('').length;
          const mark = r._meta?.[CUT_META_KEY] as { characters: number } | undefined;
          expect(mark?.characters ?? 0).toBe(cut);
          expect(kept.join('').length).toBeLessThanOrEqual(max);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
