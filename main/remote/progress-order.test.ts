import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannedMcp } from '../../test-support/canned-upstream.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { SessionServer } from '../../test-support/session-server.js';
import { startRemoteApp, toolsOffered, type RemoteTestApp } from '../../test-support/remote-app.js';
import { EverythingServer } from '../../test-support/server-everything.js';

/**
 * Issue 28, item 2: the notifications of a call reach the agent complete and in order, before
 * its result — whatever chunks the upstream's answer arrives in. The SDK client dispatches a
 * notification a microtask later but a response at once, and the response ends the call's
 * progress handler: progress that arrived in the same read as the result was dropped (the
 * upstream sent 1, 2, 3; the agent got 1, 2). Real SDK clients of both eras (and the 1.x client)
 * call through Airlock to a hand-written upstream that sends progress and result in one write,
 * to the real server-everything and to a real SDK server; each call checks its whole sequence.
 */
let t: RemoteTestApp;
let es: EverythingServer;
let burst: HttpServer;
let sdk: FakeUpstream;
const chatty = new SessionServer();
const STEPS = [1, 2, 3, 4, 5];

beforeAll(async () => {
  es = await EverythingServer.start();
  burst = createServer(
    cannedMcp({
      name: 'burst',
      callResult: { content: [{ type: 'text', text: 'burst done' }] },
      sse: true,
      progress: [1, 2, 3],
    }),
  );
  await new Promise<void>((r) => burst.listen(0, '127.0.0.1', r));
  sdk = new FakeUpstream({
    tools: [
      {
        name: 'steps',
        annotations: { readOnlyHint: true },
        run: async (_args, ctx) => {
          for (const p of STEPS) await ctx.progress(p, STEPS.length);
          return { content: [{ type: 'text', text: 'steps done' }] };
        },
      },
    ],
  });
  await sdk.start();
  await chatty.start();
  t = await startRemoteApp();
  const port = (burst.address() as AddressInfo).port;
  await t.app.control.addRemote({ name: 'burst', url: `http://127.0.0.1:${port}/mcp` });
  await t.app.control.addRemote({ name: 'everything', url: es.url });
  await t.app.control.addRemote({ name: 'sdk', url: sdk.url });
  await t.app.control.addRemote({ name: 'chatty', url: chatty.url });
  await toolsOffered(t.app, [
    'burst__echo',
    'everything__trigger-long-running-operation',
    'sdk__steps',
    'chatty__echo',
  ]);
  for (const tool of ['burst__echo', 'chatty__echo'])
    await t.app.control.setToolPolicy(tool, { approval: 'auto', confirmDestructive: true });
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await es?.kill();
  await sdk?.stop();
  await chatty.stop();
  burst?.closeAllConnections();
  await new Promise((r) => burst?.close(r));
});

interface Agent {
  /** One call: the progress values the agent saw before the call answered, and the answer's text. */
  call(name: string, args: Record<string, unknown>): Promise<{ progress: number[]; text: string }>;
  close(): Promise<void>;
}

const textOf = (r: unknown) =>
  (((r as { content?: unknown }).content as { type: string; text?: string }[] | undefined) ?? [])
    .map((c) => c.text ?? '')
    .join('\n');

async function v2Agent(mode: 'legacy' | 'auto'): Promise<Agent> {
  const client = new Client(
    { name: `progress-${mode}`, version: '1' },
    {
      versionNegotiation: { mode },
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
  expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
  return {
    async call(name, args) {
      const progress: number[] = [];
      const r = await client.callTool(
        { name, arguments: args },
        { onprogress: (p) => progress.push(p.progress) },
      );
      // Copied when the answer arrives: a notification after it does not count.
      return { progress: [...progress], text: textOf(r) };
    },
    close: () => client.close(),
  };
}

async function sdk1Agent(): Promise<Agent> {
  const client = new Client1({ name: 'progress-sdk1', version: '1' });
  await client.connect(
    new Transport1(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
  return {
    async call(name, args) {
      const progress: number[] = [];
      const r = await client.callTool({ name, arguments: args }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      return { progress: [...progress], text: textOf(r) };
    },
    close: () => client.close(),
  };
}

const AGENTS: [string, () => Promise<Agent>][] = [
  ['2025 session (v2 SDK client)', () => v2Agent('legacy')],
  ['2026-07-28 (v2 SDK client)', () => v2Agent('auto')],
  ['2025 session (1.x SDK client)', sdk1Agent],
];

/** `n` calls, `width` at a time; returns the calls whose progress or text was not as expected. */
async function run(
  agent: Agent,
  n: number,
  name: string,
  args: Record<string, unknown>,
  expected: { progress: number[]; text: RegExp },
): Promise<{ i: number; progress: number[]; text: string }[]> {
  const wrong: { i: number; progress: number[]; text: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const r = await agent.call(name, args);
      if (
        JSON.stringify(r.progress) !== JSON.stringify(expected.progress) ||
        !expected.text.test(r.text)
      )
        wrong.push({ i, ...r });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return wrong;
}

describe.each(AGENTS)('progress through Airlock, %s', (_label, make) => {
  let agent: Agent;
  beforeAll(async () => {
    agent = await make();
  });
  afterAll(() => agent?.close());

  it('progress sent in the same write as the result: every notification, in order, before it', async () => {
    const wrong = await run(
      agent,
      50,
      'burst__echo',
      {},
      {
        progress: [1, 2, 3],
        text: /burst done/,
      },
    );
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('1,000 calls to server-everything: each gets progress 1, 2, 3, then its result', async () => {
    const wrong = await run(
      agent,
      1000,
      'everything__trigger-long-running-operation',
      { duration: 0, steps: 3 },
      { progress: [1, 2, 3], text: /Long running operation completed/ },
    );
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(wrong).toHaveLength(0);
  }, 900_000);

  it('250 calls to an SDK server: each gets progress 1 to 5, then its result', async () => {
    const wrong = await run(
      agent,
      250,
      'sdk__steps',
      {},
      {
        progress: STEPS,
        text: /steps done/,
      },
    );
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(wrong).toHaveLength(0);
  }, 900_000);
});

/**
 * Log lines an upstream sends while serving a call are notifications of that call too: they go
 * on the call's own stream, before its answer (2025 sessions; 2026-07-28 agents get no upstream
 * log lines yet, issue 28 item 5). Each call's lines are tagged with the call.
 */
describe.each([
  ['2025 session (v2 SDK client)', 'v2'],
  ['2025 session (1.x SDK client)', 'v1'],
] as const)('log lines of a call through Airlock, %s', (_label, kind) => {
  const lines: string[] = [];
  let call: (i: number) => Promise<{ text: string; progress: number[] }>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const init = {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    };
    const onLine = (data: unknown) => {
      lines.push(String(data));
    };
    if (kind === 'v2') {
      const c = new Client(
        { name: 'logs-v2', version: '1' },
        { versionNegotiation: { mode: 'legacy' } },
      );
      c.setNotificationHandler('notifications/message', (n) => onLine(n.params.data));
      await c.connect(new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), init));
      await c.setLoggingLevel('info');
      call = async (i) => {
        const progress: number[] = [];
        const r = await c.callTool(
          { name: 'chatty__echo', arguments: { text: `c${i}`, log: 3 } },
          { onprogress: (p) => progress.push(p.progress) },
        );
        return { text: textOf(r), progress };
      };
      close = () => c.close();
    } else {
      const c = new Client1({ name: 'logs-v1', version: '1' });
      c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => onLine(n.params.data));
      await c.connect(new Transport1(new URL(t.started.mcpUrl), init));
      await c.setLoggingLevel('info');
      call = async (i) => {
        const progress: number[] = [];
        const r = await c.callTool(
          { name: 'chatty__echo', arguments: { text: `c${i}`, log: 3 } },
          undefined,
          { onprogress: (p) => progress.push(p.progress) },
        );
        return { text: textOf(r), progress };
      };
      close = () => c.close();
    }
  });
  afterAll(() => close?.());

  it("300 calls: each call's progress and its three log lines, in order, before its result", async () => {
    const wrong: { i: number; seen: string[]; progress: number[] }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < 300) {
        const i = next++;
        const r = await call(i);
        const seen = lines.filter((l) => l.startsWith(`c${i}#`));
        if (
          JSON.stringify(seen) !== JSON.stringify([`c${i}#1`, `c${i}#2`, `c${i}#3`]) ||
          JSON.stringify(r.progress) !== '[1]' ||
          !r.text.includes(`echo c${i}`)
        )
          wrong.push({ i, seen, progress: r.progress });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(wrong).toHaveLength(0);
  }, 900_000);
});
