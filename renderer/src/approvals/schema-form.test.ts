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
      ['extra', 'json', false],
    ]);
    expect(fields[0]!.label).toBe('Recipient');
    expect(fields.find((f) => f.name === 'body')!.multiline).toBe(true);
  });

  it('round-trips unchanged arguments exactly, also keys the schema does not name', () => {
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

  it('shows an argument the schema does not name as a field, which the user can clear', () => {
    const fields = fieldsFor(schema, args)!;
    const extra = fields.find((f) => f.name === 'extra')!;
    expect(extra).toMatchObject({ kind: 'json', extra: true, required: false });
    const values = initialValues(fields, args);
    expect(values.extra).toBe('"kept"');
    const built = buildArgs(fields, { ...values, extra: '' }, args);
    expect(built.ok && Object.hasOwn(built.args, 'extra')).toBe(false);
  });

  it('edits as JSON a value its typed input cannot show, so an untouched field stays as sent', () => {
    const call = { to: 'a@example.com', count: 2, ratio: null, urgent: 'yes', kind: 'fax' };
    const fields = fieldsFor(schema, call)!;
    const kinds = Object.fromEntries(fields.map((f) => [f.name, f.kind]));
    expect(kinds).toMatchObject({ ratio: 'json', urgent: 'json', kind: 'json', count: 'integer' });
    const values = initialValues(fields, call);
    expect(values.ratio).toBe('null');
    // Before: null came back absent ("leave it as it is" to many tools, not "clear it").
    expect(buildArgs(fields, { ...values, count: '3' }, call)).toEqual({
      ok: true,
      args: { ...call, count: 3 },
    });
  });

  it("shows a boolean the agent left out as the schema's default, and sends what it shows", () => {
    const withDefault = {
      type: 'object',
      properties: { notify: { type: 'boolean', default: true }, draft: { type: 'boolean' } },
    };
    const fields = fieldsFor(withDefault, {})!;
    const values = initialValues(fields, {});
    // Left out, the tool notifies: the box says so (before: unchecked, read as "no").
    expect(values).toMatchObject({ notify: true, draft: false });
    expect(buildArgs(fields, values, {})).toEqual({ ok: true, args: {} });
    expect(buildArgs(fields, { ...values, notify: false }, {})).toEqual({
      ok: true,
      args: { notify: false },
    });
    expect(buildArgs(fields, { ...values, draft: true }, {})).toEqual({
      ok: true,
      args: { draft: true },
    });
  });

  it('keeps an argument named "__proto__" as an argument', () => {
    const call = JSON.parse('{"to":"a@example.com","count":1,"__proto__":{"x":1}}') as Record<
      string,
      unknown
    >;
    const fields = fieldsFor(schema, call)!;
    const values = initialValues(fields, call);
    const built = buildArgs(fields, { ...values, ['__proto__']: '{"x":2}' }, call);
    expect(built.ok && JSON.stringify(built.args)).toBe(
      '{"to":"a@example.com","count":1,"__proto__":{"x":2}}',
    );
    // A schema that names it, and a call that left it out: typed in, it is sent.
    const named = JSON.parse('{"properties":{"__proto__":{"type":"object"}}}') as typeof schema;
    const blank = fieldsFor(named, {})!;
    const typed = buildArgs(blank, { ['__proto__']: '{"x":3}' }, {});
    expect(typed.ok && JSON.stringify(typed.args)).toBe('{"__proto__":{"x":3}}');
  });
});
