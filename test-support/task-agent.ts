import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateTaskResultSchema,
  TaskStatusNotificationSchema,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * An agent of Airlock at `mcpUrl` on the 1.x SDK (the SDK whose client speaks MCP 2025-11-25
 * tasks); `onStatus` hears the notifications/tasks/status relayed to it.
 */
export async function taskAgent(
  mcpUrl: string,
  token: string,
  onStatus?: (t: Task) => void,
): Promise<Client> {
  const c = new Client({ name: 'task-agent', version: '1.0.0' });
  if (onStatus) c.setNotificationHandler(TaskStatusNotificationSchema, (n) => onStatus(n.params));
  await c.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return c;
}

/** tools/call augmented with a task (basic/utilities/tasks): answered with the created task. */
export const asTask = (c: Client, name: string, args: Record<string, unknown>) =>
  c.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
