import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsedToolCall, plainToolCall, plainToolResult } from './tool-call-shapes.js';

/**
 * plainToolCall's and plainToolResult's key checks read the keys by index (issue 34, wave 3
 * session 32). tool-call-shapes.property.test.ts builds its requests and results with fc.record,
 * whose keys come in declaration order, so an extra key never comes first there: a check that
 * skipped the first key passed it (review of h-alloc2, mutation check). Here the keys come in any
 * order and number, against the replaced `for…of`, word for word; the values are the ones each
 * check takes, so only the keys decide. The held-out keys and seeds are never tuned on.
 */
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);
const RESULT_KEYS = new Set(['_meta', 'content', 'isError']);
function keysIn(v: Record<string, unknown>, allowed: Set<string>): boolean {
  for (const key of Object.keys(v)) if (!allowed.has(key)) return false;
  return true;
}

const PARAM_VALUES: Record<string, unknown> = { name: 'echo', arguments: { a: 1 }, _meta: {} };
const RESULT_VALUES: Record<string, unknown> = {
  _meta: { a: 1 },
  content: [{ type: 'text', text: 'a' }],
  isError: false,
};

/** Objects as JSON.parse makes them (an own `__proto__` key too) with the keys in any order. */
const objects = (own: Record<string, unknown>, extra: string[]) =>
  fc.uniqueArray(fc.constantFrom(...Object.keys(own), ...extra), { maxLength: 5 }).chain((keys) =>
    fc.shuffledSubarray(keys, { minLength: keys.length }).map((order) => {
      const body = order
        .map((k) => `${JSON.stringify(k)}:${JSON.stringify(Object.hasOwn(own, k) ? own[k] : 1)}`)
        .join(',');
      return JSON.parse(`{${body}}`) as Record<string, unknown>;
    }),
  );

function agree(extra: string[], seed: number, runs: number): void {
  let taken = 0;
  fc.assert(
    fc.property(objects(PARAM_VALUES, extra), objects(RESULT_VALUES, extra), (params, result) => {
      const call = plainToolCall({ method: 'tools/call', params });
      // Every value is one the check takes: only the keys (and a name's presence) decide.
      expect(call).toBe(keysIn(params, PARAM_KEYS) && 'name' in params);
      const plain = plainToolResult(result);
      expect(plain !== undefined).toBe(keysIn(result, RESULT_KEYS) && 'content' in result);
      if (plain) {
        taken++;
        // The parse's order whatever the order they came in.
        expect(Object.keys(plain)).toEqual(
          ['_meta', 'content', 'isError'].filter((k) => k in result),
        );
      }
    }),
    { seed, numRuns: runs },
  );
  // A floor on coverage, not the property: the held-out set draws more extra keys.
  expect(taken).toBeGreaterThan(runs / 40);
}

describe("the tools/call shapes' key checks ≡ the for…of they replaced, keys in any order", () => {
  it('over generated params and results (tuning seed)', () =>
    agree(['task', 'extra', 'structuredContent'], 32, 2000));
  it('held-out keys and seeds, never tuned on', () => {
    for (const seed of [3231, 3232])
      agree(['__proto__', 'Name', 'content ', 'resultType', 'toString'], seed, 1500);
  });
  it('an extra key first, last or alone is refused', () => {
    const p = { name: 'echo', arguments: {} };
    expect(plainToolCall({ method: 'tools/call', params: p })).toBe(true);
    expect(plainToolCall({ method: 'tools/call', params: { task: {}, ...p } })).toBe(false);
    expect(plainToolCall({ method: 'tools/call', params: { ...p, task: {} } })).toBe(false);
    const r = { content: [] };
    expect(plainToolResult(r)).toEqual(r);
    expect(plainToolResult({ structuredContent: {}, ...r })).toBeUndefined();
    expect(plainToolResult({ ...r, structuredContent: {} })).toBeUndefined();
    expect(plainToolResult(JSON.parse('{"__proto__":{"isError":true},"content":[]}'))).toBe(
      undefined,
    );
  });
  it('members are defined, not assigned: a setter on a polluted Object.prototype sees none', () => {
    // Review of h-alloc2: `out[k] = v` on `{}` runs an inherited setter and leaves `out` without
    // the member; a literal defines it (ECMA-262 CreateDataProperty). Pollution is not Airlock's
    // own; the shapes must not make one elsewhere worse.
    const keys = ['_meta', 'name', 'arguments', 'content', 'isError'];
    const seen: string[] = [];
    for (const k of keys)
      Object.defineProperty(Object.prototype, k, {
        configurable: true,
        get: () => undefined,
        set: () => void seen.push(k),
      });
    try {
      const params = { _meta: { progressToken: 1 }, name: 'echo', arguments: { a: 1 } };
      const parsed = parsedToolCall({ params })!.params as object;
      const result = { _meta: { a: 1 }, content: [{ type: 'text', text: 'a' }], isError: true };
      const plain = plainToolResult(result)!;
      expect(seen).toEqual([]);
      expect(Object.keys(parsed)).toEqual(['_meta', 'name', 'arguments']);
      expect(Object.keys(plain)).toEqual(['_meta', 'content', 'isError']);
      expect(plain).toEqual(result);
    } finally {
      for (const k of keys) delete (Object.prototype as Record<string, unknown>)[k];
    }
  });
  it("the parse copies `_meta` and `arguments`, as the SDK's parse makes new objects", () => {
    // The comment on parsedParams says its test holds the copies; tool-call-shapes.property.test.ts
    // compares JSON and prototypes only, and handing the request's own objects passed it.
    for (const params of [
      { name: 'echo', arguments: { a: 1 } },
      { _meta: { b: 2 }, name: 'echo', arguments: { a: 1 } },
      { _meta: { progressToken: 1 }, name: 'echo' },
    ] as Record<string, unknown>[]) {
      const parsed = parsedToolCall({ params })!.params as Record<string, unknown>;
      for (const k of ['_meta', 'arguments'])
        if (k in params) {
          expect(parsed[k]).not.toBe(params[k]);
          expect(parsed[k]).toEqual(params[k]);
        }
    }
  });
});
