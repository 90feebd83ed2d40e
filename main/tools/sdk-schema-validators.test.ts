import { describe, expect, it } from 'vitest';
import { SchemaValidator } from './schema-validator.js';
import { BoundedJsonSchemaValidator, CHECKED_BY_CALLER } from './sdk-schema-validators.js';

/** The validators Airlock hands the MCP SDK instead of its default (sdk-schema-validators.ts). */
describe('BoundedJsonSchemaValidator', () => {
  const v = new BoundedJsonSchemaValidator();
  const person = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' } },
    required: ['name'],
  };

  it('a valid value: valid, with the value itself as data', () => {
    const input = { name: 'Ada', age: 36 };
    const r = v.getValidator(person)(input);
    expect(r).toEqual({ valid: true, data: input, errorMessage: undefined });
    expect(r.data).toBe(input);
  });

  it('an invalid value: the problems, named by path, the top as "(value)"', () => {
    expect(v.getValidator(person)({ age: 'old' })).toEqual({
      valid: false,
      data: undefined,
      errorMessage: "(value) must have required property 'name'; /age must be integer",
    });
  });

  it('its patterns run on RE2: a backtracking pattern answers on 5,000 characters', () => {
    const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a|aa)*$' } } };
    const check = v.getValidator(schema);
    expect(check({ s: 'a'.repeat(5000) + '!' })).toMatchObject({
      valid: false,
      errorMessage: '/s must match pattern "^(a|aa)*$"',
    });
    expect(check({ s: 'a'.repeat(5000) }).valid).toBe(true);
  });

  it('a schema it cannot compile is not checked, as on the input side (a look-ahead, a dangling $ref)', () => {
    for (const schema of [
      { type: 'object', properties: { s: { type: 'string', pattern: '^(?=b)' } } },
      { type: 'object', properties: { s: { $ref: '#/$defs/missing' } } },
    ]) {
      expect(new SchemaValidator().validate(schema, { s: 'a' })).toBeNull();
      expect(v.getValidator(schema)({ s: 'a' }).valid).toBe(true);
    }
  });

  it('uniqueItems compares by JSON Schema equality (key order does not matter), in n log n', () => {
    const schema = { type: 'array', uniqueItems: true };
    const items = Array.from({ length: 20_000 }, (_, i) => ({ i, k: [i] }));
    expect(v.getValidator(schema)(items).valid).toBe(true);
    expect(v.getValidator(schema)([...items, { k: [7], i: 7 }])).toMatchObject({
      valid: false,
      errorMessage: expect.stringMatching(/duplicate items \(items ## 7 and 20000 are identical\)/),
    });
  });

  it('lists at most ten problems', () => {
    const schema = { type: 'array', items: { type: 'string' } };
    const r = v.getValidator(schema)(Array(50).fill(1));
    expect(r.errorMessage).toMatch(/; and 40 more problems$/);
  });
});

describe('CHECKED_BY_CALLER', () => {
  it('passes every value as it is: the caller checks (remote-calls.ts, through the schema pool)', () => {
    const schema = { type: 'object', required: ['x'] };
    const input = { y: 1 };
    const r = CHECKED_BY_CALLER.getValidator(schema)(input);
    expect(r).toEqual({ valid: true, data: input, errorMessage: undefined });
    expect(r.data).toBe(input);
  });
});
