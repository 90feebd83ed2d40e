import type { Tool } from '@modelcontextprotocol/client';
import type { Prompt, Resource, ResourceTemplate } from '../../tools/features.js';
import { serverWords } from '../../tools/relay-label.js';
import { schemaWords } from '../../tools/schema-words.js';
import { ownMeta } from '../../tools/untrusted.js';

/**
 * What a remote server lists — tools, prompts, resources, resource templates — as Airlock passes
 * it on: every string the agent's app shows or its model reads as the item's name for people goes
 * through `serverWords` (a start that reads as Airlock is quoted as the server's), and every
 * `_meta` through `ownMeta` (no key in Airlock's namespaces), as a result's and a relayed
 * request's do (docs/security.md R-1). The one place lists are taken in: listFeatures
 * (remote-features.ts, both protocol eras) and toDefinition (tool-definition.ts) call these,
 * nothing else shapes them.
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

/**
 * A prompt as got (prompts/get): its `description` is the prompt's, shown as the listed one is
 * (GetPromptResult, MCP server/prompts), so it is read the same way. The messages are the
 * prompt's content, passed on as the server wrote them, as a tool result's content is.
 */
export function gotPrompt<T extends { description?: string }>(r: T): T {
  return words(r, 'description');
}

export const listedResource = (r: Resource): Resource => listedItem(r);
export const listedTemplate = (t: ResourceTemplate): ResourceTemplate => listedItem(t);

/** A tool's display strings, its annotations' title and its schemas' annotations. */
export function listedTool(tool: Tool): Tool {
  const out = listedItem(tool);
  return {
    ...out,
    ...(tool.annotations ? { annotations: words(tool.annotations, 'title') } : {}),
    inputSchema: schemaWords(tool.inputSchema, serverWords) as Tool['inputSchema'],
    ...(tool.outputSchema
      ? { outputSchema: schemaWords(tool.outputSchema, serverWords) as Tool['outputSchema'] }
      : {}),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
