import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { argsDigest, callKey, canonicalJson } from './canonical.js';

// The implementation before issue 34's fast path, kept as the reference: every value's text is
// JSON.stringify of its sorted null-prototype copy.
function sortDeepBefore(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeepBefore);
  if (value && typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortDeepBefore(v);
    }
    return out;
  }
  return value;
}
const canonicalBefore = (v: unknown) => JSON.stringify(sortDeepBefore(v));
const digestBefore = (v: unknown) =>
  'sha256:' + createHash('sha256').update(canonicalBefore(v)).digest('hex').slice(0, 16);

const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON!;

// Keys where the order rules differ: array indices (listed first, in numeric order, by both the
// arguments and their copy), integer-like strings that are not indices, and keys with meaning to
// JSON.stringify or to a plain object's prototype.
const key = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '9',
    '10',
    '01',
    '-1',
    '1.5',
    '4294967294',
    '4294967295',
    '9007199254740993',
    '__proto__',
    'toJSON',
    'rawJSON',
    'constructor',
    '',
    'a',
    'B',
    'é',
    '\u{1F600}',
    '\ud800',
  ),
  fc.string({ maxLength: 4 }),
);

function holey(): unknown[] {
  const a = [1, 2, 3];
  delete a[1];
  return a;
}

class Thing {
  a = 1;
}

/** An object that holds itself: both ways recurse until the stack runs out (RangeError). */
function cyclic(): unknown {
  const o: Record<string, unknown> = { a: 1 };
  o.b = o;
  return o;
}

/** Sorted keys and an enumerable accessor that gives an equal (fresh) value on every read. */
function withGetter(): unknown {
  return Object.defineProperty({ a: 1 }, 'b', { enumerable: true, get: () => ({ x: 1, y: 2 }) });
}

// Anything an argument could hold (parsed JSON), and what it never does but a caller could pass.
const leaf = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean()) },
  { weight: 2, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      undefined,
      () => 1,
      Symbol('s'),
      new Date(0),
      new Number(3),
      new String('s'),
      rawJSON('12'),
      { toJSON: () => 'own' },
      // A toJSON that looks at what it is called on: the arguments, or the copy.
      {
        toJSON(this: object) {
          return Object.getPrototypeOf(this) === null;
        },
      },
      Object.setPrototypeOf([1, 2], null),
      { toJSON: 'not a function' },
      new Thing(),
      new Map([[1, 2]]),
      new Uint8Array([1, 2]),
      Object.create({ inherited: 1 }),
      holey(),
      // Neither JSON.parse nor a caller makes these today; the fast path must still agree.
      10n, // TypeError both ways
      cyclic(),
      withGetter(),
      Object.assign([1, 2], { z: 1, toString: 2 }), // an array's other members are not written
      { a: 1, [Symbol('k')]: 2 }, // nor an object's Symbol keys
      Object.defineProperty({ a: 1 }, 'b', { value: 2, enumerable: false }),
    ),
  },
);

const value = fc.letrec<{ value: unknown; object: unknown; array: unknown }>((tie) => ({
  value: fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 2, arbitrary: tie('object') },
    { weight: 1, arbitrary: tie('array') },
  ),
  // Entries made into an object as JSON.parse makes one (own data properties, `__proto__`
  // included), in the order given, sorted (the fast path's case) or with no prototype.
  object: fc
    .tuple(
      fc.array(fc.tuple(key, tie('value')), { maxLength: 6 }),
      fc.constantFrom('as given', 'sorted', 'sorted', 'no prototype'),
    )
    .map(([entries, how]) => {
      const list =
        how === 'as given'
          ? entries
          : [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const o = Object.fromEntries(list) as Record<string, unknown>;
      return how === 'no prototype' ? Object.assign(Object.create(null), o) : o;
    }),
  array: fc.array(tie('value'), { maxLength: 5 }),
})).value;

describe('canonicalJson and argsDigest (issue 34 fast path)', () => {
  it('give the text and digest the sorted copy gave, over generated values', () => {
    fc.assert(
      fc.property(value, (v) => {
        const before = (() => {
          try {
            return { text: canonicalBefore(v) };
          } catch (err) {
            return { threw: (err as Error).constructor };
          }
        })();
        if ('threw' in before) {
          expect(() => canonicalJson(v)).toThrow(before.threw as never);
          return;
        }
        expect(canonicalJson(v)).toBe(before.text);
        if (typeof before.text === 'string') {
          expect(argsDigest(v)).toBe(digestBefore(v));
          expect(callKey('a', 't', v)).toBe(
            createHash('sha256').update('a\0t\0').update(before.text).digest('hex'),
          );
        }
      }),
      { seed: 34, numRuns: 3000 },
    );
  });

  it('agrees on JSON text as agents send it, parsed', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (j) => {
        const v = JSON.parse(JSON.stringify(j)) as unknown;
        expect(canonicalJson(v)).toBe(canonicalBefore(v));
        expect(argsDigest(v)).toBe(digestBefore(v));
      }),
      { seed: 34, numRuns: 2000 },
    );
  });

  it('keeps the cases where writing the arguments as they are would differ', () => {
    // Index keys come first in both orders; a key sorted after them by code unit is not first.
    expect(canonicalJson(JSON.parse('{"b":1,"10":2,"9":3,"a":4}'))).toBe(
      '{"9":3,"10":2,"a":4,"b":1}',
    );
    expect(canonicalJson({ a: new Date(0) })).toBe('{"a":{}}');
    expect(canonicalJson({ a: rawJSON('12') })).toBe('{"a":{"rawJSON":"12"}}');
    expect(canonicalJson({ a: new Number(3) })).toBe('{"a":{}}');
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe(
      '{"__proto__":{"x":1},"a":2}',
    );
    // Nothing to hash: it fails as it did (the Activity row's late digest logs it, call-record.ts).
    expect(() => argsDigest(undefined)).toThrow(TypeError);
  });

  it('agree when a prototype carries a toJSON (the copy has none, the arguments inherit it)', () => {
    // What a polluted Object.prototype or Array.prototype changes: JSON.stringify calls an
    // inherited toJSON on the arguments but never on the null-prototype copy, so the fast path
    // must look up the chain (`in`), not at own members only. Values are made before the
    // prototypes are touched, and compared after they are restored.
    const values = fc.sample(
      fc.jsonValue().map((j) => JSON.parse(JSON.stringify(j)) as unknown),
      { seed: 34, numRuns: 300 },
    );
    values.push({ a: [1, { b: 2 }] }, [{ a: 1 }], { a: 1 });
    const run = () =>
      values.map((v) => {
        try {
          return [canonicalJson(v), canonicalBefore(v)];
        } catch (err) {
          return [String(err), String(err)];
        }
      });
    const protos = [Object.prototype, Array.prototype] as Record<string, unknown>[];
    for (const proto of protos)
      for (const enumerable of [false, true]) {
        let texts: string[][];
        Object.defineProperty(proto, 'toJSON', {
          value: () => 'polluted',
          enumerable,
          configurable: true,
          writable: true,
        });
        try {
          texts = run();
        } finally {
          delete proto.toJSON;
        }
        for (const [now, before] of texts) expect(now).toBe(before);
      }
  });

  it('agree on arguments as deep as the gateway lets through (guards.ts MAX_JSON_DEPTH)', () => {
    for (const depth of [1, 64, 127, 128]) {
      const sorted = '{"a":'.repeat(depth) + '[0]' + '}'.repeat(depth);
      const unsorted = '{"b":1,"a":'.repeat(depth) + '[0]' + '}'.repeat(depth);
      const arrays = '['.repeat(depth) + '{"__proto__":{"b":1,"a":2}}' + ']'.repeat(depth);
      for (const text of [sorted, unsorted, arrays]) {
        const v = JSON.parse(text) as unknown;
        expect(canonicalJson(v)).toBe(canonicalBefore(v));
        expect(argsDigest(v)).toBe(digestBefore(v));
      }
    }
  });
});
