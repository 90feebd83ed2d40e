import { canonicalJson } from './canonical.js';

/**
 * The form of a tool's definition its fingerprints hash (policy.ts): the definition as listed,
 * with the differences that cannot change what it does written one way. Only the hash reads it;
 * what is shown, sent to the agent and validated stays the server's own.
 *
 * A JSON Schema's arrays that the specification defines as sets are put in canonical-JSON order,
 * walked by keyword position (a property named "required" is a name, not the keyword; `const`,
 * `default` and `examples` are data and never touched). Draft 2020-12 and draft-07 both, as
 * servers send either (schema-validator.ts reads both with the 2020 instance):
 *   - `required` (2020-12 validation §6.5.3, draft-07 §6.5.3): valid iff every name is present;
 *   - `type` as an array (§6.1.1): valid iff the instance has any of the types;
 *   - `dependentRequired` values (§6.5.4) and draft-07 `dependencies` arrays (§6.5.7): as `required`;
 *   - `enum` (§6.1.2): valid iff equal to any element, so it is also de-duplicated.
 * Those four MUST hold unique strings, and the meta-schema says `uniqueItems`: a schema that
 * repeats one does not compile, and Airlock validates nothing against it (schema-validator.ts) —
 * so their repeats are kept, not dropped, or it would share a hash with the one that validates.
 * `enum` only SHOULD be unique (its meta-schema does not check), so a repeat means nothing.
 *
 * Order is kept in `prefixItems` and draft-07's array `items` (position i validates element i),
 * and, to stay on the safe side, in `allOf`/`anyOf`/`oneOf`: their outcome does not depend on
 * order, but a `$ref` may point into one by index ("#/anyOf/1"), and reordering would point it at
 * another branch. For the same reason a schema with a `$ref` into a set array by index is hashed
 * as it came.
 */
export function schemaFingerprintForm(schema: unknown): unknown {
  return refsIntoSets(schema) ? schema : walk(schema);
}

/**
 * Annotations as hashed: `{}` is written as none. Both show the card no hint and tell Airlock's
 * readers (types.ts isReadOnly/isDestructive) the defaults. A hint given as its default is NOT
 * folded into none: the card lists the server's explicit claims (CardFacts.tsx ServerClaims:
 * "may delete or overwrite: yes"), and a grant is bound to what the user was shown.
 */
export function annotationsFingerprintForm(annotations: unknown): unknown {
  if (annotations === undefined || annotations === null) return null;
  if (isObject(annotations) && Object.keys(annotations).length === 0) return null;
  return annotations;
}

/** Keywords whose value is one subschema. `items` is one in 2020-12, a list in draft-07. */
const ONE = new Set([
  'additionalProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
  'contentSchema',
  'items',
]);
/** Keywords whose value is a list of subschemas, kept in order (see above). */
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to subschemas. */
const MAP = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
/** Sets of names, repeats kept (they make the schema not compile). */
const NAMES = new Set(['required', 'type']);

function walk(schema: unknown): unknown {
  if (!isObject(schema)) return schema; // `true`, `false`, or not a schema: as it is
  const out = blank();
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'enum' && Array.isArray(v)) out[k] = sortedSet(v, true);
    else if (NAMES.has(k) && isNames(v)) out[k] = sortedSet(v, false);
    else if (k === 'dependentRequired' && isObject(v)) out[k] = mapValues(v, names);
    else if (k === 'dependencies' && isObject(v))
      out[k] = mapValues(v, (d) => (Array.isArray(d) ? names(d) : walk(d)));
    else if (LIST.has(k) && Array.isArray(v)) out[k] = v.map(walk);
    else if (ONE.has(k)) out[k] = walk(v);
    else if (MAP.has(k) && isObject(v)) out[k] = mapValues(v, walk);
    else out[k] = v; // data (`const`, `default`, `examples`), words, or an unknown keyword
  }
  return out;
}

function names(v: unknown): unknown {
  return isNames(v) ? sortedSet(v, false) : v;
}

function sortedSet(items: readonly unknown[], dedupe: boolean): unknown[] {
  const keyed = items.map((item) => [canonicalJson(item), item] as const);
  keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const out: unknown[] = [];
  for (let i = 0; i < keyed.length; i++)
    if (
      !dedupe ||
      i === 0 ||
      keyed[i]![0] !== keyed[i - 1]![0] ||
      !exactInJson(keyed[i]![1]) ||
      !exactInJson(keyed[i - 1]![1])
    )
      out.push(keyed[i]![1]);
  return out;
}

/**
 * Whether canonical JSON tells this value from every other: not so for a number beyond a double
 * (`1e400` parses as Infinity), which JSON writes as `null`. Such an item is never taken for a
 * repeat, or `[null, 1e400]` (which admits Infinity) would hash as `[null]` (review finding).
 */
function exactInJson(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(exactInJson);
  if (isObject(v)) return Object.values(v).every(exactInJson);
  return true;
}

function mapValues(
  obj: Record<string, unknown>,
  f: (v: unknown) => unknown,
): Record<string, unknown> {
  const out = blank();
  for (const [k, v] of Object.entries(obj)) out[k] = f(v);
  return out;
}

/**
 * No prototype: a `__proto__` key (JSON.parse makes it an own key) assigned on a plain `{}` would
 * set the prototype and drop the key, and two different schemas would hash alike (as canonical.ts).
 */
const blank = () => Object.create(null) as Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const isNames = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string');

const SET_KEYWORDS = new Set(['enum', 'required', 'type', 'dependentRequired', 'dependencies']);

/**
 * Whether any `$ref`-like string anywhere in the schema has a JSON Pointer fragment with a set
 * keyword followed later by an index: reordering that array could change what it resolves to.
 * Over-matching (a property named "enum") only leaves the schema as it came.
 */
function refsIntoSets(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(refsIntoSets);
  if (!isObject(value)) return false;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && (k === '$ref' || k === '$dynamicRef' || k === '$recursiveRef')) {
      if (pointsIntoSet(v)) return true;
    } else if (refsIntoSets(v)) return true;
  }
  return false;
}

function pointsIntoSet(ref: string): boolean {
  const hash = ref.indexOf('#');
  if (hash < 0) return false;
  let fragment = ref.slice(hash + 1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    return true; // unreadable: do not guess
  }
  const segments = fragment.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const at = segments.findIndex((s) => SET_KEYWORDS.has(s));
  return at >= 0 && segments.slice(at + 1).some((s) => /^\d+$/.test(s));
}
