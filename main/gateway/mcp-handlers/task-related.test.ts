import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import { noticeMeta } from '../../tools/untrusted.js';
import type { CallOptions } from '../../tools/types.js';
import type { AgentToolCalls } from '../endpoint-options.js';
import { TaskBoard } from '../task-board.js';
import type { AgentFeatures } from './api.js';
import { taskRelay } from './relay.js';
import { registerTaskHandlers, TaskServer, TASKS_CAPABILITY } from './tasks.js';
import { registerToolHandlers } from './tools.js';

/**
 * MCP 2025-11-25, basic/utilities/tasks, "Associating Task-Related Messages": what Airlock sends
 * the agent on behalf of one of its tasks — a relayed log line, progress, and the upstream's
 * elicitation/create, sampling/createMessage and roots/list — carries
 * `io.modelcontextprotocol/related-task` with Airlock's task id, never the upstream's (which
 * ownMeta drops before: each message below arrives with one naming "up-task"). Seen by a real
 * 1.x SDK agent (the SDK whose client speaks tasks) on Airlock's own task server and relay
 * (relay.ts taskRelay, tasks.ts), every message Airlock sent recorded as it left.
 */

const UPSTREAM = { [RELATED_TASK_META_KEY]: { taskId: 'up-task' }, 'example.com/k': 1 };
const features = { recordRelay: vi.fn() } as unknown as AgentFeatures;
const board = new TaskBoard();
afterEach(() => board.close());

/** The call's upstream, as a source sees it: it logs, reports progress and asks the agent. */
async function upstreamWork(opts: CallOptions) {
  opts.progress?.(1, 2, 'half way', noticeMeta(UPSTREAM));
  await opts.relay!.log!({ level: 'info', data: 'a line', _meta: noticeMeta(UPSTREAM) });
  const asked = { server: 'svc', signal: opts.signal };
  await opts.relay!.request({
    ...asked,
    method: 'elicitation/create',
    params: {
      message: 'Name?',
      requestedSchema: { type: 'object', properties: {} },
      _meta: UPSTREAM,
    },
  });
  await opts.relay!.request({
    ...asked,
    method: 'sampling/createMessage',
    params: {
      messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
      maxTokens: 5,
      _meta: UPSTREAM,
    },
  });
  await opts.relay!.request({ ...asked, method: 'roots/list', params: { _meta: UPSTREAM } });
  return { content: [{ type: 'text' as const, text: 'done' }] };
}

async function connected() {
  const server = new TaskServer(
    { name: 'airlock', version: '1' },
    { capabilities: { tools: {}, logging: {}, tasks: TASKS_CAPABILITY } },
  );
  const pipeline = {
    listTools: async () => [],
    taskSupport: async () => 'optional' as const,
    call: (_a: string, _n: string, _args: unknown, opts: CallOptions) => upstreamWork(opts),
  } satisfies AgentToolCalls;
  const start = registerTaskHandlers(server, 'a', board, pipeline, (session, taskId, run) =>
    run(taskRelay('a', server, features, taskId, session)),
  );
  registerToolHandlers(
    server,
    'a',
    pipeline,
    (_ctx, run) => run(undefined as never, new AbortController().signal),
    start,
  );
  const client = new Client(
    { name: 'agent', version: '1' },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} } },
  );
  const heard: string[] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void heard.push(String(n.params.data)),
  );
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: 'assistant',
    content: { type: 'text', text: 'ok' },
    model: 'm',
  }));
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  // A 2025 session's transport has its id (legacy-sessions.ts); the task's relay goes on it.
  (b as { sessionId?: string }).sessionId = 's-1';
  // Every message Airlock sends the agent, as it leaves.
  const sent: {
    method?: string;
    params?: { _meta?: Record<string, unknown> };
    result?: unknown;
  }[] = [];
  const send = b.send.bind(b);
  b.send = (m, o) => (sent.push(structuredClone(m) as (typeof sent)[number]), send(m, o));
  await Promise.all([server.connect(b as never), client.connect(a)]);
  return { client, sent, heard };
}

async function runTask() {
  const { client, sent, heard } = await connected();
  const progress: unknown[] = [];
  const { task } = await client.request(
    { method: 'tools/call', params: { name: 'svc__t', arguments: {}, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
    { onprogress: (p) => void progress.push(p) },
  );
  const result = await client.request(
    { method: 'tasks/result', params: { taskId: task.taskId } },
    CallToolResultSchema,
  );
  await client.close();
  return { taskId: task.taskId, sent, heard, progress, result };
}

const RELATED = [
  'notifications/progress',
  'notifications/message',
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
];

describe("messages sent on a task's behalf carry Airlock's related-task", () => {
  it('each kind: progress, a log line, elicitation, sampling, roots — with Airlock’s id, never the upstream’s', async () => {
    const { taskId, sent, heard, progress, result } = await runTask();
    expect(sent.map((m) => m.method).filter((m) => RELATED.includes(m ?? ''))).toEqual(RELATED);
    for (const m of sent.filter((x) => RELATED.includes(x.method ?? ''))) {
      expect(m.params?._meta?.[RELATED_TASK_META_KEY], m.method).toEqual({ taskId });
      // The server's own keys pass as they came, beside it.
      expect(m.params?._meta?.['example.com/k'], m.method).toBe(1);
    }
    expect(JSON.stringify(sent)).not.toContain('up-task');
    // The agent's SDK took them: the line, the progress, and the answer at the end.
    expect(heard).toEqual(['a line']);
    expect(progress).toMatchObject([
      { progress: 1, total: 2, _meta: { [RELATED_TASK_META_KEY]: { taskId } } },
    ]);
    expect(result._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId });
  });

  it('notifications/tasks/status does not (the spec: SHOULD NOT, the id is in its params)', async () => {
    const { sent } = await runTask();
    const statuses = sent.filter((m) => m.method === 'notifications/tasks/status');
    expect(statuses.length).toBeGreaterThan(0);
    for (const s of statuses) expect(s.params?._meta?.[RELATED_TASK_META_KEY]).toBeUndefined();
  });
});
