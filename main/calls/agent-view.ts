import type { Tool } from '@modelcontextprotocol/server';
import type { ToolEntry } from '../tools/registry.js';
import type { CallToolResult } from '../tools/types.js';
import { PROVENANCE_META_KEY } from '../provenance/provenance-service.js';

/** A source's description of its result is for Airlock, not the agent (it repeats the text). */
export function withoutProvenance(result: CallToolResult): CallToolResult {
  const meta = result._meta as Record<string, unknown> | undefined;
  if (!meta || !(PROVENANCE_META_KEY in meta)) return result;
  const { [PROVENANCE_META_KEY]: _described, ...rest } = meta;
  const { _meta: _old, ...plain } = result;
  return Object.keys(rest).length ? { ...plain, _meta: rest } : plain;
}

export function toMcpTool(entry: ToolEntry): Tool {
  const def = entry.def;
  return {
    name: entry.name,
    ...(def.title ? { title: def.title } : {}),
    description: def.description,
    inputSchema: def.inputSchema as Tool['inputSchema'],
    ...(def.outputSchema ? { outputSchema: def.outputSchema as Tool['outputSchema'] } : {}),
    ...(def.annotations ? { annotations: def.annotations } : {}),
    ...(def.icons ? { icons: def.icons } : {}),
    ...(def._meta ? { _meta: def._meta } : {}),
    ...(def.execution ? { execution: def.execution } : {}),
  };
}
