import { isJSONRPCResultResponse } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainResultResponse } from './upstream-client.js';

/**
 * Issue 34: UpstreamClient hands a plain result response to `_onresponse` without the SDK's zod
 * classification. That is only sound if every message `plainResultResponse` takes is one the
 * SDK's own `isJSONRPCResultResponse` takes too (the SDK's dispatch would have sent it to the same
 * place); what it declines goes through the SDK's dispatch unchanged. The library is the
 * reference: generated messages near the schema's edges — versions, ids of every JSON type (and
 * integers beyond 2^53), results of every JSON type with and without `_meta`, extra and missing
 * members, an `error` beside the result.
 */
const id = fc.oneof(
  fc.integer(),
  fc.constantFrom(2 ** 53, -(2 ** 53), 1.5, Number.MAX_VALUE, -0),
  fc.string({ maxLength: 4 }),
  fc.constantFrom(null, true, undefined),
);
const meta = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
  fc.record({ progressToken: fc.oneof(fc.integer(), fc.string(), fc.constant(null)) }),
  fc.jsonValue({ maxDepth: 1 }),
);
const result = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.record({ content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() })) }),
  fc.record({ _meta: meta, content: fc.constant([]) }),
  fc.jsonValue({ maxDepth: 1 }),
);
const anyMembers = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0', 2),
    id,
    result,
    error: fc.record({ code: fc.integer(), message: fc.string() }),
    method: fc.string({ maxLength: 6 }),
    extra: fc.jsonValue({ maxDepth: 0 }),
  },
  { requiredKeys: [] },
);
/** Mostly answer-shaped, so the edges of each member are reached with the others valid. */
const answerShaped = fc
  .tuple(
    fc.record({ jsonrpc: fc.constantFrom('2.0', '2.0', '1.0'), id, result }),
    fc.option(fc.constantFrom('error', 'method', 'extra'), { nil: undefined, freq: 4 }),
  )
  .map(([m, more]) => (more ? { ...m, [more]: 1 } : m));
const message = fc.oneof(anyMembers, answerShaped);

describe('plainResultResponse ⊆ the SDK’s isJSONRPCResultResponse', () => {
  it('takes nothing the SDK schema refuses', () => {
    fc.assert(
      fc.property(message, (m) => {
        if (plainResultResponse(m)) expect(isJSONRPCResultResponse(m)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the plain answers of a call (so the fast path is the one taken)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0 }), fc.string()),
        fc.record({
          content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() })),
        }),
        (i, r) => {
          const m = { jsonrpc: '2.0', id: i, result: r };
          expect(plainResultResponse(m)).toBe(true);
          expect(isJSONRPCResultResponse(m)).toBe(true);
        },
      ),
    );
  });
});
