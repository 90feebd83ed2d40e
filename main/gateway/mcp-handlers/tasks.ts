import {
  fromJsonSchema,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolRequestParams,
  type JSONRPCRequest,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { waitingApprovalId } from '../../approvals/messages.js';
import type { ClientRelay } from '../../tools/relay.js';
import type { CallOptions, CallToolResult, ProgressSink } from '../../tools/types.js';
import type { AgentToolCalls } from '../mcp-endpoint.js';
import { PlainCallServer } from './call-server.js';
import { taskProgress } from './agent-progress.js';
import { relatedTo } from './related-task.js';
import { TaskNotFound, TaskTerminal, type TaskBoard, type TaskView } from '../task-board.js';

/**
 * Task-augmented tools/call for 2025-era agents (MCP 2025-11-25, basic/utilities/tasks; issue 28
 * item 5). Airlock answers a CreateTaskResult at once and runs the call — policy, taint check,
 * grant or approval, then the source — under that task; the source calls the upstream
 * task-augmented where the tool declares it (main/remote/tasks/upstream-task.ts). The result is
 * the pipeline's own: marked untrusted, indexed for provenance, logged in Activity when it ends.
 * The 2026-07-28 era has no tasks in its core (they moved to the SEP-2663 extension, which the
 * installed SDK does not serve), so only 2025 sessions advertise and take them.
 */

/** What Airlock advertises on 2025 sessions: exactly what it relays (spec, "Capabilities"). */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * The SDK's Server checks every tools/call result against CallToolResult, which refuses
 * CreateTaskResult (its 2025 task family is kept types-only). A task-augmented call, which
 * Airlock answers itself with a CreateTaskResult, skips the SDK's checks; every other call goes
 * as on a PlainCallServer (call-server.ts: the checks that surely pass are left out, issue 34).
 * Only 2025-era session servers are TaskServers (mcp-endpoint.ts).
 */
export class TaskServer extends PlainCallServer {
  protected override ownsCall(request: JSONRPCRequest): boolean {
    return Boolean((request.params as { task?: unknown } | undefined)?.task);
  }
}

/** Answers a task-augmented tools/call; null when the call is not task-augmented. */
export type StartTask = (
  params: CallToolRequestParams,
  ctx: ServerContext,
) => Promise<{ task: TaskView }> | null;

/**
 * Runs a task's call with a relay to the agent for what its upstream asks and logs meanwhile
 * (relay.ts taskRelay, on the agent's session `session`), kept findable while it runs.
 */
export type WithTaskRelay = <T>(
  session: string,
  taskId: string,
  run: (relay: ClientRelay) => Promise<T>,
) => Promise<T>;

export function registerTaskHandlers(
  server: Server,
  agent: string,
  board: TaskBoard,
  pipeline: AgentToolCalls,
  withTaskRelay?: WithTaskRelay,
): StartTask {
  const guard = <T>(run: () => T): T => {
    try {
      return run();
    } catch (err) {
      throw asProtocolError(err);
    }
  };
  const view = (t: TaskView): Record<string, unknown> & TaskView => ({ ...t });
  server.setRequestHandler('tasks/get', byId, (p) => guard(() => view(board.get(agent, p.taskId))));
  server.setRequestHandler('tasks/list', ANY_PARAMS, () => ({
    tasks: board.list(agent).map(view),
  }));
  server.setRequestHandler('tasks/cancel', byId, (p) =>
    guard(() => view(board.cancel(agent, p.taskId))),
  );
  server.setRequestHandler('tasks/result', byId, async (p) => {
    const taskId = p.taskId;
    try {
      const result = await board.result(agent, taskId);
      // tasks/result carries the related-task metadata (spec, "Related Task Metadata").
      return relatedTo(result, taskId);
    } catch (err) {
      throw asProtocolError(err);
    }
  });

  const notify = (task: TaskView) =>
    void server
      .notification({ method: 'notifications/tasks/status', params: view(task) })
      .catch(() => {});

  return (params, ctx) => {
    const task = (params as { task?: { ttl?: number } }).task;
    if (!task) return null;
    // Only these two outlive the request: the task's call holds no more of its context.
    const session = ctx.sessionId;
    const token = params._meta?.progressToken;
    return (async () => {
      const support = await pipeline.taskSupport?.(agent, params.name);
      // The same answer as a plain call for unknown and disabled tools (call-pipeline.ts).
      if (!support)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      if (support === 'forbidden')
        // Spec, tools "Tool-Level Negotiation": a tool without task support answers -32601.
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `${params.name} does not support task-augmented calls; call it without "task".`,
        );
      const view = board.create(agent, task.ttl, notify, (signal, status, taskId) => {
        // What Airlock sends the agent for this task carries Airlock's task id (related-task.ts).
        const channels: Channels = {
          ...(token !== undefined ? { progress: taskProgress(server, token, taskId) } : {}),
        };
        const go = (relay?: ClientRelay) =>
          untilDecided(
            pipeline,
            agent,
            params,
            signal,
            status,
            relay ? { ...channels, relay } : channels,
          );
        return withTaskRelay && session !== undefined ? withTaskRelay(session, taskId, go) : go();
      });
      return { task: view };
    })();
  };
}

/**
 * The call run to its end: where it waits for the user's approval, the pipeline answers "waiting"
 * after a while (for agents holding a request open); a task has no request to hold, so the same
 * call is made again, which re-attaches to the same approval request, until it is decided.
 */
type Channels = { progress?: ProgressSink; relay?: ClientRelay };

async function untilDecided(
  pipeline: AgentToolCalls,
  agent: string,
  params: CallToolRequestParams,
  signal: AbortSignal,
  status: (message: string) => void,
  channels: Channels,
): Promise<CallToolResult> {
  let pending: string | null = null;
  for (;;) {
    const opts: CallOptions = {
      signal,
      taskStatus: status,
      // tasks/cancel is final: the approval card goes with it, so approving it runs nothing.
      withdrawOnCancel: true,
    };
    // Asked again after "waiting": let in once, it is not refused by the in-flight cap now.
    if (pending !== null) opts.admitted = true;
    if (channels.progress) opts.progress = channels.progress;
    if (channels.relay) opts.relay = channels.relay;
    const result = await pipeline.call(agent, params.name, params.arguments, opts);
    const waiting = waitingApprovalId(result);
    // A different request id means the first one ended undecided (expired): that answer stands.
    if (!waiting || signal.aborted || (pending !== null && waiting !== pending)) return result;
    pending = waiting;
    status(`Waiting for the user's approval in Airlock (request ${waiting}).`);
  }
}

const TASK_ID = {
  type: 'object',
  properties: { taskId: { type: 'string' } },
  required: ['taskId'],
} as const;
// tasks/* are 2025-era spec methods the SDK keeps types-only (no typed handler), hence schemas:
// built once, not per session (fromJsonSchema compiles its validator when called).
const byId = { params: fromJsonSchema<{ taskId: string }>(TASK_ID) };
const ANY_PARAMS = { params: fromJsonSchema({ type: 'object' }) };

function asProtocolError(err: unknown): unknown {
  if (err instanceof TaskNotFound || err instanceof TaskTerminal)
    return new ProtocolError(ProtocolErrorCode.InvalidParams, err.message);
  return err;
}
