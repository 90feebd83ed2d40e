import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Settings } from '../platform/settings.js';
import type { ToolEntry } from '../tools/registry.js';
import { SchemaValidator } from '../tools/schema-validator.js';
import { canonicalJson } from './canonical.js';
import { policyFingerprint, runFingerprint, toolFingerprint } from './policy.js';
import { mulberry32 as prng } from '../../test-support/seeded-random.js';

/**
 * fingerprint-form.ts promises that what it folds together cannot change what the tool does. The
 * thing that acts is Airlock's validator (schema-validator.ts, ajv as configured there), so:
 * over generated schemas and instances, a relisting with its set-like arrays permuted (and enum
 * repeats added, `annotations: {}` for none) validates every instance as the original does AND
 * has the same fingerprints; a generated change that can change validation (an enum value or a
 * required name added or dropped, one repeat of a name dropped, prefixItems or `const` data
 * reordered) gives other fingerprints. Tuned on SEED; HELD_OUT seeds and the draft-07 flavour
 * were not run while the code was written, and are reported separately.
 */

const NAMES = ['a', 'b', 'c', 'required', 'enum', 'type'];
const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];
/** Data: enum and const values, and the parts of instances. Objects named like keywords on purpose. */
const VALUES: unknown[] = [
  'x',
  'y',
  1,
  2.5,
  null,
  true,
  [1, 2],
  [2, 1],
  { required: ['b', 'a'] },
  { required: ['a', 'b'] },
  { a: 1 },
  {},
];

const name = fc.constantFrom(...NAMES);
const value = fc.constantFrom(...VALUES);
const names = fc.array(name, { maxLength: 4 }); // repeats drawn too: such a schema does not compile

type Schema = boolean | Record<string, unknown>;

function schemaArb(draft07: boolean): fc.Arbitrary<Record<string, unknown>> {
  const { schema } = fc.letrec<{ schema: Schema; node: Record<string, unknown> }>((tie) => {
    const sub = tie('schema');
    const subs = fc.array(sub, { minLength: 1, maxLength: 3 });
    const applicator = fc.oneof(
      fc.tuple(fc.constant('properties'), fc.dictionary(name, sub, { maxKeys: 3 })),
      fc.tuple(fc.constantFrom('anyOf', 'oneOf', 'allOf'), subs),
      fc.tuple(fc.constant(draft07 ? 'items' : 'prefixItems'), subs),
      fc.tuple(fc.constantFrom('items', 'not', 'additionalProperties', 'contains'), sub),
      fc.tuple(
        fc.constant(draft07 ? 'definitions' : '$defs'),
        fc.dictionary(name, sub, { maxKeys: 2 }),
      ),
      fc.tuple(
        fc.constant('dependencies'),
        fc.dictionary(name, fc.oneof(names, sub), { maxKeys: 2 }),
      ),
      ...(draft07
        ? []
        : [fc.tuple(fc.constant('dependentSchemas'), fc.dictionary(name, sub, { maxKeys: 2 }))]),
    );
    return {
      schema: fc.oneof({ depthSize: 'small', maxDepth: 3 }, fc.boolean(), tie('node')),
      node: fc
        .tuple(
          fc.record(
            {
              type: fc.oneof(
                fc.constantFrom(...TYPES),
                fc.array(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
              ),
              enum: fc.array(value, { minLength: 1, maxLength: 4 }),
              const: value,
              required: names,
              dependentRequired: fc.dictionary(name, names, { maxKeys: 2 }),
              default: value,
              examples: fc.array(value, { maxLength: 3 }),
              minItems: fc.nat(2),
            },
            { requiredKeys: [] },
          ),
          fc.array(applicator, { maxLength: 2 }),
        )
        .map(([leaf, apps]) => ({ ...leaf, ...Object.fromEntries(apps) })),
    };
  });
  // An input schema is an object at its top (MCP Tool.inputSchema).
  const root = fc
    .tuple(fc.constantFrom('object', undefined), schema)
    .map(([type, s]) => (typeof s === 'object' ? s : type ? { type } : {}));
  return draft07
    ? root.map((s) => ({ $schema: 'http://json-schema.org/draft-07/schema#', ...s }))
    : root;
}

const instance = fc.oneof(
  value,
  fc.dictionary(name, value, { maxKeys: 4 }),
  fc.array(value, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
);

function shuffle<T>(items: readonly T[], rnd: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The test's own reading of the specification's sets (not fingerprint-form.ts's): `value` with
 * every set-like array permuted and an enum repeat added now and then, keys shuffled, walked by
 * keyword position. Each keyword's value: a schema, a list or map of schemas, a set, or data.
 */
function relist(s: unknown, rnd: () => number): unknown {
  if (!isObj(s)) return s;
  const entries = Object.entries(s).map(([k, v]): [string, unknown] => {
    if (k === 'enum' && Array.isArray(v)) {
      const withRepeat = rnd() < 0.3 ? [...v, v[Math.floor(rnd() * v.length)]] : v;
      return [k, shuffle(withRepeat, rnd)];
    }
    if ((k === 'required' || k === 'type') && Array.isArray(v)) return [k, shuffle(v, rnd)];
    if (k === 'dependentRequired' && isObj(v))
      return [k, Object.fromEntries(Object.entries(v).map(([n, d]) => [n, shuffle(d as [], rnd)]))];
    if (k === 'dependencies' && isObj(v))
      return [
        k,
        Object.fromEntries(
          Object.entries(v).map(([n, d]) => [
            n,
            Array.isArray(d) ? shuffle(d, rnd) : relist(d, rnd),
          ]),
        ),
      ];
    if (['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'].includes(k) && Array.isArray(v))
      return [k, v.map((x) => relist(x, rnd))];
    if (['properties', '$defs', 'definitions', 'dependentSchemas'].includes(k) && isObj(v))
      return [k, Object.fromEntries(Object.entries(v).map(([n, x]) => [n, relist(x, rnd)]))];
    if (['items', 'not', 'additionalProperties', 'contains'].includes(k))
      return [k, relist(v, rnd)];
    return [k, v];
  });
  return Object.fromEntries(shuffle(entries, rnd));
}

/** Every subschema position's object, so a change can be made at a drawn one. */
function nodes(s: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (!isObj(s)) return out;
  out.push(s);
  for (const [k, v] of Object.entries(s)) {
    if (['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'].includes(k) && Array.isArray(v))
      v.forEach((x) => nodes(x, out));
    else if (['properties', '$defs', 'definitions', 'dependentSchemas'].includes(k) && isObj(v))
      Object.values(v).forEach((x) => nodes(x, out));
    else if (k === 'dependencies' && isObj(v)) Object.values(v).forEach((x) => nodes(x, out));
    else if (['items', 'not', 'additionalProperties', 'contains'].includes(k)) nodes(v, out);
  }
  return out;
}

const setOf = (items: readonly unknown[]) => new Set(items.map((x) => canonicalJson(x)));

/** Changes that can change validation, each at a node where it applies; null where it does not. */
const CHANGES: Record<string, (n: Record<string, unknown>) => Record<string, unknown> | null> = {
  'an enum value added': (n) => {
    if (!Array.isArray(n.enum)) return null;
    const have = setOf(n.enum);
    const extra = VALUES.find((v) => !have.has(canonicalJson(v)));
    return extra === undefined ? null : { ...n, enum: [...n.enum, extra] };
  },
  'an enum value dropped': (n) => {
    if (!Array.isArray(n.enum) || setOf(n.enum).size < 2) return null;
    const drop = canonicalJson(n.enum[0]);
    return { ...n, enum: n.enum.filter((v) => canonicalJson(v) !== drop) };
  },
  'a required name added': (n) => {
    const r = Array.isArray(n.required) ? (n.required as string[]) : [];
    const extra = NAMES.find((x) => !r.includes(x));
    return extra === undefined ? null : { ...n, required: [...r, extra] };
  },
  'a required name dropped': (n) => {
    if (!Array.isArray(n.required) || n.required.length === 0) return null;
    const drop = n.required[0] as string;
    return { ...n, required: (n.required as string[]).filter((x) => x !== drop) };
  },
  // ["a", "a"] does not compile (Airlock validates nothing against it); ["a"] does.
  'one repeat of a required name dropped': (n) => {
    const r = Array.isArray(n.required) ? (n.required as string[]) : [];
    const i = r.findIndex((x, j) => r.indexOf(x) !== j);
    return i < 0 ? null : { ...n, required: r.filter((_, j) => j !== i) };
  },
  'a type added to a type array': (n) => {
    if (!Array.isArray(n.type)) return null;
    const extra = TYPES.find((x) => !(n.type as string[]).includes(x));
    return extra === undefined ? null : { ...n, type: [...(n.type as string[]), extra] };
  },
  'prefixItems reordered': (n) => {
    const p = n.prefixItems;
    if (!Array.isArray(p) || p.length < 2 || canonicalJson(p[0]) === canonicalJson(p[1]))
      return null;
    return { ...n, prefixItems: [p[1], p[0], ...p.slice(2)] };
  },
  'const data reordered (an array, or a "required" inside it)': (n) => {
    const c = n.const;
    if (Array.isArray(c) && canonicalJson(c[0]) !== canonicalJson(c[1]))
      return { ...n, const: [...c].reverse() };
    if (isObj(c) && Array.isArray(c.required) && c.required.length > 1)
      return { ...n, const: { ...c, required: [...c.required].reverse() } };
    return null;
  },
};

/** `root` with the drawn node replaced by `changed`. */
function replaceNode(root: unknown, target: unknown, changed: unknown): unknown {
  if (root === target) return changed;
  if (Array.isArray(root)) return root.map((x) => replaceNode(x, target, changed));
  if (isObj(root))
    return Object.fromEntries(
      Object.entries(root).map(([k, v]) => [k, replaceNode(v, target, changed)]),
    );
  return root;
}

const SOURCE = {
  kind: 'remote',
  id: 'remote:svc',
  identity: () => JSON.stringify({ url: 'https://mcp.example/mcp' }),
};
const SETTINGS = { tools: {} } as unknown as Settings;

/** The three hashes a card and a grant are bound to, for a tool with this schema and annotations. */
function fingerprints(inputSchema: unknown, annotations?: unknown): string[] {
  const entry = {
    name: 'svc__t',
    key: 'remote:svc/t',
    source: SOURCE,
    def: {
      name: 't',
      description: 'd',
      inputSchema,
      ...(annotations === undefined ? {} : { annotations }),
    },
  } as unknown as ToolEntry;
  return [
    toolFingerprint(entry),
    policyFingerprint(SETTINGS, entry, undefined),
    runFingerprint(entry, { a: 1 }),
  ];
}

/** Airlock's validator's answers (true: valid, or a schema it cannot compile), compiled once. */
function answers(schema: unknown, values: readonly unknown[]): boolean[] {
  return values.map((x) => VALIDATOR.validate(schema as Record<string, unknown>, x) === null);
}
/** One, as the product keeps one: it compiles each schema object on its own (cached per object). */
const VALIDATOR = new SchemaValidator();

const SEED = 20261206;
const HELD_OUT = [7, 1234567, 987654321];

function sameToolProperty(draft07: boolean) {
  return fc.property(
    schemaArb(draft07),
    fc.array(instance, { minLength: 4, maxLength: 10 }),
    fc.integer(),
    fc.boolean(),
    (schema, instances, seed, emptyAnnotations) => {
      const again = relist(schema, prng(seed));
      expect(fingerprints(again, emptyAnnotations ? {} : undefined)).toEqual(fingerprints(schema));
      expect(answers(again, instances), JSON.stringify({ schema, again, instances })).toEqual(
        answers(schema, instances),
      );
    },
  );
}

function changeProperty(draft07: boolean, tally: Record<string, number>) {
  return fc.property(
    schemaArb(draft07),
    fc.nat(),
    fc.constantFrom(...Object.keys(CHANGES)),
    fc.array(instance, { minLength: 4, maxLength: 10 }),
    (schema, pick, change, instances) => {
      const all = nodes(schema);
      const applicable = all.filter((n) => CHANGES[change]!(n) !== null);
      fc.pre(applicable.length > 0);
      const node = applicable[pick % applicable.length]!;
      const changed = replaceNode(schema, node, CHANGES[change]!(node));
      const [before, after] = [fingerprints(schema), fingerprints(changed)];
      for (let i = 0; i < 3; i++) expect(after[i], change).not.toBe(before[i]);
      tally[change] = (tally[change] ?? 0) + 1;
      // How often the drawn instances show the change matters (not asserted per run: a change
      // under `not: false` changes nothing, and the hash still differs, on the safe side).
      const [a, b] = [answers(schema, instances), answers(changed, instances)];
      if (a.some((x, i) => x !== b[i])) tally.witnessed = (tally.witnessed ?? 0) + 1;
    },
  );
}

describe('set-like schema arrays and annotations {} fold into one fingerprint (fast-check)', () => {
  it('a relisting with its sets permuted validates every instance alike and has the same fingerprints', () => {
    fc.assert(sameToolProperty(false), { numRuns: 300, seed: SEED });
  });

  it('a change that can change validation gives other fingerprints', () => {
    const tally: Record<string, number> = {};
    fc.assert(changeProperty(false, tally), { numRuns: 400, seed: SEED });
    for (const c of Object.keys(CHANGES)) expect(tally[c], c).toBeGreaterThan(0);
    console.log('changes drawn, and runs whose instances told the two apart:', tally);
    expect(tally.witnessed).toBeGreaterThan(10);
  });
});

describe('held out: other seeds, and draft-07 schemas (not run while tuning)', () => {
  it.each(HELD_OUT)(
    'seed %i: same tool, same fingerprints and validation (2020-12 and draft-07)',
    (seed) => {
      fc.assert(sameToolProperty(false), { numRuns: 200, seed });
      fc.assert(sameToolProperty(true), { numRuns: 200, seed });
    },
  );

  it.each(HELD_OUT)('seed %i: a change gives other fingerprints (2020-12 and draft-07)', (seed) => {
    fc.assert(changeProperty(false, {}), { numRuns: 200, seed });
    fc.assert(changeProperty(true, {}), { numRuns: 200, seed });
  });
});
