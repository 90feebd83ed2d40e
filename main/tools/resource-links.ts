import { publicUri } from './feature-catalog.js';
import type { GetPromptResult } from './features.js';
import type { CallToolResult, ToolSource } from './types.js';

/**
 * A resource a tool or prompt result names (a `resource_link`, or an embedded `resource`) is one
 * of its server's resources (MCP 2025-11-25 server/tools "Resource Links": links a tool returns
 * need not appear in resources/list, and are read from that server). Airlock serves resources as
 * `airlock://<server>/<uri>` (feature-catalog.ts), so the result names them that way too: the
 * original URI read through Airlock is refused when no listing or template tells its server, or
 * two servers have it — a link to a file a tool just made, or server-everything's
 * `demo://resource/dynamic/…` offered by two servers.
 */
export function withPublicLinks(result: CallToolResult, source: ToolSource): CallToolResult {
  if (!source.readResource || !result.content) return result;
  // namesResource's test in a loop, not `some` with a callback per block: every result of a
  // source that has resources comes here (issue 34).
  const content = result.content;
  let i = 0;
  while (
    i < content.length &&
    content[i]!.type !== 'resource_link' &&
    content[i]!.type !== 'resource'
  )
    i++;
  if (i === content.length) return result;
  return { ...result, content: result.content.map((b) => publicBlock(b, source)) };
}

/** The same for a prompt's messages. */
export function promptWithPublicLinks(p: GetPromptResult, source: ToolSource): GetPromptResult {
  if (!source.readResource || !p.messages.some((m) => namesResource(m.content))) return p;
  return {
    ...p,
    messages: p.messages.map((m) => ({ ...m, content: publicBlock(m.content, source) })),
  };
}

type Block = CallToolResult['content'][number];

function namesResource(b: Block): boolean {
  return b.type === 'resource_link' || b.type === 'resource';
}

/**
 * Only a block with a string URI is rewritten. The upstream leg checks a result's structure only
 * (remote/upstream/upstream-client.ts callToolResultProblem); a remote tool result is then checked
 * against the MCP schema (remote/upstream/spec-result.ts) and Airlock's server checks it again,
 * and each must still refuse a link without a URI, not see `airlock://<server>/undefined`.
 */
function publicBlock<B extends Block>(b: B, source: ToolSource): B {
  if (b.type === 'resource_link' && typeof b.uri === 'string')
    return { ...b, uri: publicUri(source, b.uri) };
  const embedded =
    b.type === 'resource' ? (b.resource as { uri?: unknown } | undefined) : undefined;
  if (b.type === 'resource' && typeof embedded?.uri === 'string')
    return { ...b, resource: { ...b.resource, uri: publicUri(source, embedded.uri) } };
  return b;
}
