import { describe, expect, it } from 'vitest';
import { buildArgs, fieldsFor, initialValues, parseRawArgs } from './schema-form';

const schema = {
  type: 'object',
  properties: {
    to: { type: 'string', title: 'Recipient' },
    body: { type: 'string' },
    count: { type: 'integer' },
    ratio: { type: ['number', 'null'] },
    urgent: { type: 'boolean' },
    kind: { enum: ['mail', 'chat', 3] },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['to', 'count'],
};
const args = { to: 'bob@example.com', body: 'hi', count: 2, tags: ['x'], extra: 'kept' };

describe('schema form', () => {
  it('derives one field per property with its kind', () => {
    const fields = fieldsFor(schema, args)!;
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['to', 'string', true],
      ['body', 'string', false],
      ['count', 'integer', true],
      ['ratio', 'number', false],
      ['urgent', 'boolean', false],
      ['kind', 'enum', false],
      ['tags', 'json', false],
    ]);
    expect(fields[0]!.label).toBe('Recipient');
    expect(fields.find((f) => f.name === 'body')!.multiline).toBe(true);
  });

  it('round-trips unchanged arguments exactly, keeping keys the form does not show', () => {
    const fields = fieldsFor(schema, args)!;
    expect(buildArgs(fields, initialValues(fields, args), args)).toEqual({ ok: true, args });
  });

  it('types edited values and leaves untouched optional fields absent', () => {
    const fields = fieldsFor(schema, args)!;
    const values = {
      ...initialValues(fields, args),
      count: '7',
      ratio: '0.5',
      urgent: true,
      kind: '2',
      tags: '["a","b"]',
    };
    const built = buildArgs(fields, values, args);
    expect(built).toEqual({
      ok: true,
      args: { ...args, count: 7, ratio: 0.5, urgent: true, kind: 3, tags: ['a', 'b'] },
    });
  });

  it('says what is wrong instead of sending a wrong type', () => {
    const fields = fieldsFor(schema, args)!;
    const base = initialValues(fields, args);
    expect(buildArgs(fields, { ...base, count: '1.5' }, args)).toEqual({
      ok: false,
      error: '"count" must be a whole number.',
    });
    expect(buildArgs(fields, { ...base, count: '' }, args)).toEqual({
      ok: false,
      error: '"count" is required.',
    });
    expect(buildArgs(fields, { ...base, ratio: 'abc' }, args)).toEqual({
      ok: false,
      error: '"ratio" must be a number.',
    });
    expect(buildArgs(fields, { ...base, tags: '[' }, args)).toMatchObject({
      ok: false,
      error: expect.stringContaining('"tags" is not valid JSON'),
    });
  });

  it('has no form for a schema without properties; raw JSON must be an object', () => {
    expect(fieldsFor({ type: 'object' }, {})).toBeNull();
    expect(parseRawArgs('{"a":1}')).toEqual({ ok: true, args: { a: 1 } });
    expect(parseRawArgs('[1]')).toEqual({
      ok: false,
      error: 'The arguments must be a JSON object ({ … }).',
    });
    expect(parseRawArgs('{')).toMatchObject({ ok: false });
  });
});
