/**
 * What a tool's own JSON Schema says a value is (issue 30): a property with
 * `format: "email"` (or idn-email, uri, iri, uri-reference, hostname, …) is
 * where the call sends something, whatever it is called (JSON Schema 2020-12
 * Validation §7.3). Follows properties, additionalProperties, items,
 * prefixItems, anyOf/oneOf/allOf and local `$ref`s, bounded in depth.
 */

type Schema = Record<string, unknown>;

const DESTINATION_FORMATS = new Set([
  'email',
  'idn-email',
  'uri',
  'iri',
  'uri-reference',
  'iri-reference',
  'uri-template',
  'hostname',
  'idn-hostname',
]);

const MAX_DEPTH = 24;

const isSchema = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** Whether the schema at `path` (or any alternative of it) has a destination format. */
export function schemaSaysDestination(
  schema: Schema | undefined,
  path: readonly (string | number)[],
): boolean {
  return answer(memos, isDestination, schema, path);
}

/**
 * Whether the schema at `path` says the value is a file's bytes written as text:
 * `contentEncoding: base64` (or base16, base32: JSON Schema 2020-12 Validation §8.3) or OpenAPI's
 * `format: byte` / `binary`. Such a value is not read as text (encoded-arguments.ts).
 */
export function schemaSaysFile(
  schema: Schema | undefined,
  path: readonly (string | number)[],
): boolean {
  return answer(fileMemos, isFile, schema, path);
}

const isDestination = (s: Schema) =>
  typeof s.format === 'string' && DESTINATION_FORMATS.has(s.format);
const isFile = (s: Schema) =>
  (typeof s.contentEncoding === 'string' && /^base(?:64|32|16)$/i.test(s.contentEncoding)) ||
  s.format === 'byte' ||
  s.format === 'binary';

function answer(
  memos: WeakMap<Schema, Answers>,
  test: (s: Schema) => boolean,
  schema: Schema | undefined,
  path: readonly (string | number)[],
): boolean {
  if (!schema) return false;
  // Tools keep their schema object; a path's answer is the same for every call. Two tables, so
  // that no key stands for two paths: a top-level argument by its name as it is, any other path
  // by its JSON text, where an index (0) and a member named "0" or "#0" differ and a name holding
  // a separator cannot pass for two steps ("a\u0000b" against a → b). A shared key would let an
  // answer worked out for one path decide another's (schema-formats.property.test.ts).
  let memo = memos.get(schema);
  if (!memo) memos.set(schema, (memo = { names: new Map(), paths: new Map() }));
  const name = path.length === 1 && typeof path[0] === 'string' ? path[0] : undefined;
  const answers = name === undefined ? memo.paths : memo.names;
  const key = name ?? JSON.stringify(path);
  let hit = answers.get(key);
  if (hit === undefined) {
    if (answers.size >= 1024) answers.clear();
    hit = walk(schema, path, test);
    answers.set(key, hit);
  }
  return hit;
}

/** What the schema says at each path asked so far (see schemaSaysDestination). */
interface Answers {
  names: Map<string, boolean>;
  paths: Map<string, boolean>;
}

const memos = new WeakMap<Schema, Answers>();
const fileMemos = new WeakMap<Schema, Answers>();

function walk(
  schema: Schema,
  path: readonly (string | number)[],
  test: (s: Schema) => boolean,
): boolean {
  let frontier = expand(schema, schema, 0);
  for (const step of path) {
    const next: Schema[] = [];
    for (const s of frontier) next.push(...childOf(s, step).flatMap((c) => expand(schema, c, 0)));
    if (next.length === 0) return false;
    frontier = next.slice(0, 16);
  }
  return frontier.some(test);
}

/** The schema and its alternatives / conjuncts / local reference, flattened. */
function expand(root: Schema, s: Schema, depth: number): Schema[] {
  if (depth > MAX_DEPTH) return [];
  const out: Schema[] = [s];
  if (typeof s.$ref === 'string' && s.$ref.startsWith('#')) {
    const target = pointer(root, s.$ref.slice(1));
    if (target) out.push(...expand(root, target, depth + 1));
  }
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = s[k];
    if (Array.isArray(list))
      for (const sub of list) if (isSchema(sub)) out.push(...expand(root, sub, depth + 1));
  }
  return out;
}

function childOf(s: Schema, step: string | number): Schema[] {
  if (typeof step === 'number') {
    const prefix = s.prefixItems;
    if (Array.isArray(prefix) && isSchema(prefix[step])) return [prefix[step] as Schema];
    if (isSchema(s.items)) return [s.items];
    if (Array.isArray(s.items) && isSchema(s.items[step])) return [s.items[step] as Schema];
    return [];
  }
  const props = s.properties;
  if (isSchema(props) && isSchema(props[step])) return [props[step] as Schema];
  if (isSchema(s.additionalProperties)) return [s.additionalProperties];
  return [];
}

/** RFC 6901 JSON Pointer into the root schema. */
function pointer(root: Schema, p: string): Schema | undefined {
  let cur: unknown = root;
  for (const raw of p.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return isSchema(cur) ? cur : undefined;
}
