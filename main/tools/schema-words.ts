/**
 * The words of a JSON Schema a person or model reads — its `title` and `description` annotations
 * (JSON Schema 2020-12 Validation, section 9.1) — each passed through `words` (serverWords,
 * relay-label.ts, for a server's). Read by the lists
 * a remote server gives (main/remote/catalog/listed-words.ts: a tool's input and output schemas)
 * and by a relayed elicitation's form (relay-label.ts: `requestedSchema`, whose property titles a
 * client draws as the form's field labels, MCP 2025-06-18 client/elicitation).
 */

/** JSON Schema keywords whose value is a schema, a list of them, or a map of them. */
const ONE = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * A copy of a JSON Schema with its `title` and `description` annotations passed through
 * `words`, at schema positions only (a property *named* "title" is not one). Walked with a
 * stack, not recursion: a server's schema can be nested deeper than the call stack.
 */
export function schemaWords(schema: unknown, words: (text: string) => string): unknown {
  const root = { v: schema };
  const stack: Record<string, unknown>[] = [];
  const visit = (holder: Record<string, unknown>, key: string) => {
    const node = holder[key];
    if (!isRecord(node)) return;
    const copy: Record<string, unknown> = { ...node };
    for (const k of ['title', 'description'])
      if (typeof copy[k] === 'string') copy[k] = words(copy[k]);
    put(holder, key, copy);
    stack.push(copy);
  };
  visit(root, 'v');
  while (stack.length) {
    const s = stack.pop()!;
    for (const k of ONE) visit(s, k);
    for (const k of LIST)
      if (Array.isArray(s[k])) {
        const list = [...(s[k] as unknown[])];
        put(s, k, list);
        for (let i = 0; i < list.length; i++)
          visit(list as unknown as Record<string, unknown>, String(i));
      }
    for (const k of MAP)
      if (isRecord(s[k])) {
        const map: Record<string, unknown> = { ...s[k] };
        put(s, k, map);
        // Own keys only; "__proto__" as a property name stays a plain key of the copy (put).
        for (const name of Object.keys(map)) visit(map, name);
      }
  }
  return root.v;
}

/** An own data property, even for "__proto__" (assigned, it would set the prototype instead). */
function put(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
