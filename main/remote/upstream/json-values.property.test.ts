import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerId } from '../http/lean-transport.js';
import { MAX_JSON_DEPTH } from '../../platform/json-depth.js';
import {
  answerIdOf,
  checkUpstream,
  countValues,
  parseUpstream,
  UPSTREAM_VALUE_LIMIT,
} from './json-values.js';

/**
 * json-values.ts bounds what `JSON.parse` builds by a count of the text's `{`, `[` and `,` outside
 * strings, and reads a refused answer's id without parsing it. Both are held here to what
 * `JSON.parse` itself makes of generated JSON — strings of any characters (quotes, backslashes,
 * brackets and commas inside them, escaped or raw), any nesting, any whitespace between tokens.
 */

/** Containers, plus every element or member after each container's first: what the count claims. */
function walk(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  const items = Array.isArray(v) ? v : Object.values(v as object);
  return 1 + Math.max(0, items.length - 1) + items.reduce((n: number, x) => n + walk(x), 0);
}

const text = fc.string({ unit: 'binary', maxLength: 6 });
/** Characters of strings and keys: those that mean something to JSON often, any other too. */
const unit = fc.oneof(
  fc.constantFrom('"', '\\', ',', '{', '[', ']', '}', ':'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const json = fc.jsonValue({ maxDepth: 4, stringUnit: unit });
const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');

/** `v` as JSON with `ws` put between every two tokens (JSON.stringify's output re-spaced). */
function spaced(v: unknown, ws: string[]): string {
  let k = 0;
  const s = () => ws[k++ % ws.length] ?? '';
  const out = (x: unknown): string => {
    if (Array.isArray(x)) return `[${s()}${x.map((e) => out(e)).join(`${s()},${s()}`)}${s()}]`;
    if (typeof x === 'object' && x !== null)
      return `{${s()}${Object.entries(x)
        .map(([key, e]) => `${JSON.stringify(key)}${s()}:${s()}${out(e)}`)
        .join(`${s()},${s()}`)}${s()}}`;
    return JSON.stringify(x) ?? 'null';
  };
  return out(v);
}

describe('countValues', () => {
  it('counts exactly the containers and every item after a container’s first, in any JSON', () => {
    fc.assert(
      fc.property(json, fc.array(space, { minLength: 1, maxLength: 5 }), (v, ws) => {
        const t = spaced(v, ws);
        expect(countValues(t)).toBe(walk(JSON.parse(t)));
      }),
      { numRuns: 3000, seed: 0x6d_656d },
    );
  });

  it('stops once past the bound it is given', () => {
    expect(countValues('[' + '{},'.repeat(100) + '{}]', 10)).toBe(11);
    expect(countValues(JSON.stringify('{},'.repeat(100)), 10)).toBe(0);
  });
});

/** Answer-shaped messages with nested and duplicate `id`s, members in any order. */
const idValue = fc.oneof(fc.integer(), fc.double({ noNaN: true }), text, json);
const member = fc.tuple(
  fc.constantFrom('id', 'result', 'error', 'jsonrpc', 'method', 'i\\u0064', 'x'),
  fc.oneof(idValue, fc.dictionary(fc.constantFrom('id', 'result'), idValue, { maxKeys: 2 })),
);

describe('answerIdOf', () => {
  it('is answerId of what JSON.parse makes of the text', () => {
    let answers = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          { weight: 5, arbitrary: fc.array(member, { maxLength: 6 }) },
          { weight: 1, arbitrary: json.map((v) => [['', v]] as [string, unknown][]) },
        ),
        fc.array(space, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (members, ws, whole) => {
          // Keys written raw, so duplicates and escaped spellings survive to the parser.
          const w = (k: number) => ws[k % ws.length]!;
          const body = members
            .map(([k, v], i) => `${w(i)}"${k}"${w(i + 1)}:${w(i + 2)}${spaced(v, ws)}`)
            .join(',');
          const t = whole ? `{${body}${w(0)}}` : (JSON.stringify(members[0]?.[1]) ?? '1');
          const expected = answerId(JSON.parse(t));
          if (expected !== undefined) answers++;
          expect(answerIdOf(t)).toEqual(expected);
        },
      ),
      { numRuns: 3000, seed: 0x1d },
    );
    console.log(`answerIdOf: ${answers} of 3000 generated messages were answers with an id`);
    // Not vacuous (fixed seed): 277 of them.
    expect(answers).toBeGreaterThan(200);
  });
});

/**
 * Issue 34, wave 3 session 29: `parseUpstream` writes `checkUpstream`'s bounds out rather than
 * calling it. The two must refuse the same texts with the same words: JSON of every shape, near
 * and past both bounds (values, depth), and text that is not JSON.
 */
describe('parseUpstream ≡ checkUpstream, then JSON.parse', () => {
  const outcome = (f: () => unknown) => {
    try {
      return ['ok', f()];
    } catch (err) {
      return ['thrown', (err as Error).constructor.name, (err as Error).message];
    }
  };
  const same = (text: string): void => {
    expect(outcome(() => parseUpstream(text))).toEqual(
      outcome(() => (checkUpstream(text), JSON.parse(text))),
    );
  };
  const deep = fc
    .integer({ min: MAX_JSON_DEPTH - 3, max: MAX_JSON_DEPTH + 3 })
    .chain((d) => fc.constantFrom('[]', '{}').map((p) => p[0]!.repeat(d) + p[1]!.repeat(d)));

  it('over generated JSON, near and past the depth bound (tuning seed)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          deep.map((d) => d.replace(/\{/g, '[').replace(/\}/g, ']')),
        ),
        same,
      ),
      { numRuns: 60, seed: 2931 },
    );
  });

  it('at the value bound: under, at and past it', () => {
    // n + 1 zeros in an array count n + 1 values (countValues: the array, then each item after
    // its first): the bound is met at n = UPSTREAM_VALUE_LIMIT - 1 and passed at n = LIMIT.
    for (const n of [UPSTREAM_VALUE_LIMIT - 1, UPSTREAM_VALUE_LIMIT, UPSTREAM_VALUE_LIMIT + 1])
      same(`[${'0,'.repeat(n)}0]`);
    expect(() => parseUpstream(`[${'0,'.repeat(UPSTREAM_VALUE_LIMIT)}0]`)).toThrow(/JSON values/);
    expect(parseUpstream(`[${'0,'.repeat(UPSTREAM_VALUE_LIMIT - 1)}0]`)).toHaveLength(
      UPSTREAM_VALUE_LIMIT,
    );
  });

  it('over held-out text (separate seed and generator)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          deep,
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        same,
      ),
      { numRuns: 200, seed: 40_404 },
    );
  });
});
