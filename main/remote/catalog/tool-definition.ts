import type { Tool } from '@modelcontextprotocol/client';
import type { ToolDefinition } from '../../tools/types.js';
import { ownMeta } from '../../tools/untrusted.js';

/**
 * An upstream tool as a ToolDefinition: schemas untouched, annotations passed
 * on as hints. `trustedReadOnly` is never set — a remote server's
 * `readOnlyHint` only selects the default policy (auto vs ask).
 */
export function toDefinition(tool: Tool): ToolDefinition {
  const title = tool.title ?? tool.annotations?.title;
  const meta = ownMeta(tool._meta);
  return {
    name: tool.name,
    ...(title ? { title } : {}),
    description: tool.description ?? '',
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.icons ? { icons: tool.icons } : {}),
    ...(Object.keys(meta).length ? { _meta: meta } : {}),
    ...(tool.execution ? { execution: tool.execution } : {}),
    // Airlock does not relay task-augmented calls (MCP 2025-11-25, tasks): a tool that requires one
    // would be offered, approved, then fail, so it is listed for the user with the reason instead.
    ...(tool.execution?.taskSupport === 'required'
      ? {
          unavailable:
            'requires task-augmented calls (execution.taskSupport "required"), which Airlock does not relay yet',
        }
      : {}),
  };
}
