import type { Tool } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../approvals/canonical.js';
import { toolFingerprint } from '../../approvals/policy.js';
import type { ToolEntry } from '../../tools/registry.js';
import type { ToolSource } from '../../tools/types.js';
import { toDefinition } from './tool-definition.js';
import { mulberry32 as prng } from '../../../test-support/seeded-random.js';

/**
 * Review of red-team wave 4 (a held "always allow" is made only on the tool its card showed):
 * the card's binding and the check at confirmation both hash the registry's shaped definition
 * (toDefinition of the upstream's tools/list, then policy.ts toolFingerprint over canonicalJson),
 * never the upstream's text. A server that relists the same tool as other JSON text — keys in
 * another order at any depth, other whitespace, the same bytes again — must keep it grantable;
 * one whose description, title, hints, input schema or name differ must not.
 */

const SOURCE = {
  kind: 'remote',
  id: 'remote:svc',
  identity: () => JSON.stringify({ url: 'https://mcp.example/mcp' }),
} as unknown as ToolSource;

/** The hash an approval card is bound to, for an upstream tools/list entry read from `text`. */
function fingerprintOf(text: string): string {
  const def = toDefinition(JSON.parse(text) as Tool);
  const entry: ToolEntry = {
    name: `svc__${def.name}`,
    key: `remote:svc/${def.name}`,
    source: SOURCE,
    def,
  };
  return toolFingerprint(entry);
}

const SPACE = ['', ' ', '\n', '\t', '\r\n  ', '   '];

/** JSON text of `value` with object keys in a shuffled order at every depth and random whitespace. */
function rewrite(value: unknown, rnd: () => number): string {
  const ws = () => SPACE[Math.floor(rnd() * SPACE.length)]!;
  if (Array.isArray(value))
    return `[${ws()}${value.map((v) => rewrite(v, rnd)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
    const body = keys.map(
      (k) =>
        `${JSON.stringify(k)}${ws()}:${ws()}${rewrite((value as Record<string, unknown>)[k], rnd)}`,
    );
    return `{${ws()}${body.join(`${ws()},${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(value);
}

const words = fc.string({ maxLength: 30 });
const property = fc.record(
  {
    type: fc.constantFrom('string', 'number', 'boolean', 'integer'),
    description: words,
    minLength: fc.nat(10),
    enum: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  },
  { requiredKeys: ['type'] },
);
const schema = fc
  .dictionary(fc.string({ minLength: 1, maxLength: 8 }), property, { maxKeys: 5 })
  .chain((properties) =>
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.constant(properties),
        required: fc.subarray(Object.keys(properties)),
        additionalProperties: fc.boolean(),
        'x-extra': fc.jsonValue({ maxDepth: 3 }),
      },
      { requiredKeys: ['type', 'properties'] },
    ),
  );
const annotations = fc.record(
  {
    title: words,
    readOnlyHint: fc.boolean(),
    destructiveHint: fc.boolean(),
    idempotentHint: fc.boolean(),
    openWorldHint: fc.boolean(),
  },
  { requiredKeys: [] },
);
const upstreamTool = fc.record(
  {
    name: fc.constantFrom('send', 'create_event', 'x.y'),
    title: words,
    description: words,
    inputSchema: schema,
    annotations,
    _meta: fc.record({ 'example.com/v': fc.nat() }),
  },
  { requiredKeys: ['name', 'inputSchema'] },
);

type Raw = Record<string, unknown> & { inputSchema: Record<string, unknown> };

/** Changes the card shows or what runs: each must make "always allow" refused. */
const CHANGES: Record<string, (t: Raw) => Raw> = {
  description: (t) => ({ ...t, description: `${String(t.description ?? '')}!` }),
  title: (t) => ({ ...t, title: `${String(t.title ?? '')}?` }),
  'a hint flipped': (t) => {
    const a = (t.annotations ?? {}) as Record<string, unknown>;
    return { ...t, annotations: { ...a, destructiveHint: a.destructiveHint !== true } };
  },
  'a property added to the schema': (t) => ({
    ...t,
    inputSchema: {
      ...t.inputSchema,
      properties: { ...(t.inputSchema.properties as object), __added: { type: 'string' } },
    },
  }),
  'additionalProperties changed': (t) => ({
    ...t,
    inputSchema: {
      ...t.inputSchema,
      additionalProperties: t.inputSchema.additionalProperties !== true,
    },
  }),
  name: (t) => ({ ...t, name: `${String(t.name)}2` }),
  // Changes of a set-like array's members (not its order) are changes of the tool.
  'an enum value added': (t) => ({
    ...t,
    inputSchema: {
      ...t.inputSchema,
      properties: {
        ...(t.inputSchema.properties as object),
        __enum: { type: 'string', enum: ['a', 'b'] },
      },
    },
  }),
  'a required name added': (t) => ({
    ...t,
    inputSchema: {
      ...t.inputSchema,
      required: [...((t.inputSchema.required as string[] | undefined) ?? []), '__not_listed'],
    },
  }),
};

/**
 * `tool` as a server may relist it without any change of what it does (fingerprint-form.ts): its
 * `required` and each property's `enum` in another order, an enum value repeated, and
 * `annotations: {}` where it had none.
 */
function permuteSets(tool: Record<string, unknown>, rnd: () => number): Record<string, unknown> {
  const shuffle = <T>(xs: readonly T[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  const schema = tool.inputSchema as Record<string, unknown>;
  const properties = Object.fromEntries(
    Object.entries(schema.properties as Record<string, Record<string, unknown>>).map(([k, p]) => {
      const e = p.enum as string[] | undefined;
      if (!e?.length) return [k, p];
      return [k, { ...p, enum: shuffle(rnd() < 0.5 ? e : [...e, e[0]!]) }];
    }),
  );
  return {
    ...tool,
    ...(tool.annotations === undefined && rnd() < 0.5 ? { annotations: {} } : {}),
    inputSchema: {
      ...schema,
      properties,
      ...(Array.isArray(schema.required) ? { required: shuffle(schema.required) } : {}),
    },
  };
}

describe('relisting the same tool as other JSON text keeps it grantable (fast-check)', () => {
  it('keys shuffled at every depth, other whitespace, or the same text again: the same fingerprint', () => {
    fc.assert(
      fc.property(upstreamTool, fc.integer(), fc.boolean(), (tool, seed, resend) => {
        const first = JSON.stringify(tool);
        const again = resend ? first : rewrite(tool, prng(seed));
        expect(fingerprintOf(again)).toBe(fingerprintOf(first));
      }),
      { numRuns: 300 },
    );
  });

  it('required and enum in another order, an enum value repeated, annotations {} for none: the same fingerprint', () => {
    let reordered = 0;
    fc.assert(
      fc.property(upstreamTool, fc.integer(), (tool, seed) => {
        const rnd = prng(seed);
        const again = permuteSets(tool, rnd);
        if (canonicalJson(again) !== canonicalJson(tool)) reordered += 1;
        expect(fingerprintOf(rewrite(again, rnd))).toBe(fingerprintOf(JSON.stringify(tool)));
      }),
      { numRuns: 300 },
    );
    expect(reordered).toBeGreaterThan(100);
  });

  it('any change of the words, a hint, the input schema or the name: another fingerprint', () => {
    fc.assert(
      fc.property(
        upstreamTool,
        fc.integer(),
        fc.constantFrom(...Object.keys(CHANGES)),
        (tool, seed, change) => {
          const changed = CHANGES[change]!(tool as Raw);
          expect(fingerprintOf(rewrite(changed, prng(seed)))).not.toBe(
            fingerprintOf(JSON.stringify(tool)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * Held out (not tuned on): other writings a server's JSON library produces — pretty-printed at
 * any indent, unicode escapes for every non-ASCII and every letter of the strings.
 */
describe('held out: pretty-printed and escaped writings', () => {
  it('the same fingerprint', () => {
    fc.assert(
      fc.property(upstreamTool, fc.constantFrom(1, 2, 4, '\t'), (tool, indent) => {
        const escaped = JSON.stringify(tool, null, indent).replace(
          /"(?:[^"\\]|\\.)*"/g,
          // Escapes JSON.stringify wrote stay as they are; every plain letter is escaped.
          (s) =>
            s.replace(/\\u[0-9a-f]{4}|\\.|[a-z]/g, (c) =>
              c.length > 1 ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
            ),
        );
        expect(fingerprintOf(escaped)).toBe(fingerprintOf(JSON.stringify(tool)));
      }),
      { numRuns: 200 },
    );
  });
});
