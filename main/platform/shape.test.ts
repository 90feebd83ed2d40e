import { describe, expect, it } from 'vitest';
import {
  array,
  boolean,
  nullable,
  number,
  object,
  oneOf,
  optional,
  parse,
  record,
  safeParse,
  ShapeError,
  string,
  withDefault,
} from './shape.js';
import { settingsSchema } from './settings.js';

describe('shape checks (settings.json without zod, issue 20)', () => {
  const shape = object({
    name: string({ min: 1 }),
    port: withDefault(number({ int: true, min: 0, max: 65535 }), 80),
    mode: withDefault(oneOf('auto', 'ask'), 'ask'),
    tags: withDefault(array(string()), []),
    grants: withDefault(record(nullable(string())), {}),
    nested: withDefault(object({ on: withDefault(boolean(), true), note: optional(string()) }), {}),
  });

  it('fills defaults, nested ones too, and leaves absent optional keys out', () => {
    expect(parse(shape, { name: 'a' })).toEqual({
      name: 'a',
      port: 80,
      mode: 'ask',
      tags: [],
      grants: {},
      nested: { on: true },
    });
    expect('note' in parse(shape, { name: 'a' }).nested).toBe(false);
  });

  it('names every problem by its path, unknown keys included', () => {
    const r = safeParse(shape, {
      name: '',
      port: 70000,
      mode: 'never',
      tags: ['ok', 3],
      grants: { t: 5 },
      nested: { on: 'yes', extra: 1 },
      typo: true,
    });
    expect(r.ok).toBe(false);
    const issues = r.ok ? [] : r.error.issues;
    expect(issues).toEqual([
      'typo: not a known key',
      'name: expected a string of at least 1 characters, got ""',
      'port: expected an integer from 0 to 65535, got 70000',
      'mode: expected "auto" or "ask", got "never"',
      'tags[1]: expected a string, got 3',
      'grants.t: expected a string, got 5',
      'nested.extra: not a known key',
      'nested.on: expected true or false, got "yes"',
    ]);
  });

  it('refuses the wrong kind of value at the root and in lists and records', () => {
    for (const bad of [null, [], 'x', 3]) expect(() => parse(shape, bad)).toThrow(ShapeError);
    expect(() => parse(shape, { name: 'a', tags: 'x' })).toThrow(/tags: expected a list/);
    expect(() => parse(shape, { name: 'a', grants: [] })).toThrow(/grants: expected an object/);
    expect(() => parse(shape, { name: 'a', port: 1.5 })).toThrow(/port: expected an integer/);
  });

  it('a "__proto__" key in a record stays a plain key and pollutes nothing', () => {
    const out = parse(shape, JSON.parse('{"name":"a","grants":{"__proto__":"x","t":null}}'));
    expect(Object.getPrototypeOf(out.grants)).toBe(Object.prototype);
    expect(Object.keys(out.grants).sort()).toEqual(['__proto__', 't']);
    expect(({} as Record<string, unknown>).t).toBeUndefined();
  });

  it('strip mode drops unknown keys (files others write) instead of refusing them', () => {
    const loose = object({ id: string() }, { unknown: 'strip' });
    expect(parse(loose, { id: 'x', other: 1 })).toEqual({ id: 'x' });
  });

  it('the empty settings file is the documented defaults', () => {
    const s = parse(settingsSchema, {});
    expect(s).toMatchObject({
      version: 1,
      port: 47821,
      paused: false,
      approvals: {
        waitSeconds: 45,
        expireMinutes: 10,
        outcomeWindowMinutes: 10,
        progressIntervalSeconds: 5,
      },
      tools: {},
      agents: [],
      remotes: [],
      google: { accounts: [] },
      shell: { approvalStyle: 'window' },
      limits: { maxBodyBytes: 4 * 1024 * 1024, resultChars: 20_000, callsInFlightPerAgent: 128 },
    });
    // Defaults are copies: changing one parse's result leaves the next one's alone.
    s.agents.push({ name: 'x', createdAt: '', overrides: {}, grants: {} });
    expect(parse(settingsSchema, {}).agents).toEqual([]);
  });
});
