import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../platform/json-depth.js';
import { MALFORMED_ANSWER } from '../http/lean-transport.js';
import { LineReader } from './line-reader.js';

/**
 * A local server's output arrives in pieces cut anywhere (inside a string, a multi-byte character,
 * a run of brackets): the depth bound is decided on the whole line, not per piece. An answer
 * nested one level past the bound, however cut, becomes the error answer for its id; one at the
 * bound is read whole, equal to what `JSON.parse` makes of the line.
 */
describe('LineReader and the depth bound, over output cut into pieces', () => {
  it('refuses exactly the answers nested deeper than the bound, wherever the cuts fall', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_JSON_DEPTH - 4, max: MAX_JSON_DEPTH + 2 }),
        fc.string({ unit: fc.constantFrom('[', ']', '"', '\\', 'é', '😀', 'a') }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (levels, filler, cuts) => {
          // result (1) → structuredContent (2) → a (3) → the arrays: `levels` deep in all.
          const arrays = levels - 3;
          const deep = '['.repeat(arrays) + JSON.stringify(filler) + ']'.repeat(arrays);
          const line = `{"jsonrpc":"2.0","id":7,"result":{"content":[],"structuredContent":{"a":${deep}}}}\n`;
          const bytes = Buffer.from(line, 'utf8');
          const at = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
          const reader = new LineReader();
          const read: unknown[] = [];
          let from = 0;
          for (const to of [...at, bytes.length]) {
            reader.append(bytes.subarray(from, to));
            from = to;
            for (let m = reader.readMessage(); m; m = reader.readMessage()) read.push(m);
          }
          expect(read).toHaveLength(1);
          const message = read[0] as { id: unknown; error?: { data?: Record<string, unknown> } };
          expect(message.id).toBe(7);
          if (levels > MAX_JSON_DEPTH)
            expect(message.error?.data?.[MALFORMED_ANSWER]).toBeDefined();
          else expect(message).toEqual(JSON.parse(line));
        },
      ),
    );
  });
});
