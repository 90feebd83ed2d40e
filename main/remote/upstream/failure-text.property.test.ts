import { ProtocolError } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeFailure } from './upstream.js';

/**
 * A server's error text, cut for the status line (describeFailure), ends between characters: a
 * cut through a surrogate pair left half of it, no Unicode text (RFC 8259 §8.1), which the
 * Servers page and `airlock remote list` got as U+FFFD (common/text-cut.ts).
 */
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const message = fc
  .tuple(fc.nat({ max: 260 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }))
  .map(([n, tail]) => 'x'.repeat(n) + tail);

describe('describeFailure: a server’s words cut between characters', () => {
  it('property: a protocol error or any other error is cut to whole characters', () => {
    fc.assert(
      fc.property(message, (m) => {
        for (const err of [new ProtocolError(-32603, m), new Error(m)]) {
          const text = describeFailure(err);
          expect(text).not.toMatch(LONE_SURROGATE);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('a pair straddling the cut goes whole', () => {
    const m = 'x'.repeat(199) + '😀 and more';
    const text = describeFailure(new Error(m));
    expect(text).toBe(`error: ${'x'.repeat(199)}`);
  });
});
