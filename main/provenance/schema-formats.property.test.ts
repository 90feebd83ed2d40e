import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaSaysDestination } from './schema-formats.js';
import { destinationsOf } from './destinations.js';

type Schema = Record<string, unknown>;

/**
 * schemaSaysDestination keeps each schema's answers by path. The memo must answer every path as
 * the walk does; the reference here is the same question asked of a fresh copy of the schema
 * (whose memo is empty, so it walks). Names are drawn from a small set that holds the spellings a
 * careless key would merge: an index and a member "0" or "#0", a name holding a separator
 * ("a\u0000b") and the two steps a → b, a name that reads like JSON text.
 */
const NAMES = ['a', 'b', '0', '#0', '1', 'a\u0000b', '#1', '["a","b"]', 'to'];
const name = fc.constantFrom(...NAMES);
const step = fc.oneof(name, fc.integer({ min: 0, max: 2 }));

const schemaArb: fc.Arbitrary<Schema> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record(
      { type: fc.constant('string'), format: fc.constantFrom('email', 'uri', 'date', undefined) },
      { requiredKeys: ['type'] },
    ),
    fc.record({
      type: fc.constant('object'),
      properties: fc.dictionary(name, tie('node'), { maxKeys: 4 }),
    }),
    fc.record({ type: fc.constant('array'), items: tie('node') }),
    fc.record({
      type: fc.constant('array'),
      prefixItems: fc.array(tie('node'), { maxLength: 3 }),
    }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
})).node as fc.Arbitrary<Schema>;

describe('schemaSaysDestination: the memo answers as the walk', () => {
  it('answers every path of a sequence as a fresh walk does (fast-check, fixed seed)', () => {
    fc.assert(
      fc.property(
        schemaArb,
        fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
        (schema, paths) => {
          for (const path of paths) {
            const fresh = schemaSaysDestination(structuredClone(schema), path);
            expect(schemaSaysDestination(schema, path)).toBe(fresh);
          }
        },
      ),
      { numRuns: 3_000, seed: 0x5c_4e_13 },
    );
  });

  it('an index and a member named "#0" are two paths', () => {
    const schema = {
      type: 'object',
      properties: {
        a: {
          anyOf: [
            { type: 'array', items: { type: 'string', format: 'email' } },
            { type: 'object' },
          ],
        },
      },
    };
    expect(schemaSaysDestination(schema, ['a', '#0'])).toBe(false);
    expect(schemaSaysDestination(schema, ['a', 0])).toBe(true);
  });

  it('a top-level name holding a separator is not the two steps it spells', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'string', format: 'email' } } } },
    };
    expect(schemaSaysDestination(schema, ['a\u0000b'])).toBe(false);
    expect(schemaSaysDestination(schema, ['a', 'b'])).toBe(true);
  });

  it('a destination the schema names is found after a look-alike path was asked first', () => {
    // What the memo decides: whether a field counts as a destination by its schema. A field
    // named "note" holds no destination by its name; only the schema makes it one.
    const schema = {
      type: 'object',
      properties: {
        note: {
          anyOf: [
            { type: 'array', items: { type: 'string', format: 'email' } },
            { type: 'object' },
          ],
        },
      },
    };
    destinationsOf({ note: { '#0': 'just words' } }, schema);
    const found = destinationsOf({ note: ['boss@evil.example'] }, schema);
    expect(found.map((d) => [d.value, d.why])).toContainEqual(['boss@evil.example', 'schema']);
  });
});
