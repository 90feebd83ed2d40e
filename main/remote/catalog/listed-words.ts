import type { Tool } from '@modelcontextprotocol/client';
import type { Prompt, Resource, ResourceTemplate } from '../../tools/features.js';
import { serverWords } from '../../tools/relay-label.js';
import { ownMeta } from '../../tools/untrusted.js';

/**
 * What a remote server lists — tools, prompts, resources, resource templates — as Airlock passes
 * it on: every string the agent's app shows or its model reads as the item's name for people goes
 * through `serverWords` (a start that reads as Airlock is quoted as the server's), and every
 * `_meta` through `ownMeta` (no key in Airlock's namespaces), as a result's and a relayed request's
 * do (RED-TEAM.md R-1). The one place lists are taken in: listFeatures (remote-features.ts, both
 * protocol eras) and toDefinition (tool-definition.ts) call these, nothing else shapes them.
 *
 * The display strings, by the MCP schema (2025-06-18 and later, schema.ts): BaseMetadata `title`
 * (Tool, Prompt, PromptArgument, Resource, ResourceTemplate); `description` of each of those;
 * ToolAnnotations `title` (clients show a tool's title in place of its name — Claude Desktop,
 * VS Code); and the `title` / `description` keywords of a tool's input and output schemas (JSON
 * Schema annotations: the model reads them, and clients draw forms from them). Names, URIs and
 * MIME types are identifiers, not prose; they stay as they are.
 */

/** A string field passed through serverWords; absent or not a string, left as it is. */
function words<T extends object>(item: T, key: string): T {
  const v = (item as Record<string, unknown>)[key];
  return typeof v === 'string' ? { ...item, [key]: serverWords(v) } : item;
}

/** `title`, `description` and `_meta` of any listed item. */
export function listedItem<T extends { title?: string; description?: string; _meta?: object }>(
  item: T,
): T {
  const out = words(words(item, 'title'), 'description');
  if (!('_meta' in item)) return out;
  const meta = ownMeta(isRecord(item._meta) ? item._meta : undefined);
  const { _meta: _drop, ...rest } = out;
  return (Object.keys(meta).length ? { ...rest, _meta: meta } : rest) as T;
}

export function listedPrompt(p: Prompt): Prompt {
  const out = listedItem(p);
  return Array.isArray(p.arguments)
    ? { ...out, arguments: p.arguments.map((a) => words(words(a, 'title'), 'description')) }
    : out;
}

export const listedResource = (r: Resource): Resource => listedItem(r);
export const listedTemplate = (t: ResourceTemplate): ResourceTemplate => listedItem(t);

/** A tool's display strings, its annotations' title and its schemas' annotations. */
export function listedTool(tool: Tool): Tool {
  const out = listedItem(tool);
  return {
    ...out,
    ...(tool.annotations ? { annotations: words(tool.annotations, 'title') } : {}),
    inputSchema: schemaWords(tool.inputSchema) as Tool['inputSchema'],
    ...(tool.outputSchema
      ? { outputSchema: schemaWords(tool.outputSchema) as Tool['outputSchema'] }
      : {}),
  };
}

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
 * serverWords, at schema positions only (a property *named* "title" is not one). Walked with a
 * stack, not recursion: a server's schema can be nested deeper than the call stack.
 */
export function schemaWords(schema: unknown): unknown {
  const root = { v: schema };
  const stack: Record<string, unknown>[] = [];
  const visit = (holder: Record<string, unknown>, key: string) => {
    const node = holder[key];
    if (!isRecord(node)) return;
    const copy: Record<string, unknown> = { ...node };
    for (const k of ['title', 'description'])
      if (typeof copy[k] === 'string') copy[k] = serverWords(copy[k]);
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
