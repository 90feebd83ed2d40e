import { describe, expect, it } from 'vitest';
import { startEdit, submitArgs, switchMode, type EditState } from './edit-state';

const schema = {
  type: 'object',
  properties: {
    to: { type: 'string' },
    count: { type: ['integer', 'null'] },
    notify: { type: 'boolean', default: true },
  },
  required: ['to'],
};
const call = { to: 'bob@example.com', count: 2, cc: 'eve@example.net' };

const switched = (s: EditState): EditState => {
  const next = switchMode(s, schema);
  if ('error' in next) throw new Error(next.error);
  return next;
};

describe('edit & allow: what the user last saw is what is allowed', () => {
  it('a key deleted in the JSON stays deleted after going back to the form', () => {
    const raw = switched(startEdit(schema, call));
    expect(raw.raw).toBe(true);
    const edited = { ...raw, rawText: JSON.stringify({ to: 'bob@example.com', count: 2 }) };
    const form = switched(edited);
    expect(form.fields!.map((f) => f.name)).toEqual(['to', 'count', 'notify']);
    // Before: the form was built on the agent's call, and its cc came back on submit.
    expect(submitArgs(form)).toEqual({ ok: true, args: { to: 'bob@example.com', count: 2 } });
  });

  it('a value retyped in the JSON is read as written, not with the first form fields', () => {
    const raw = switched(startEdit(schema, call));
    const form = switched({ ...raw, rawText: '{"to":"bob@example.com","count":null}' });
    // Before: count kept its number box, which showed null as empty and left it out.
    expect(submitArgs(form)).toEqual({ ok: true, args: { to: 'bob@example.com', count: null } });
  });

  it('going to the JSON with a value the form cannot send says so, instead of showing the old JSON', () => {
    const s = startEdit(schema, call);
    const bad = { ...s, values: { ...s.values, count: 'many' } };
    expect(switchMode(bad, schema)).toEqual({ error: '"count" must be a number.' });
  });
});
