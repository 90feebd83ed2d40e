import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type Task } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../../../test-support/harness.js';
import {
  startRemoteApp,
  toolsOffered,
  until,
  type RemoteTestApp,
} from '../../../test-support/remote-app.js';
import { asTask, taskAgent } from '../../../test-support/task-agent.js';
import { TaskUpstream } from '../../../test-support/task-upstream.js';
import { UNTRUSTED_META_KEY } from '../../tools/untrusted.js';

/**
 * Issue 28 item 5: task-augmented tools/call (MCP 2025-11-25, basic/utilities/tasks) relayed
 * between a real 1.x SDK agent (the SDK whose client speaks tasks) and a real 1.x SDK server
 * (McpServer's registerToolTask with its own task store), through Airlock: created, polled,
 * notified, fetched and cancelled, behind the same approval as any call, and bound to the agent.
 */
let up: TaskUpstream;
let t: RemoteTestApp;
let alice: Client;
let mallory: Client;
const statuses: Task[] = [];
const hearing: (() => void)[] = [];

const text = (r: object) =>
  (((r as { content?: unknown }).content ?? []) as { text?: string }[])
    .map((x) => x.text ?? '')
    .join('\n');
const heard = (match: (s: Task) => boolean) =>
  new Promise<void>((resolve) => {
    const test = () => (statuses.some(match) ? resolve() : hearing.push(test));
    test();
  });
const heardStatus = (taskId: string, status: Task['status']) =>
  heard((s) => s.taskId === taskId && s.status === status);

beforeAll(async () => {
  up = new TaskUpstream();
  await up.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'tasks', url: up.url });
  await toolsOffered(t.app, ['tasks__report', 'tasks__publish', 'tasks__plain']);
  alice = await taskAgent(t.started.mcpUrl, t.token, (s) => {
    statuses.push(s);
    for (const w of hearing.splice(0)) w();
  });
  mallory = await taskAgent(t.started.mcpUrl, (await t.app.control.addAgent('mallory')).token);
}, 120_000);

afterAll(async () => {
  await alice?.close();
  await mallory?.close();
  await t?.stop();
  await up?.stop();
});

describe('task-augmented calls through Airlock (2025-era agent and upstream)', () => {
  it('offers the tasks capability and a tool that requires a task', async () => {
    expect(alice.getServerCapabilities()?.tasks).toMatchObject({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await alice.listTools();
    expect(tools.find((x) => x.name === 'tasks__report')?.execution).toEqual({
      taskSupport: 'required',
    });
  });

  it('refuses a task for a tool without task support (-32601) and for an unknown tool', async () => {
    await expect(asTask(alice, 'tasks__plain', {})).rejects.toMatchObject({
      code: -32601,
      message: expect.stringMatching(/does not support task-augmented calls/),
    });
    await expect(asTask(alice, 'tasks__missing', {})).rejects.toThrow(/Unknown tool/);
    expect(text(await alice.callTool({ name: 'tasks__plain', arguments: {} }))).toContain(
      'plain answer',
    );
  });

  it('relays a task end to end: created, polled, status notified, result untrusted and logged', async () => {
    const created = await asTask(alice, 'tasks__report', { topic: 'otters' });
    const id = created.task.taskId;
    expect(created.task.status).toBe('working');
    await up.until(() => up.created.some((c) => c.tool === 'report'));
    const upstream = up.created.find((c) => c.tool === 'report')!;
    expect(upstream.args).toEqual({ topic: 'otters' });
    // Airlock's own id, not the upstream's.
    expect(id).not.toBe(upstream.taskId);
    expect((await alice.experimental.tasks.getTask(id)).status).toBe('working');
    // The server's own status message reaches the agent, under Airlock's id, quoted as the server's.
    await up.say(upstream.taskId, 'halfway through the otters');
    await heard(
      (s) =>
        s.taskId === id && /"tasks" says: halfway through the otters/.test(s.statusMessage ?? ''),
    );

    await up.finish(upstream.taskId, 'a report about otters');
    const result = await alice.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(text(result)).toContain('a report about otters');
    expect(result._meta?.[UNTRUSTED_META_KEY]).toMatchObject({ server: 'tasks' });
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId: id });
    await heardStatus(id, 'completed');
    expect((await alice.experimental.tasks.getTask(id)).status).toBe('completed');
    const rows = await t.app.control.listActivity({ tool: 'tasks__report' });
    expect(rows.some((r) => r.outcome === 'ok')).toBe(true);
  });

  it('asks the user first: a denied task never reaches the server, an approved one runs', async () => {
    const denied = await asTask(alice, 'tasks__publish', { title: 'secret plans' });
    const pending = await firstPending();
    expect(pending.tool).toBe('tasks__publish');
    expect(up.created.some((c) => c.tool === 'publish')).toBe(false);
    await t.app.control.decide(pending.id, { kind: 'deny' });
    const d = await alice.experimental.tasks.getTaskResult(
      denied.task.taskId,
      CallToolResultSchema,
    );
    expect(d.isError).toBe(true);
    expect(text(d)).toMatch(/denied/);
    expect(up.created.some((c) => c.tool === 'publish')).toBe(false);

    const approved = await asTask(alice, 'tasks__publish', { title: 'hello' });
    await t.app.control.decide((await firstPending()).id, { kind: 'allow_once' });
    const a = await alice.experimental.tasks.getTaskResult(
      approved.task.taskId,
      CallToolResultSchema,
    );
    expect(text(a)).toContain('published hello');
    expect(up.created.filter((c) => c.tool === 'publish').map((c) => c.args)).toEqual([
      { title: 'hello' },
    ]);
  });

  it('binds a task to its agent: another agent can neither get, fetch, cancel nor list it', async () => {
    const created = await asTask(alice, 'tasks__report', { topic: 'bound' });
    const id = created.task.taskId;
    await expect(mallory.experimental.tasks.getTask(id)).rejects.toThrow(/Task not found/);
    await expect(
      mallory.experimental.tasks.getTaskResult(id, CallToolResultSchema),
    ).rejects.toThrow(/Task not found/);
    await expect(mallory.experimental.tasks.cancelTask(id)).rejects.toThrow(/Task not found/);
    expect((await mallory.experimental.tasks.listTasks()).tasks).toEqual([]);
    expect((await alice.experimental.tasks.listTasks()).tasks.map((x) => x.taskId)).toContain(id);
    await alice.experimental.tasks.cancelTask(id);
  });

  it("the agent's tasks/cancel reaches the upstream task", async () => {
    const before = up.created.length;
    const created = await asTask(alice, 'tasks__report', { topic: 'cancel me' });
    await up.until(() => up.created.length > before);
    const upstream = up.created.at(-1)!;
    const cancelled = await alice.experimental.tasks.cancelTask(created.task.taskId);
    expect(cancelled.status).toBe('cancelled');
    await up.until(() =>
      up.store.statuses.some((s) => s.taskId === upstream.taskId && s.status === 'cancelled'),
    );
    await heardStatus(created.task.taskId, 'cancelled');
  });

  it('a 2026-07-28 agent calls the task-only tool plainly; Airlock runs it as a task upstream', async () => {
    const modern = await connectClient(t.started.mcpUrl, t.token, 'auto');
    try {
      expect(modern.getProtocolEra()).toBe('modern');
      const before = up.created.length;
      const call = modern.callTool({ name: 'tasks__report', arguments: { topic: 'eras' } });
      await up.until(() => up.created.length > before);
      const upstreamTask = up.created.at(-1)!.taskId;
      await up.finish(upstreamTask, 'a report across eras');
      const r = await call;
      expect(text(r)).toContain('a report across eras');
      // The server's tasks/result names its own task (related-task, "Related Task Metadata"):
      // not a task of Airlock's, and this call is none; the agent never sees that id.
      expect(r._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
      expect(JSON.stringify(r)).not.toContain(upstreamTask);
    } finally {
      await modern.close();
    }
  });

  it('a task cancelled before the server has answered its creation is cancelled there once it has', async () => {
    const release = up.holdCreation();
    const created = await asTask(alice, 'tasks__report', { topic: 'too late' });
    await up.until(() => up.held.length > 0);
    const upstreamId = up.held.at(-1)!;
    await alice.experimental.tasks.cancelTask(created.task.taskId);
    release();
    await up.until(() =>
      up.store.statuses.some((s) => s.taskId === upstreamId && s.status === 'cancelled'),
    );
  });

  it('an upstream restart fails its running task with a clear error, and never runs it twice', async () => {
    const before = up.created.length;
    const created = await asTask(alice, 'tasks__report', { topic: 'restart' });
    await up.until(() => up.created.length > before);
    await up.restart();
    const r = await alice.experimental.tasks.getTaskResult(
      created.task.taskId,
      CallToolResultSchema,
    );
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/"tasks".*may or may not have completed the call/s);
    // Sent once: the call is not made again on the new session.
    expect(
      up.created.filter((c) => (c.args as { topic?: string }).topic === 'restart'),
    ).toHaveLength(1);
  });
});

/** The first approval request waiting, once there is one (re-checked on every core event). */
async function firstPending(): Promise<{ id: string; tool: string }> {
  let found: { id: string; tool: string } | undefined;
  await until(t.app, async () => {
    found = (await t.app.control.listPending())[0];
    return found !== undefined;
  });
  return found!;
}
