import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTooDeep } from './json-depth.js';

/**
 * The depth scan decides on the very text `JSON.parse` then reads (servers' messages,
 * upstream/json-values.ts; agents' bodies, gateway/guards.ts): it must say "too deep" exactly
 * when what `JSON.parse` builds nests deeper than the bound, on the text and on its UTF-8 bytes
 * alike, whatever the strings hold (brackets, quotes, backslashes, non-ASCII).
 */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const inner = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
  return 1 + inner.reduce<number>((m, x) => Math.max(m, depthOf(x)), 0);
}

const tricky = fc.string({
  unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ',', ':', 'é', '😀', '\n'),
});

describe('jsonTooDeep', () => {
  it('is true exactly when the parsed value nests deeper than the bound, as text or bytes', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 10, stringUnit: 'binary' }),
        fc.array(fc.tuple(fc.boolean(), tricky), { maxLength: 12 }),
        fc.integer({ min: 0, max: 14 }),
        (inner, wraps, max) => {
          // Wrapped in arrays and objects whose keys and neighbours are strings full of brackets.
          let v: unknown = inner;
          for (const [array, s] of wraps) v = array ? [s, v, s] : { [s]: v, k: s };
          const text = JSON.stringify(v);
          const deeper = depthOf(JSON.parse(text)) > max;
          expect(jsonTooDeep(text, max)).toBe(deeper);
          expect(jsonTooDeep(Buffer.from(text, 'utf8'), max)).toBe(deeper);
        },
      ),
    );
  });
});
