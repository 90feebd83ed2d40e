import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../tools/schema-validator.js';
import { canonicalJson } from './canonical.js';
import { annotationsFingerprintForm, schemaFingerprintForm } from './fingerprint-form.js';

/** The hashed form's text, for comparing two listings. */
const form = (s: unknown) => canonicalJson(schemaFingerprintForm(s));
const valid = (s: Record<string, unknown>, x: unknown) =>
  new SchemaValidator().validate(s, x) === null;

describe('fingerprint-form.ts: what is folded, by keyword position', () => {
  it('required, enum, a type array and dependentRequired in another order: one form', () => {
    const a = {
      type: ['object', 'null'],
      required: ['a', 'b'],
      properties: { a: { enum: ['x', 1, { k: [1, 2] }] } },
      dependentRequired: { a: ['b', 'c'] },
      dependencies: { b: ['c', 'a'] },
    };
    const b = {
      type: ['null', 'object'],
      required: ['b', 'a'],
      properties: { a: { enum: [{ k: [1, 2] }, 1, 'x', 1] } },
      dependentRequired: { a: ['c', 'b'] },
      dependencies: { b: ['a', 'c'] },
    };
    expect(form(b)).toBe(form(a));
  });

  it('a property named "required" is a name: its schema is not a set', () => {
    const s = (r: string[]) => ({ properties: { required: { type: 'array', const: r } } });
    expect(form(s(['b', 'a']))).not.toBe(form(s(['a', 'b'])));
    // And not read as one when malformed: an array where a subschema goes is left as it is.
    const m = (r: string[]) => ({ properties: { required: r } });
    expect(form(m(['b', 'a']))).not.toBe(form(m(['a', 'b'])));
  });

  it('data is never a set: const, default, examples, and the inside of an enum value', () => {
    for (const k of ['const', 'default', 'examples'])
      expect(form({ [k]: { required: ['b', 'a'] } })).not.toBe(
        form({ [k]: { required: ['a', 'b'] } }),
      );
    expect(form({ enum: [{ required: ['b', 'a'] }] })).not.toBe(
      form({ enum: [{ required: ['a', 'b'] }] }),
    );
    // Witness: the const's order is what the validator compares.
    expect(valid({ const: { required: ['b', 'a'] } }, { required: ['a', 'b'] })).toBe(false);
  });

  it('repeats are dropped from enum only: a repeated required name or type does not compile', () => {
    expect(form({ enum: ['a', 'a'] })).toBe(form({ enum: ['a'] }));
    expect(form({ required: ['a', 'a'] })).not.toBe(form({ required: ['a'] }));
    expect(form({ type: ['string', 'string'] })).not.toBe(form({ type: ['string'] }));
    // Witness, on Airlock's validator: the repeat makes it validate nothing.
    expect(valid({ required: ['a', 'a'] }, {})).toBe(true);
    expect(valid({ required: ['a'] }, {})).toBe(false);
  });

  it('an enum value beyond a double (1e400, parsed as Infinity) is not a repeat of null', () => {
    // Review finding: canonical JSON writes Infinity as null, so deduping by it dropped 1e400 from
    // [null, 1e400] and the listing hashed as [null] while accepting one more value.
    const a = JSON.parse('{"properties":{"m":{"enum":[null]}}}') as Record<string, unknown>;
    const b = JSON.parse('{"properties":{"m":{"enum":[null,1e400]}}}') as Record<string, unknown>;
    const c = JSON.parse('{"properties":{"m":{"enum":[1e400,-1e400]}}}') as Record<string, unknown>;
    const d = JSON.parse('{"properties":{"m":{"enum":[1e400]}}}') as Record<string, unknown>;
    const inf = JSON.parse('{"m":1e400}') as unknown;
    const negInf = JSON.parse('{"m":-1e400}') as unknown;
    // Witnesses: each pair validates differently on Airlock's validator...
    expect(valid(a, inf)).not.toBe(valid(b, inf));
    expect(valid(c, negInf)).not.toBe(valid(d, negInf));
    // ...so they must not share a fingerprint.
    expect(form(b)).not.toBe(form(a));
    expect(form(c)).not.toBe(form(d));
    // Order still does not matter.
    expect(form(JSON.parse('{"enum":[1e400,null]}'))).toBe(
      form(JSON.parse('{"enum":[null,1e400]}')),
    );
  });

  // Open, and older than the fingerprint form (legacy form alike): canonical JSON writes a number
  // beyond a double as null, so `const: 1e400` and `const: null` share every fingerprint while
  // the validator tells them apart. Low: such a value reaches a remote server as null anyway
  // (JSON.stringify), but the hash should not rest on that. Fix belongs in canonical.ts.
  it.fails('OPEN (pre-existing): const 1e400 and const null hash apart', () => {
    const a = JSON.parse('{"properties":{"m":{"const":null}}}') as Record<string, unknown>;
    const b = JSON.parse('{"properties":{"m":{"const":1e400}}}') as Record<string, unknown>;
    expect(valid(a, { m: null })).not.toBe(valid(b, { m: null }));
    expect(form(b)).not.toBe(form(a));
  });

  it('anyOf is kept in order: a $ref may point into it by index', () => {
    const s = (branches: unknown[]) => ({
      $defs: { pick: { anyOf: branches } },
      properties: { x: { $ref: '#/$defs/pick/anyOf/0' } },
    });
    const a = s([{ type: 'string' }, { type: 'number' }]);
    const b = s([{ type: 'number' }, { type: 'string' }]);
    expect(form(b)).not.toBe(form(a));
    expect(valid(a, { x: 's' })).not.toBe(valid(b, { x: 's' }));
  });

  it('prefixItems is kept in order: position i validates element i', () => {
    const a = { prefixItems: [{ type: 'string' }, { type: 'number' }] };
    const b = { prefixItems: [{ type: 'number' }, { type: 'string' }] };
    expect(form(b)).not.toBe(form(a));
    expect(valid(a, ['s', 1])).not.toBe(valid(b, ['s', 1]));
  });

  it('a schema with a $ref into a set array by index is hashed as it came', () => {
    const s = (values: unknown[]) => ({
      $defs: { e: { enum: values } },
      properties: { x: { $ref: '#/$defs/e/enum/0' } },
    });
    const a = s([{ type: 'string' }, { type: 'number' }]);
    const b = s([{ type: 'number' }, { type: 'string' }]);
    expect(form(b)).not.toBe(form(a));
    expect(valid(a, { x: 's' })).not.toBe(valid(b, { x: 's' }));
  });

  it('a __proto__ key is kept as a key', () => {
    const s = JSON.parse('{"properties":{"__proto__":{"type":"string"}}}') as unknown;
    expect(form(s)).not.toBe(form({ properties: {} }));
  });

  it('annotations {} are none; a hint given as its default is not (the card lists it)', () => {
    expect(annotationsFingerprintForm({})).toBeNull();
    expect(annotationsFingerprintForm(undefined)).toBeNull();
    expect(annotationsFingerprintForm({ destructiveHint: true })).toEqual({
      destructiveHint: true,
    });
  });

  it('what is shown and sent is not touched', () => {
    const s = { required: ['b', 'a'], enum: ['y', 'x', 'x'] };
    schemaFingerprintForm(s);
    expect(s).toEqual({ required: ['b', 'a'], enum: ['y', 'x', 'x'] });
  });
});
