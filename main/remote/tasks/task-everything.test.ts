import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  RELATED_TASK_META_KEY,
  TaskStatusNotificationSchema,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startRemoteApp,
  toolsOffered,
  until,
  type RemoteTestApp,
} from '../../../test-support/remote-app.js';
import { EverythingServer } from '../../../test-support/server-everything.js';
import type { LazyMcpEndpoint } from '../../gateway/lazy-mcp.js';

/**
 * Issue 28 item 5 against a server we did not write: server-everything's `simulate-research-query`
 * (execution.taskSupport "required", the 1.x SDK's registerToolTask), called as a task by a 1.x
 * SDK agent through Airlock, after the user's approval (the tool is not read-only).
 */
let es: EverythingServer;
let t: RemoteTestApp;
let agent: Client;
const statuses: Task[] = [];
const heard: (() => void)[] = [];
const completed = (taskId: string) =>
  new Promise<void>((resolve) => {
    const test = () =>
      statuses.some((s) => s.taskId === taskId && s.status === 'completed')
        ? resolve()
        : heard.push(test);
    test();
  });

beforeAll(async () => {
  es = await EverythingServer.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'everything', url: es.url });
  await toolsOffered(t.app, ['everything__simulate-research-query']);
  agent = new Client({ name: 'task-agent', version: '1.0.0' });
  agent.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
    statuses.push(n.params);
    for (const w of heard.splice(0)) w();
  });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
}, 120_000);

afterAll(async () => {
  await agent?.close();
  await t?.stop();
  await es?.kill();
});

describe("server-everything's task tool through Airlock", () => {
  it('is offered, asks, then runs as a task upstream and answers through the agent task', async () => {
    const { tools } = await agent.listTools();
    expect(tools.find((x) => x.name === 'everything__simulate-research-query')?.execution).toEqual({
      taskSupport: 'required',
    });
    const created = await agent.request(
      {
        method: 'tools/call',
        params: {
          name: 'everything__simulate-research-query',
          arguments: { topic: 'sea otters' },
          task: { ttl: 60_000 },
        },
      },
      CreateTaskResultSchema,
    );
    const id = created.task.taskId;
    let pending: { id: string; tool: string } | undefined;
    await until(t.app, async () => {
      pending = (await t.app.control.listPending())[0];
      return pending !== undefined;
    });
    expect(pending!.tool).toBe('everything__simulate-research-query');
    await t.app.control.decide(pending!.id, { kind: 'allow_once' });
    const result = await agent.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    const text = (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
    expect(text).toContain('Research Report: sea otters');
    // Airlock's own status notification for its task, on the agent's session stream.
    await completed(id);
  });

  it("an upstream task's elicitation reaches the agent tied to Airlock's task, not the server's", async () => {
    // MCP 2025-11-25 basic/utilities/tasks: an elicitation a task-augmented call depends on MUST
    // carry the related task's id; the agent knows Airlock's task only (related-task.ts).
    const asked: Record<string, unknown>[] = [];
    const eliciting = new Client(
      { name: 'eliciting-agent', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    eliciting.setRequestHandler(ElicitRequestSchema, (r) => {
      asked.push({ ...r.params._meta });
      return { action: 'decline' };
    });
    await eliciting.connect(
      new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
      }),
    );
    try {
      const created = await eliciting.request(
        {
          method: 'tools/call',
          params: {
            name: 'everything__simulate-research-query',
            arguments: { topic: 'otters', ambiguous: true },
            task: { ttl: 60_000 },
          },
        },
        CreateTaskResultSchema,
      );
      const id = created.task.taskId;
      let pending: { id: string } | undefined;
      await until(t.app, async () => {
        pending = (await t.app.control.listPending())[0];
        return pending !== undefined;
      });
      await t.app.control.decide(pending!.id, { kind: 'allow_once' });
      const result = await eliciting.experimental.tasks.getTaskResult(id, CallToolResultSchema);
      const text = (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
      expect(text).toContain('User declined');
      expect(asked).toHaveLength(1);
      expect(asked[0]![RELATED_TASK_META_KEY]).toEqual({ taskId: id });
    } finally {
      await eliciting.close();
    }
  });

  it("approved while another task waits, a task's elicitation still goes tied to its own task", async () => {
    // The approved call runs with the relay of the call waiting on it (approvals/engine.ts), not
    // with the agent's most recently opened one (here the second task's).
    const asked: Record<string, unknown>[] = [];
    const eliciting = new Client(
      { name: 'eliciting-agent', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    eliciting.setRequestHandler(ElicitRequestSchema, (r) => {
      asked.push({ ...r.params._meta });
      return { action: 'decline' };
    });
    await eliciting.connect(
      new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
      }),
    );
    const start = (topic: string, ambiguous: boolean) =>
      eliciting.request(
        {
          method: 'tools/call',
          params: {
            name: 'everything__simulate-research-query',
            arguments: { topic, ambiguous },
            task: { ttl: 60_000 },
          },
        },
        CreateTaskResultSchema,
      );
    const pendingFor = async (topic: string) => {
      let id: string | undefined;
      await until(t.app, async () => {
        id = (await t.app.control.listPending()).find((p) => p.arguments.topic === topic)?.id;
        return id !== undefined;
      });
      return id!;
    };
    try {
      const first = (await start('beavers', true)).task.taskId;
      const firstCard = await pendingFor('beavers');
      const second = (await start('minks', false)).task.taskId;
      const secondCard = await pendingFor('minks');
      await t.app.control.decide(firstCard, { kind: 'allow_once' });
      const result = await eliciting.experimental.tasks.getTaskResult(first, CallToolResultSchema);
      const text = (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
      expect(text).toContain('User declined');
      expect(asked.map((m) => m[RELATED_TASK_META_KEY])).toEqual([{ taskId: first }]);
      expect(second).not.toBe(first);
      await t.app.control.decide(secondCard, { kind: 'deny' });
    } finally {
      await eliciting.close();
    }
  });

  it("a waiting task's relay is not another call's fallback (relayFor): it names the task", async () => {
    // An approved call with no call waiting on it takes the agent's open request's relay
    // (call-path-wiring.ts); a task's would tie that call's elicitation to this task's id.
    const relayFor = (name: string) =>
      (t.app as unknown as { mcp: LazyMcpEndpoint }).mcp.relayFor(name);
    const { task } = await agent.request(
      {
        method: 'tools/call',
        params: {
          name: 'everything__simulate-research-query',
          arguments: { topic: 'otters', ambiguous: false },
          task: { ttl: 60_000 },
        },
      },
      CreateTaskResultSchema,
    );
    let card: string | undefined;
    await until(t.app, async () => {
      card = (await t.app.control.listPending()).find((p) => p.arguments.topic === 'otters')?.id;
      return card !== undefined;
    });
    // The task's call waits on the card now, with its relay; no plain request of the agent's is open.
    expect(relayFor('test')).toBeUndefined();
    await t.app.control.decide(card!, { kind: 'deny' });
    const result = await agent.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
  });

  // Last: the grant it makes stands for the rest of the file.
  it("a task run under the user's grant gets its server's elicitation too, tied to its own task", async () => {
    const asked: Record<string, unknown>[] = [];
    const eliciting = new Client(
      { name: 'eliciting-agent', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    eliciting.setRequestHandler(ElicitRequestSchema, (r) => {
      asked.push({ ...r.params._meta });
      return { action: 'decline' };
    });
    await eliciting.connect(
      new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
      }),
    );
    const run = async (topic: string) => {
      const { task } = await eliciting.request(
        {
          method: 'tools/call',
          params: {
            name: 'everything__simulate-research-query',
            arguments: { topic, ambiguous: true },
            task: { ttl: 60_000 },
          },
        },
        CreateTaskResultSchema,
      );
      return task.taskId;
    };
    try {
      const first = await run('voles');
      let card: string | undefined;
      await until(t.app, async () => {
        card = (await t.app.control.listPending()).find((p) => p.arguments.topic === 'voles')?.id;
        return card !== undefined;
      });
      await t.app.control.decide(card!, { kind: 'always_allow', confirm: true });
      await eliciting.experimental.tasks.getTaskResult(first, CallToolResultSchema);
      // Asks nothing now: the grant covers it.
      const second = await run('shrews');
      const result = await eliciting.experimental.tasks.getTaskResult(second, CallToolResultSchema);
      const text = (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
      expect(text).toContain('User declined');
      expect(asked.map((m) => m[RELATED_TASK_META_KEY])).toEqual([
        { taskId: first },
        { taskId: second },
      ]);
    } finally {
      await eliciting.close();
    }
  });
});
