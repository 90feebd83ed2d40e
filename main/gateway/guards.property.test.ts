import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonRpcShaped } from './guards.js';

/**
 * isJsonRpcShaped checks one message in place and a batch's members through batchMember (issue
 * 34: no closure made and called per POST). The reference is the implementation it replaced, word
 * for word; they must agree on every body JSON.parse can give and on the near-misses around a
 * message (a nested batch, a wrong version, a method that is not a string, result/error keys).
 */
function reference(body: unknown): boolean {
  const one = (m: unknown) =>
    !!m &&
    typeof m === 'object' &&
    !Array.isArray(m) &&
    (m as Record<string, unknown>).jsonrpc === '2.0' &&
    (typeof (m as Record<string, unknown>).method === 'string' || 'result' in m || 'error' in m);
  return Array.isArray(body) ? body.length > 0 && body.every(one) : one(body);
}

const messageLike = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '1.0', 2, null),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
    method: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    result: fc.jsonValue(),
    error: fc.jsonValue(),
    params: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const element = fc.oneof(messageLike, fc.jsonValue(), fc.array(messageLike, { maxLength: 3 }));
const body = fc.oneof(element, fc.array(element, { maxLength: 5 }), fc.anything());

function agree(seed: number, runs: number): void {
  fc.assert(
    fc.property(body, (b) => {
      expect(isJsonRpcShaped(b)).toBe(reference(b));
    }),
    { seed, numRuns: runs },
  );
}

describe('isJsonRpcShaped answers as the implementation it replaced', () => {
  it('over generated bodies (tuning seed)', () => agree(34, 3000));
  it('held-out seeds, never tuned on', () => {
    for (const seed of [9101, 9102, 9103]) agree(seed, 2000);
  });
  it('the generator reaches both answers, for single messages and batches', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(body, (b) => {
        seen.add(`${Array.isArray(b)}:${reference(b)}`);
      }),
      { seed: 34, numRuns: 3000 },
    );
    expect(seen).toEqual(new Set(['true:true', 'true:false', 'false:true', 'false:false']));
  });
});
