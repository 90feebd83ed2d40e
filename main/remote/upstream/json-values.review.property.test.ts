import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../platform/json-depth.js';
import { checkUpstream, parseUpstream, UPSTREAM_VALUE_LIMIT } from './json-values.js';

/**
 * Review of wave 3 session 29 (issue 34): `parseUpstream` writes `checkUpstream`'s bounds out
 * inline. Held here to `checkUpstream` then `JSON.parse` — the same value, or the same error class
 * and words — over the reviewer's own texts: a value count at the bound ±3 with a generated tail
 * (commas and brackets hidden in strings behind escaped quotes and backslash runs, numbers past
 * double range, text that is not JSON), and nesting at the depth bound ±2 of mixed brackets with
 * strings holding brackets.
 */
const outcome = (f: () => unknown): unknown[] => {
  try {
    return ['ok', f()];
  } catch (err) {
    return ['thrown', (err as Error).constructor.name, (err as Error).message];
  }
};
const same = (text: string): string => {
  const got = outcome(() => parseUpstream(text));
  expect(got).toEqual(outcome(() => (checkUpstream(text), JSON.parse(text))));
  return got[0] === 'ok' ? 'ok' : String(got[1]);
};

/** JSON-ish pieces a tail is made of: strings that hide `,[{"` behind escapes, numbers, junk. */
const piece = fc.constantFrom(
  '0',
  '"a,b"',
  '"\\","',
  '"\\\\",',
  '"\\\\\\"[,{"',
  '1e400',
  '-0',
  '123456789012345678901234567890',
  '"\\u002c"',
  '{"k":[1,2]}',
  '[[],{}]',
  'true',
  'nul',
  '"open',
  '}',
  ',',
);
const tail = fc.array(piece, { maxLength: 6 }).map((ps) => ps.join(','));

describe('parseUpstream ≡ checkUpstream + JSON.parse (review)', () => {
  it('at the value bound ±3, with generated tails (held-out seed)', () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(fc.integer({ min: -3, max: 3 }), tail, fc.boolean(), (d, t, close) => {
        const text = `[${'0,'.repeat(UPSTREAM_VALUE_LIMIT + d)}${t || '0'}${close ? ']' : ''}`;
        kinds.add(same(text));
      }),
      { numRuns: 40, seed: 5150 },
    );
    // Accepted, refused by the bound and refused by JSON.parse all came.
    expect(kinds).toEqual(new Set(['ok', 'UpstreamValuesError', 'SyntaxError']));
  });

  it('at the depth bound ±2, mixed brackets and strings holding brackets (held-out seed)', () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_JSON_DEPTH - 2, max: MAX_JSON_DEPTH + 2 }),
        fc.array(fc.boolean(), { minLength: MAX_JSON_DEPTH + 2, maxLength: MAX_JSON_DEPTH + 2 }),
        fc.constantFrom('0', '"[[[{{{"', '"\\"]"', '"\\\\"', ''),
        fc.boolean(),
        (depth, objs, inner, cut) => {
          let open = '';
          let shut = '';
          for (let i = 0; i < depth; i++) {
            open += objs[i] ? '{"k":' : '[';
            shut = (objs[i] ? '}' : ']') + shut;
          }
          const body = inner === '' && objs[depth - 1] ? '0' : inner;
          kinds.add(same(open + body + (cut ? shut.slice(1) : shut)));
        },
      ),
      { numRuns: 300, seed: 6_021_023 },
    );
    expect(kinds).toEqual(new Set(['ok', 'UpstreamValuesError', 'SyntaxError']));
  });
});
