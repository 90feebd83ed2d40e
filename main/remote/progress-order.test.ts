import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannedMcp } from '../../test-support/canned-upstream.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
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
  t = await startRemoteApp();
  const port = (burst.address() as AddressInfo).port;
  await t.app.control.addRemote({ name: 'burst', url: `http://127.0.0.1:${port}/mcp` });
  await t.app.control.addRemote({ name: 'everything', url: es.url });
  await t.app.control.addRemote({ name: 'sdk', url: sdk.url });
  await t.app.control.setToolPolicy('burst__echo', { approval: 'auto', confirmDestructive: true });
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await es?.kill();
  await sdk?.stop();
  burst?.closeAllConnections();
  await new Promise((r) => burst?.close(r));
});

interface Agent {
  /** One call: the progress values the agent saw before the call answered, and the answer's text. */
  call(name: string, args: Record<string, unknown>): Promise<{ progress: number[]; text: string }>;
  close(): Promise<void>;
}

const textOf = (r: { content?: unknown }) =>
  ((r.content as { type: string; text?: string }[] | undefined) ?? [])
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
  }, 300_000);

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
  }, 300_000);
});
