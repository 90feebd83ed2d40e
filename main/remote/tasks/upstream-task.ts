import { specTypeSchemas, type Client, type RequestOptions } from '@modelcontextprotocol/client';
import type { ToolDefinition } from '../../tools/types.js';
import { serverWords } from '../../tools/relay-label.js';
import { isStaleSession, type Upstream } from '../upstream/upstream.js';

/**
 * A tool call made task-augmented upstream (MCP 2025-11-25, basic/utilities/tasks): `tools/call`
 * with `task` answers a CreateTaskResult at once; the result is then fetched with `tasks/result`,
 * which blocks until the task is terminal. The agent's cancellation becomes `tasks/cancel`.
 *
 * Used when the server advertises `tasks.requests.tools.call` and the tool declares
 * `execution.taskSupport` "optional" or "required" (tools, "Tool-Level Negotiation"): a "required"
 * tool cannot be called any other way, and an "optional" one no longer hangs on one long request.
 * The 2026-07-28 era moved tasks to an extension (SEP-2663, io.modelcontextprotocol/tasks) that the
 * installed SDK does not serve, so a modern upstream is always called plainly.
 */

type CallParams = {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};
type CallOptions = RequestOptions & { maxTotalTimeout?: number };

/** After the task exists upstream: the call must not be sent again (it would run twice). */
export class UpstreamTaskLost extends Error {
  override name = 'UpstreamTaskLost';
}

/** How long Airlock asks an upstream to keep a task's result (the spec's `task.ttl`, ms). */
export const TASK_TTL_MS = 60 * 60_000;

/** Per upstream client, who waits for which task's notifications/tasks/status. */
const watchers = new WeakMap<Client, Map<string, (message: string) => void>>();

/** A status message the server sends for its task (spec: receivers MAY notify), to `on`. */
function watch(client: Client, taskId: string, on: (message: string) => void): () => void {
  let map = watchers.get(client);
  if (!map) {
    const mine = (map = new Map());
    watchers.set(client, mine);
    client.setNotificationHandler(
      'notifications/tasks/status',
      { params: specTypeSchemas.TaskStatusNotificationParams },
      (p) => {
        if (p.statusMessage && (p.status === 'working' || p.status === 'input_required'))
          mine.get(p.taskId)?.(p.statusMessage);
      },
    );
  }
  map.set(taskId, on);
  return () => map.delete(taskId);
}

/**
 * A server's status message as the agent's task statusMessage: one line (line breaks, control and
 * invisible characters cannot push the quoting out of sight), a start that reads as Airlock marked
 * as the server's (relay-label.ts), cut at whole characters. `message` must already be redacted:
 * a cut made first could leave most of a secret that redaction no longer recognises.
 */
export function quoteStatus(label: string, message: string): string {
  const line = message
    .replace(/[\p{Cf}]+/gu, '')
    .replace(/[\s\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .trim();
  const words = Array.from(serverWords(line)).slice(0, 500).join('');
  return `The remote server "${label}" says: ${words}`;
}

/** Whether this call goes to the upstream as a task. */
export function callsAsTask(up: Upstream, defs: readonly ToolDefinition[], tool: string): boolean {
  if (up.client.getProtocolEra() === 'modern') return false;
  const caps = up.client.getServerCapabilities() as
    { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined;
  if (!caps?.tasks?.requests?.tools?.call) return false;
  const support = defs.find((d) => d.name === tool)?.execution?.taskSupport;
  return support === 'optional' || support === 'required';
}

/**
 * The call as a task. Resolves with the task's CallToolResult; throws the SDK's own error before
 * the task exists (so the caller's usual handling applies: nothing ran), and UpstreamTaskLost
 * when the server forgot its session after.
 */
export async function callAsTask(
  client: Client,
  params: CallParams,
  options: CallOptions,
  label: string,
  onStatus?: (message: string) => void,
): Promise<unknown> {
  const signal = options.signal;
  const cancelTask = (taskId: string) =>
    void client
      .request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult)
      .catch(() => {});
  // The creating request is not abandoned on cancellation: the server may make the task anyway,
  // and only its id lets Airlock cancel it, which it does as soon as the id arrives.
  const creating = client.request(
    { method: 'tools/call', params: { ...params, task: { ttl: TASK_TTL_MS } } },
    specTypeSchemas.CreateTaskResult,
    options.timeout ? { timeout: options.timeout } : {},
  );
  const created = await untilAborted(creating, signal, (late) => cancelTask(late.task.taskId));
  const taskId = created.task.taskId;
  const cancel = () => cancelTask(taskId);
  if (signal?.aborted) cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  // The server's own words, as it sent them: the caller redacts, then quotes (quoteStatus).
  const unwatch = onStatus ? watch(client, taskId, onStatus) : () => {};
  try {
    // tasks/result blocks until the task is terminal: bounded by the task's own ttl (a long run is
    // what tasks are for), not by the plain call's bound; the agent can cancel at any time.
    return await client.request(
      { method: 'tasks/result', params: { taskId } },
      specTypeSchemas.CallToolResult,
      {
        ...(signal ? { signal } : {}),
        timeout: Math.max(TASK_TTL_MS, options.maxTotalTimeout ?? 0),
      },
    );
  } catch (err) {
    // A refused session (404/400) means the server restarted and forgot the task: sending the call
    // again on a new session would run it twice. Every other failure keeps the caller's wording.
    if (signal?.aborted || !isStaleSession(err, true)) throw err;
    throw new UpstreamTaskLost(
      `The remote server "${label}" lost its task for this call (${err instanceof Error ? err.message : String(err)}); ` +
        'if it restarted, the task is gone. It may or may not have completed the call; check before trying again.',
    );
  } finally {
    unwatch();
    signal?.removeEventListener('abort', cancel);
  }
}

/** `p`, or the signal's reason once it aborts; what `p` brings after that goes to `late`. */
function untilAborted<T>(
  p: Promise<T>,
  signal: AbortSignal | undefined,
  late: (value: T) => void,
): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      p.then(late, () => {});
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (err: unknown) => (signal.removeEventListener('abort', onAbort), reject(err)),
    );
  });
}
