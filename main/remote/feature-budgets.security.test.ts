import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUBSCRIPTIONS } from '../calls/feature-sessions.js';
import { RELAY_LIMITS } from '../gateway/mcp-handlers/relay-ledger.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';

/**
 * Issue 27, item 7: what one agent can make Airlock hold or send is bounded, well above what a
 * client does — 2,000 resource subscriptions were held and each forwarded upstream; 2,000
 * `logging/setLevel` calls each sent one upstream at once and grew the process for good; 1,000
 * sampling requests relayed during one call wrote 999 Activity rows.
 */
let up: FakeUpstream;
let t: RemoteTestApp;
let agent: Client;
const upstream = { subscribes: 0, levels: [] as string[], inFlight: 0, maxInFlight: 0 };
let holdLevels: Promise<void> | null = null;
let levelArrived: (() => void) | null = null;

function extend(server: Server): void {
  server.setRequestHandler('resources/list', async () => ({ resources: [] }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: [{ name: 'doc', uriTemplate: 'demo://doc/{id}' }],
  }));
  server.setRequestHandler('resources/subscribe', async () => {
    upstream.subscribes++;
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async () => ({}));
  server.setRequestHandler('logging/setLevel', async (req) => {
    upstream.levels.push(req.params.level);
    upstream.maxInFlight = Math.max(upstream.maxInFlight, ++upstream.inFlight);
    levelArrived?.();
    await holdLevels;
    upstream.inFlight--;
    return {};
  });
}

beforeAll(async () => {
  up = new FakeUpstream({
    name: 'busy',
    capabilities: { resources: { subscribe: true }, logging: {} },
    extend,
    tools: [
      { name: 'open', annotations: { readOnlyHint: true } },
      {
        name: 'flood',
        annotations: { readOnlyHint: true },
        run: async (a, c) => {
          let answered = 0;
          const refusals: string[] = [];
          for (let i = 0; i < Number(a.n); i++)
            await c
              .ask('sampling/createMessage', {
                messages: [{ role: 'user', content: { type: 'text', text: `#${i}` } }],
                maxTokens: 1,
              })
              .then(
                () => answered++,
                (e: Error) => refusals.push(e.message),
              );
          return {
            content: [{ type: 'text', text: JSON.stringify({ answered, refusals }) }],
          };
        },
      },
    ],
  });
  await up.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'busy', url: up.url });
  agent = new Client({ name: 'agent-app', version: '1' }, { capabilities: { sampling: {} } });
  agent.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    model: 'm',
    content: { type: 'text', text: 'ok' },
  }));
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
  // The agent's own session with the server (a stateful one) opens with its first call.
  await agent.callTool({ name: 'busy__open', arguments: {} });
});
afterAll(async () => {
  await agent.close();
  await t.stop();
  await up.stop();
});

describe('bounded per session and per request', () => {
  it(`resource subscriptions: ${MAX_SUBSCRIPTIONS} per session, then a clear error; one let go makes room`, async () => {
    const uri = (i: number) => `airlock://busy/demo://doc/${i}`;
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i += 32)
      await Promise.all(
        Array.from({ length: 32 }, (_, j) => agent.subscribeResource({ uri: uri(i + j) })),
      );
    // The same one again is not another.
    await agent.subscribeResource({ uri: uri(0) });
    const over = await agent
      .subscribeResource({ uri: uri(MAX_SUBSCRIPTIONS) })
      .catch((e: Error) => e);
    expect(over).toBeInstanceOf(Error);
    expect((over as Error).message).toMatch(
      new RegExp(
        `already holds ${MAX_SUBSCRIPTIONS} resource subscriptions.*unsubscribe from some first`,
      ),
    );
    expect(upstream.subscribes).toBe(MAX_SUBSCRIPTIONS);
    await agent.unsubscribeResource({ uri: uri(1) });
    await agent.subscribeResource({ uri: uri(MAX_SUBSCRIPTIONS) });
    expect(upstream.subscribes).toBe(MAX_SUBSCRIPTIONS + 1);
  }, 60_000);

  it('logging/setLevel holds no pile of requests: one upstream at a time, the newest level last', async () => {
    let release!: () => void;
    holdLevels = new Promise<void>((r) => (release = r));
    const first = new Promise<void>((r) => (levelArrived = r));
    const levels = ['debug', 'info', 'warning', 'error', 'notice'] as const;
    await agent.setLoggingLevel('debug');
    await first; // the first is at the server, and held there
    for (let i = 0; i < 500; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          agent.setLoggingLevel(levels[(i + j) % levels.length]!),
        ),
      );
    await agent.setLoggingLevel('critical');
    // 501 calls answered by Airlock; the server still has only the first.
    expect(upstream.levels).toEqual(['debug']);
    const last = new Promise<void>(
      (r) => (levelArrived = () => upstream.levels.at(-1) === 'critical' && r()),
    );
    release();
    holdLevels = null;
    await last;
    expect(upstream.levels).toEqual(['debug', 'critical']);
    expect(upstream.maxInFlight).toBe(1);
    // The same level again sends nothing; another is sent.
    await agent.setLoggingLevel('critical');
    const info = new Promise<void>(
      (r) => (levelArrived = () => upstream.levels.at(-1) === 'info' && r()),
    );
    await agent.setLoggingLevel('info');
    await info;
    expect(upstream.levels).toEqual(['debug', 'critical', 'info']);
  }, 60_000);

  it(`server requests during one call: ${RELAY_LIMITS.perRequest}, then refused; Activity keeps a few rows and a count`, async () => {
    const n = RELAY_LIMITS.perRequest + 50;
    const r = await agent.callTool({ name: 'busy__flood', arguments: { n } });
    const text = (r.content as { text: string }[]).map((c) => c.text).join('');
    const got = JSON.parse(text.slice(text.indexOf('{'))) as {
      answered: number;
      refusals: string[];
    };
    expect(got.answered).toBe(RELAY_LIMITS.perRequest);
    expect(got.refusals).toHaveLength(50);
    expect(got.refusals[0]).toMatch(
      /Airlock did not relay sampling\/createMessage from "busy": it has already sent 100 requests during this one request of the agent, Airlock's limit \(100\)/,
    );
    const rows = await t.app.control.listActivity({ tool: 'busy: sampling/createMessage' });
    expect(rows).toHaveLength(RELAY_LIMITS.recordEach + 1);
    expect(rows[0]!.detail).toMatch(
      new RegExp(
        `^${n - RELAY_LIMITS.recordEach} more in this request \\(${RELAY_LIMITS.perRequest - RELAY_LIMITS.recordEach} answered, 50 failed or refused\\)`,
      ),
    );
    // The limit is per request: the next call relays again.
    const again = await agent.callTool({ name: 'busy__flood', arguments: { n: 2 } });
    expect(JSON.stringify(again.content)).toContain('\\"answered\\":2');
  }, 60_000);
});
