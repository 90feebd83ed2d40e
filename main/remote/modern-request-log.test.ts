import {
  Client,
  LOG_LEVEL_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { ModernUpstream } from '../../test-support/modern-upstream.js';
import { startRemoteApp } from '../../test-support/remote-app.js';

/**
 * A 2026-07-28 agent asks for log lines per request (SEP-2577: `_meta`
 * `io.modelcontextprotocol/logLevel`) and gets them on that request's own stream, before its
 * result — directly from a server, and now through Airlock too (before, with no listen stream
 * open, the line was lost). Below the level, or without one: no line, as direct.
 */
const cleanup = cleanupAfterEach();

async function modernAgent(url: string, headers: Record<string, string>) {
  const c = new Client({ name: 'm', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  const seen: { level: string; logger?: string; data: unknown }[] = [];
  c.setNotificationHandler('notifications/message', (n) => void seen.push(n.params));
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  cleanup.push(() => c.close());
  expect(c.getProtocolEra()).toBe('modern');
  return { c, seen };
}

describe("a 2026-07-28 agent's per-request log level", () => {
  it('brings the upstream’s line on the request’s own stream, as direct; not below the level', async () => {
    const up = await ModernUpstream.start(['chatty']);
    cleanup.push(() => up.kill());
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'modern', url: up.url });
    const direct = await modernAgent(up.url, {});
    const via = await modernAgent(t.started.mcpUrl, { Authorization: `Bearer ${t.token}` });
    const call = (a: { c: Client }, name: string, level?: string) =>
      a.c.callTool({
        name,
        arguments: {},
        ...(level ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {}),
      });

    // chatty logs one warning while serving the call.
    await call(direct, 'chatty', 'debug');
    const r = await call(via, 'modern__chatty', 'debug');
    expect(r.isError).toBeFalsy();
    expect(direct.seen).toEqual([{ level: 'warning', logger: 'chatter', data: 'chatty says hi' }]);
    // Delivered before the result resolved the call: already here.
    expect(via.seen).toEqual([
      { level: 'warning', logger: 'modern/chatter', data: 'chatty says hi' },
    ]);

    // Above the line's level, and without a level: nothing, direct and through Airlock alike.
    await call(direct, 'chatty', 'error');
    await call(via, 'modern__chatty', 'error');
    await call(direct, 'chatty');
    await call(via, 'modern__chatty');
    expect(direct.seen).toHaveLength(1);
    expect(via.seen).toHaveLength(1);
  });

  it('a client that also listens with a level gets the line once, on the request', async () => {
    const up = await ModernUpstream.start(['chatty']);
    cleanup.push(() => up.kill());
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'modern', url: up.url });
    const via = await modernAgent(t.started.mcpUrl, { Authorization: `Bearer ${t.token}` });
    let acked!: () => void;
    const ack = new Promise<void>((r) => (acked = r));
    via.c.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/subscriptions/acknowledged') acked();
    };
    const stop = new AbortController();
    const listening = via.c
      .request(
        {
          method: 'subscriptions/listen',
          params: { _meta: { [LOG_LEVEL_META_KEY]: 'debug' }, notifications: {} },
        },
        { signal: stop.signal },
      )
      .catch(() => {});
    cleanup.push(async () => {
      stop.abort();
      await listening;
    });
    await ack;
    await via.c.callTool({
      name: 'modern__chatty',
      arguments: {},
      _meta: { [LOG_LEVEL_META_KEY]: 'debug' },
    });
    // A round trip after the call: a copy on the listen stream would have arrived by now.
    await via.c.listTools();
    expect(via.seen).toHaveLength(1);
    expect(
      (via.seen[0] as { _meta?: Record<string, unknown> })._meta?.[SUBSCRIPTION_ID_META_KEY],
    ).toBeUndefined();
  });
});
