import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';

/**
 * A resource update may name a sub-resource of the subscribed one (MCP 2025-11-25 and 2026-07-28
 * schema, ResourceUpdatedNotificationParams `uri`: "This might be a sub-resource of the one that
 * the client actually subscribed to"). An agent subscribed to `mem://dir` gets the server's
 * updates for `mem://dir/a` and `mem://dir?page=2`, in the form it subscribed with, and not those
 * for `mem://dirt` (no sub-resource, only a longer name), in both eras. Before, only the exact URI
 * reached it.
 */
const cleanup = cleanupAfterEach();

const SENT = ['mem://dir/a', 'mem://dirt', 'mem://dir?page=2', 'mem://dir', 'mem://other/dir/a'];

async function upstream(): Promise<FakeUpstream> {
  const sessions = new Set<Server>();
  const up = new FakeUpstream({
    name: 'svc',
    capabilities: { resources: { subscribe: true } },
    extend: (server) => {
      server.setRequestHandler('resources/list', async () => ({
        resources: [{ uri: 'mem://dir', name: 'dir' }],
      }));
      server.setRequestHandler('resources/read', async (req) => ({
        contents: [{ uri: req.params.uri, text: 'dir' }],
      }));
      server.setRequestHandler('resources/subscribe', async () => {
        sessions.add(server);
        return {};
      });
      server.setRequestHandler('resources/unsubscribe', async () => ({}));
    },
    tools: [
      {
        name: 'announce',
        annotations: { readOnlyHint: true },
        run: async () => {
          for (const s of sessions)
            for (const uri of SENT) await s.sendResourceUpdated({ uri }).catch(() => {});
          return { content: [{ type: 'text', text: 'announced' }] };
        },
      },
    ],
  });
  await up.start();
  cleanup.push(() => up.stop());
  return up;
}

async function agentOf(t: RemoteTestApp, mode: 'legacy' | 'auto'): Promise<[Client, string[]]> {
  const seen: string[] = [];
  const c = new Client({ name: `sub-${mode}`, version: '1' }, { versionNegotiation: { mode } });
  c.setNotificationHandler('notifications/resources/updated', (n) => void seen.push(n.params.uri));
  await c.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
  cleanup.push(() => c.close());
  return [c, seen];
}

/** A 2026-07-28 listen stream for the URI; resolves once acknowledged. */
async function listen(c: Client, uri: string): Promise<void> {
  let acked!: () => void;
  const ack = new Promise<void>((r) => (acked = r));
  c.fallbackNotificationHandler = async (n) => {
    if (n.method === 'notifications/subscriptions/acknowledged') acked();
  };
  const stop = new AbortController();
  const listening = c
    .request(
      {
        method: 'subscriptions/listen',
        params: {
          _meta: { [LOG_LEVEL_META_KEY]: 'debug' },
          notifications: { resourceSubscriptions: [uri] },
        },
      },
      { signal: stop.signal },
    )
    .catch(() => {});
  cleanup.push(async () => {
    stop.abort();
    await listening;
  });
  await ack;
}

describe('resource updates for a sub-resource of a subscription', () => {
  it.each([
    ['legacy', 'airlock://svc/mem://dir'],
    ['auto', 'airlock://svc/mem://dir'],
    // Subscribed with the server's own URI: the sub-resource comes in that form too.
    ['legacy', 'mem://dir'],
  ] as const)(
    '%s agent subscribed to %s gets them, and no other',
    async (mode, uri) => {
      const up = await upstream();
      const t = await startRemoteApp();
      cleanup.push(() => t.stop());
      await t.app.control.addRemote({ name: 'svc', url: up.url });
      const [c, seen] = await agentOf(t, mode);
      if (mode === 'legacy') await c.subscribeResource({ uri });
      else await listen(c, uri);
      // Each call is an event, and the next waits on the one before (no sleep): the upstream
      // session's stream may open after the agent's request, so a first batch may be lost.
      const wanted = [`${uri}/a`, `${uri}?page=2`, uri];
      while (!wanted.every((w) => seen.includes(w)))
        await c.callTool({ name: 'svc__announce', arguments: {} });
      // Nothing else: not `mem://dirt`, not a URI that merely holds the subscribed one.
      expect(new Set(seen)).toEqual(new Set(wanted));
    },
    60_000,
  );
});
