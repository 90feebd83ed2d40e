import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerId } from '../http/lean-transport.js';
import { answerIdOf, countValues } from './json-values.js';

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
