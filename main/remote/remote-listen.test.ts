import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
  SUBSCRIPTION_ID_META_KEY,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { EverythingServer } from '../../test-support/server-everything.js';

/**
 * Issue 28 item 5: a 2026-07-28 agent gets its upstream's log lines and resource updates on its
 * `subscriptions/listen` stream — only its own, only for URIs it may read, marked as the
 * server's. The real server-everything behind Airlock, the real v2 SDK client in front.
 */
let es: EverythingServer;
let t: RemoteTestApp;
let otherToken: string;
const cleanup: (() => Promise<unknown>)[] = [];

interface Seen {
  logs: { level: string; logger?: string; data: unknown; _meta?: Record<string, unknown> }[];
  updated: { uri: string; _meta?: Record<string, unknown> }[];
  poke: () => void;
  waiters: (() => void)[];
}

async function modernAgent(token: string): Promise<{ client: Client; seen: Seen }> {
  const seen: Seen = { logs: [], updated: [], waiters: [], poke: () => {} };
  seen.poke = () => seen.waiters.splice(0).forEach((w) => w());
  const client = new Client(
    { name: 'listen-agent', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  client.setNotificationHandler('notifications/message', (n) => {
    seen.logs.push(n.params as Seen['logs'][number]);
    seen.poke();
  });
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    seen.updated.push(n.params as Seen['updated'][number]);
    seen.poke();
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  cleanup.push(() => client.close());
  expect(client.getProtocolEra()).toBe('modern');
  return { client, seen };
}

const until = (seen: Seen, check: () => boolean) =>
  new Promise<void>((resolve) => {
    const test = () => (check() ? resolve() : seen.waiters.push(test));
    test();
  });

async function allow(name: string): Promise<void> {
  await t.app.control.setToolPolicy(name, { approval: 'auto', confirmDestructive: true });
}

beforeAll(async () => {
  es = await EverythingServer.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'everything', url: es.url });
  otherToken = (await t.app.control.addAgent('other')).token;
  await allow('everything__toggle-subscriber-updates');
  await allow('everything__toggle-simulated-logging');
}, 60_000);

afterAll(async () => {
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => {});
  await t?.stop();
  await es?.kill();
});

describe('subscriptions/listen for 2026-07-28 agents (issue 28 item 5)', () => {
  it('carries resources/updated for the URIs the agent watches, to that agent only', async () => {
    const a = await modernAgent(t.token);
    const b = await modernAgent(otherToken);
    const { resources } = await a.client.listResources();
    const uri = resources[0]!.uri;
    const unknown = 'airlock://nowhere/thing';
    const sub = await a.client.listen({ resourceSubscriptions: [uri, unknown] });
    // Acknowledged: the URI the agent may read; the unknown one is not honored.
    expect(sub.honoredFilter.resourceSubscriptions).toEqual([uri]);
    const other = await b.client.listen({ resourceSubscriptions: [uri] });
    expect(other.honoredFilter.resourceSubscriptions).toEqual([uri]);

    // server-everything sends updates on the session that asked for them: the first agent's.
    await a.client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    await until(a.seen, () => a.seen.updated.length >= 2);
    expect(a.seen.updated.every((u) => u.uri === uri)).toBe(true);
    expect(a.seen.updated[0]!._meta?.[SUBSCRIPTION_ID_META_KEY]).toBeDefined();
    expect(b.seen.updated).toEqual([]);
    await a.client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    await sub.close();
    await other.close();
  });

  it("carries the upstream's log lines at the level each listen request set, to that agent only", async () => {
    const a = await modernAgent(t.token);
    const loud = await modernAgent(t.token);
    const other = await modernAgent(otherToken);
    // The SDK's listen() sends only the filter; the era's per-request level (SEP-2577) rides in
    // the request's own _meta, which the client merges over its envelope.
    const listenAt = async (who: { client: Client; seen: Seen }, level: string) => {
      let acked = false;
      who.client.fallbackNotificationHandler = async (n) => {
        if (n.method === 'notifications/subscriptions/acknowledged') acked = true;
        who.seen.poke();
      };
      const stop = new AbortController();
      const listening = who.client
        .request(
          {
            method: 'subscriptions/listen',
            params: { _meta: { [LOG_LEVEL_META_KEY]: level }, notifications: {} },
          },
          { signal: stop.signal },
        )
        .catch(() => {});
      cleanup.push(async () => {
        stop.abort();
        await listening;
      });
      await until(who.seen, () => acked);
    };
    await listenAt(a, 'debug');
    await listenAt(loud, 'emergency');
    await listenAt(other, 'debug');
    // server-everything logs at random levels every few seconds on the session that asked.
    await a.client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
    await until(a.seen, () => a.seen.logs.some((l) => l.level !== 'emergency'));
    const line = a.seen.logs[0]!;
    expect(line.logger).toMatch(/^everything(\/|$)/);
    expect(line._meta?.[SUBSCRIPTION_ID_META_KEY]).toBeDefined();
    // The stream at "emergency" got nothing below it; the other agent got nothing at all.
    expect(loud.seen.logs.filter((l) => l.level !== 'emergency')).toEqual([]);
    expect(other.seen.logs).toEqual([]);
    await a.client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
  });

  it('still carries the list changes the agent asked for', async () => {
    const a = await modernAgent(t.token);
    let changed = 0;
    a.client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
      a.seen.poke();
    });
    const sub = await a.client.listen({ toolsListChanged: true, promptsListChanged: false });
    expect(sub.honoredFilter).toEqual({ toolsListChanged: true });
    await t.app.control.setToolPolicy('everything__echo', { enabled: false });
    await until(a.seen, () => changed > 0);
    await t.app.control.setToolPolicy('everything__echo', { enabled: true });
    await sub.close();
  });

  it('revoking an agent ends its listen streams with the graceful close', async () => {
    const token = (await t.app.control.addAgent('leaving')).token;
    const a = await modernAgent(token);
    const sub = await a.client.listen({ toolsListChanged: true });
    await t.app.control.revokeAgent('leaving');
    expect(await sub.closed).toBe('graceful');
  });

  it('a listen request without a filter is refused as invalid params', async () => {
    const a = await modernAgent(t.token);
    await expect(
      a.client.request({ method: 'subscriptions/listen', params: {} } as never),
    ).rejects.toThrow(/notifications|Invalid/i);
  });
});
