import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestShaped } from './session-route.js';

/**
 * requestShaped reads the body's keys by index (issue 34, wave 3 session 32: no iterator result
 * per key). Against the replaced `for…of`, word for word, over bodies whose keys — a request's
 * own and others, `__proto__` and `result` among them — come in any order and number, with
 * values right and wrong for each. A held-out generator (other keys, other seeds) is never tuned on.
 */
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
function reference(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  for (const key of Object.keys(body)) if (!REQUEST_KEYS.has(key)) return false;
  return true;
}

const VALUES: Record<string, fc.Arbitrary<unknown>> = {
  jsonrpc: fc.constantFrom('2.0', '1.0'),
  id: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })),
  method: fc.constantFrom('tools/call', 'initialize', 'ping'),
  params: fc.oneof(fc.constant({}), fc.constant({ _meta: { progressToken: 1 } })),
};
const value = (key: string) =>
  Object.hasOwn(VALUES, key) ? VALUES[key]! : fc.jsonValue({ maxDepth: 1 });

const bodies = (extra: string[]) =>
  fc
    .uniqueArray(fc.constantFrom('jsonrpc', 'id', 'method', 'params', ...extra), {
      maxLength: 6,
    })
    .chain((keys) => fc.tuple(...keys.map((k) => value(k).map((v) => [k, v] as const))))
    .map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries))) as unknown);

// Past the key check, requestShaped reads the values; the reference stops at the keys, so they
// agree where the reference refuses (an extra key anywhere refuses both), and requestShaped never
// takes what the reference refuses.
function agree(extra: string[], seed: number, runs: number): void {
  fc.assert(
    fc.property(bodies(extra), (body) => {
      if (!reference(body)) expect(requestShaped(body)).toBe(false);
    }),
    { seed, numRuns: runs },
  );
}

describe("requestShaped's key check ≡ the for…of it replaced", () => {
  it('over generated bodies, keys in any order (tuning seed)', () =>
    agree(['result', 'error', 'x'], 32, 3000));
  it('held-out keys and seeds, never tuned on', () => {
    for (const seed of [3221, 3222])
      agree(['__proto__', 'Method', 'id ', 'constructor'], seed, 2000);
  });
  it('an extra key first, last or alone is refused', () => {
    const base = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} };
    expect(requestShaped(base)).toBe(true);
    expect(requestShaped({ x: 1, ...base })).toBe(false);
    expect(requestShaped({ ...base, x: 1 })).toBe(false);
    expect(requestShaped({ x: 1 })).toBe(false);
  });
});
