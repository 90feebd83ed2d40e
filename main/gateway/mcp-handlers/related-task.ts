import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';

/**
 * The one place Airlock ties a message to an agent's task (MCP 2025-11-25, basic/utilities/tasks,
 * "Associating Task-Related Messages"): "All requests, notifications, and responses related to a
 * task **MUST** include the `io.modelcontextprotocol/related-task` key in their `_meta` field,
 * with the value set to an object with a `taskId` matching the associated task ID."
 *
 * Used for what Airlock sends the agent while one of its tasks runs (relay.ts taskRelay: relayed
 * requests and log lines; agent-progress.ts taskProgress) and for tasks/result (tasks.ts). The
 * `_meta` it is given has already been through ownMeta (untrusted.ts), which drops every
 * MCP-reserved key — an upstream's related-task, naming the upstream's own task, among them — so
 * the key added here, last, is always Airlock's, naming Airlock's task. The SDK adds none itself
 * (its server exports the key and the schema only), so nothing is doubled.
 */
export function relatedTo<P extends { _meta?: Record<string, unknown> | undefined }>(
  params: P,
  taskId: string,
): P & { _meta: Record<string, unknown> } {
  return { ...params, _meta: { ...params._meta, [RELATED_TASK_META_KEY]: { taskId } } };
}
