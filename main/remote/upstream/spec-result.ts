import { specTypeSchemas } from '@modelcontextprotocol/client';

/**
 * What the MCP schema refuses in a server's tools/call result, in words an agent can act on, or
 * null. The upstream leg checks structure only (upstream-client.ts callToolResultProblem, for
 * speed); a content block the schema refuses — an EmbeddedResource without its `resource`
 * (MCP 2025-11-25 schema: `resource: TextResourceContents | BlobResourceContents`, required), an
 * image without `data` — would otherwise reach Airlock's result shaping and then its server's
 * own check, and fail the whole call as a JSON-RPC error with the schema library's dump. The
 * decision is the SDK's own spec schemas' (specTypeSchemas); only the wording is ours.
 */
export function toolResultProblem(result: unknown): string | null {
  // The everyday result (plain text blocks only, no structuredContent): nothing for the schema to
  // refuse. A text block with `annotations` or `_meta` is not plain: the schema checks those too
  // (a `priority` that is not a number, a `_meta` that is not an object), so it takes the full
  // check. Asked here, not in a helper, and by a loop, not `every` with a callback: two functions
  // fewer on every call's path (issue 34, docs/performance.md "The code one call runs, counted").
  // A hole in a sparse array reads as undefined here where `every` skips it: the full check then
  // decides, as for any other block.
  everyday: if (typeof result === 'object' && result !== null) {
    const r = result as { content?: unknown; structuredContent?: unknown };
    const blocks = r.content;
    if (r.structuredContent !== undefined || !Array.isArray(blocks)) break everyday;
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i] as
        | { type?: unknown; text?: unknown; annotations?: unknown; _meta?: unknown }
        | null
        | undefined;
      if (
        typeof b !== 'object' ||
        b === null ||
        b.type !== 'text' ||
        typeof b.text !== 'string' ||
        b.annotations !== undefined ||
        b._meta !== undefined
      )
        break everyday;
    }
    return null;
  }
  const content = (result as { content?: unknown }).content;
  if (Array.isArray(content))
    for (const [i, block] of content.entries())
      if (specTypeSchemas.ContentBlock['~standard'].validate(block).issues)
        return `content[${i}] ${blockProblem(block)}`;
  const issues = specTypeSchemas.CallToolResult['~standard'].validate(result).issues;
  if (!issues?.length) return null;
  const first = issues[0]!;
  const at = (first.path ?? [])
    .map((p) => (typeof p === 'object' ? String(p.key) : String(p)))
    .join('.');
  return `${at ? `"${at}"` : 'the result'} is not what the MCP schema allows (${first.message})`;
}

/** What the schema wants of a block of this type (MCP schema, ContentBlock). */
function blockProblem(block: unknown): string {
  const type = (block as { type?: unknown }).type;
  switch (type) {
    case 'text':
      return typeof (block as { text?: unknown }).text === 'string'
        ? 'is a "text" block whose "annotations" or "_meta" the MCP schema refuses'
        : 'is a "text" block without a string "text"';
    case 'image':
    case 'audio':
      return `is an "${type}" block without a base64 "data" and a "mimeType"`;
    case 'resource_link':
      return 'is a "resource_link" without a string "uri" and "name"';
    case 'resource':
      return 'is an embedded "resource" block without a "resource" object holding a string "uri" and a "text" or "blob"';
    default:
      return `has a content type the MCP schema does not know (${JSON.stringify(type).slice(0, 40)}); it allows text, image, audio, resource_link and resource`;
  }
}
