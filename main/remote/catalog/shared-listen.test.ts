import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { FakeRetryClock } from '../../../test-support/fake-retry-clock.js';
import { NEVER_MS } from '../../../test-support/remote-app.js';
import { Logger } from '../../platform/log.js';
import type { SourceNotice } from '../../tools/features.js';
import { DEFAULT_TIMINGS } from '../connection/timings.js';
import { connectUpstream, type Upstream } from '../upstream/upstream.js';
import { RemoteFeatures } from './remote-features.js';
import { ServerCatalog } from './server-catalog.js';

/**
 * The one `subscriptions/listen` stream a shared 2026-07-28 connection watches every agent's URIs
 * on (RemoteFeatures.applyShared), against the v2 SDK's own server behind a proxy the test can cut
 * a stream at (as a load balancer's idle cut or a restarting listen router would):
 * - a stream the server ends is opened again after the reconnect backoff's wait (on a fake clock),
 *   growing while the server keeps ending it, afresh after one that lived; before, it stayed shut
 *   until the watched set next changed, and agents silently heard nothing;
 * - a new watched set is opened before the old stream is closed, so an update sent between the
 *   two still arrives; before, the old one was closed first and such an update was lost;
 * - list changes said while the lists are being read again are read once more together
 *   (ServerCatalog), not once each.
 */
const cleanup = cleanupAfterEach();
const A = 'mem://a';
const B = 'mem://b';

/** A listen stream that watches resources. */
interface Stream {
  uris: string[];
  /** The proxy ends the stream, as a server that closes it does. */
  end: () => void;
  /** The client side of the stream closed (the client gave it up, or the proxy ended it). */
  closed: Promise<void>;
}

async function listenServer(
  o: {
    beforeListen?: (uris: string[], streams: Stream[]) => Promise<void>;
    /** Answer a resource listen with -32601, as a server without it does; counted in `refused`. */
    refuseListen?: { count: number };
  } = {},
): Promise<{
  url: string;
  streams: Stream[];
  listChanges: Stream[];
  notify: (uri: string) => void;
  resourcesChanged: () => void;
  lists: { count: number; gate: Promise<void> | null; seen: (() => void)[] };
}> {
  const lists = { count: 0, gate: null as Promise<void> | null, seen: [] as (() => void)[] };
  const handler = createMcpHandler(
    () => {
      const server = new Server(
        { name: 'watched', version: '1' },
        { capabilities: { resources: { subscribe: true, listChanged: true }, prompts: {} } },
      );
      server.setRequestHandler('resources/list', async () => {
        lists.count++;
        lists.seen.splice(0).forEach((r) => r());
        await lists.gate;
        return { resources: [{ uri: A, name: 'a' }] };
      });
      server.setRequestHandler('prompts/list', async () => ({ prompts: [{ name: 'p' }] }));
      return server;
    },
    { legacy: 'stateless' },
  );
  const node = toNodeHandler(handler);
  const mcp = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      await node(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
    })();
  });
  await new Promise<void>((r) => mcp.listen(0, '127.0.0.1', r));
  const mcpPort = (mcp.address() as AddressInfo).port;

  const streams: Stream[] = [];
  /** The client's own listen streams for list changes. */
  const listChanges: Stream[] = [];
  const proxy = createServer((req, res) => {
    const closed = new Promise<void>((r) => res.once('close', () => r()));
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const m = JSON.parse(body.toString('utf8') || 'null') as {
        id?: number | string;
        method?: string;
        params?: { notifications?: { resourceSubscriptions?: string[] } };
      } | null;
      // The client's own listen for list changes (ClientOptions.listChanged) names no URIs.
      const uris =
        m?.method === 'subscriptions/listen'
          ? m.params?.notifications?.resourceSubscriptions
          : undefined;
      if (uris) await o.beforeListen?.(uris, streams);
      if (uris && o.refuseListen) {
        o.refuseListen.count++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: m?.id,
            error: { code: -32601, message: 'Method not found' },
          }),
        );
        return;
      }
      const fwd = request(
        {
          host: '127.0.0.1',
          port: mcpPort,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (ur: IncomingMessage) => {
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          ur.pipe(res);
          res.once('close', () => ur.destroy());
          if (m?.method === 'subscriptions/listen' && !uris)
            listChanges.push({
              uris: [],
              end: () => (ur.unpipe(res), ur.destroy(), res.end()),
              closed,
            });
          if (uris)
            streams.push({
              uris,
              end: () => {
                ur.unpipe(res);
                ur.destroy();
                res.end();
              },
              closed,
            });
        },
      );
      fwd.end(body);
    })();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  cleanup.push(async () => {
    for (const s of [proxy, mcp]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`,
    streams,
    listChanges,
    notify: (uri) => void handler.notify.resourceUpdated(uri),
    resourcesChanged: () => void handler.notify.resourcesChanged(),
    lists,
  };
}

/** Airlock's client to the server, its RemoteFeatures on a fake clock, and the notices it hears. */
async function watching(url: string, clock = new FakeRetryClock()) {
  const heard: SourceNotice[] = [];
  const waiters: ((n: SourceNotice) => void)[] = [];
  let shared = true;
  const ref: { up?: Upstream } = {};
  const features = new RemoteFeatures(
    'watched',
    NEVER_MS,
    new Logger({ stderr: false }),
    undefined,
    {
      shared: (u) => shared && u === ref.up,
      t: DEFAULT_TIMINGS,
      clock,
    },
  );
  const up: Upstream = await connectUpstream({
    url: new URL(url),
    headers: {},
    timeoutMs: NEVER_MS,
    clientVersion: '1',
    onNotice: (n) => features.notice(n),
  });
  ref.up = up;
  cleanup.push(() => up.close());
  // Every listen stream Airlock opens, as the client holds it: a test awaits its `closed`, which
  // settles after the handler RemoteFeatures hung on it when it opened the stream (an event).
  const opened: McpSubscription[] = [];
  const listen = up.client.listen.bind(up.client);
  up.client.listen = async (...args: Parameters<typeof listen>) => {
    const sub = await listen(...args);
    opened.push(sub);
    return sub;
  };
  features.onNotice((n) => {
    heard.push(n);
    waiters.splice(0).forEach((w) => w(n));
  });
  const updated = (uri: string) =>
    new Promise<void>((resolve) => {
      const wait = (n: SourceNotice) =>
        n.kind === 'resource-updated' && n.uri === uri ? resolve() : waiters.push(wait);
      waiters.push(wait);
    });
  const heardKind = (kind: SourceNotice['kind']) =>
    new Promise<void>((resolve) => {
      const wait = (n: SourceNotice) => (n.kind === kind ? resolve() : waiters.push(wait));
      waiters.push(wait);
    });
  const watch = async (agent: string, uris: string[]) => {
    await features.setSubscriptions(agent, null, new Set(uris));
    await features.applyShared(up);
  };
  return {
    up,
    features,
    clock,
    heard,
    updated,
    heardKind,
    watch,
    opened,
    unshare: () => (shared = false),
  };
}

describe('the shared listen stream of a 2026-07-28 server', () => {
  it('is opened again after the server ends it, waiting longer each time, afresh after one that lived', async () => {
    const s = await listenServer();
    const w = await watching(s.url);
    await w.watch('agent', [A]);
    expect(s.streams.map((x) => x.uris)).toEqual([[A]]);

    s.streams[0]!.end();
    await w.clock.whenAsked(1);
    expect(w.clock.pending()).toBe(1);
    // The reconnect backoff's first wait: 1 s, give or take its 20 % jitter.
    expect(w.clock.asked[0]).toBeGreaterThanOrEqual(0.8 * DEFAULT_TIMINGS.backoffInitialMs);
    expect(w.clock.asked[0]).toBeLessThanOrEqual(1.2 * DEFAULT_TIMINGS.backoffInitialMs);
    w.clock.fire();
    await w.features.applyShared(w.up);
    expect(s.streams.map((x) => x.uris)).toEqual([[A], [A]]);
    const heard = w.updated(A);
    s.notify(A);
    await heard;

    // Ended again at once: the wait grows.
    s.streams[1]!.end();
    await w.clock.whenAsked(2);
    expect(w.clock.asked[1]).toBeGreaterThan(w.clock.asked[0]!);
    w.clock.fire();
    await w.features.applyShared(w.up);
    expect(s.streams).toHaveLength(3);

    // One that stayed open as long as the longest wait was healthy: the next wait is the first's.
    w.clock.advance(DEFAULT_TIMINGS.backoffMaxMs);
    s.streams[2]!.end();
    await w.clock.whenAsked(3);
    expect(w.clock.asked[2]).toBeLessThanOrEqual(1.2 * DEFAULT_TIMINGS.backoffInitialMs);
    w.clock.fire();
    await w.features.applyShared(w.up);
    expect(s.streams).toHaveLength(4);

    // Closed by Airlock (nothing watched any more): not reopened.
    await w.watch('agent', []);
    await s.streams[3]!.closed;
    expect(w.clock.pending()).toBe(0);
    expect(w.clock.asked).toHaveLength(3);
  });

  it("cut every 30 s (a proxy's idle timer) is opened again after the first wait each time, not after a growing one", async () => {
    const s = await listenServer();
    const w = await watching(s.url);
    await w.watch('agent', [A]);
    for (let i = 0; i < 6; i++) {
      // The stream stays open 30 s, then the proxy cuts it (Heroku's router at 55 s, nginx's
      // proxy_read_timeout at 60 s, load balancers' idle timers: a healthy stream).
      w.clock.advance(30_000);
      s.streams[i]!.end();
      await w.clock.whenAsked(i + 1);
      w.clock.fire();
      await w.features.applyShared(w.up);
      expect(s.streams).toHaveLength(i + 2);
    }
    // Before, each wait doubled (1, 2, 4, 8, 16, 32 s, then a minute): the watch was shut longer
    // than open, and updates meanwhile were lost.
    for (const wait of w.clock.asked)
      expect(wait).toBeLessThanOrEqual(1.2 * DEFAULT_TIMINGS.backoffInitialMs);
    const heard = w.updated(A);
    s.notify(A);
    await heard;
  });

  it('refused by the server (-32601) is not asked for again until the watched set changes', async () => {
    const refused = { count: 0 };
    const s = await listenServer({ refuseListen: refused });
    const w = await watching(s.url);
    await w.watch('agent', [A]);
    expect(refused.count).toBe(1);
    // The server's answer stands: no reopen is scheduled, so no loop of refused requests.
    expect(w.clock.asked).toHaveLength(0);
    await w.watch('other', [B]);
    expect(refused.count).toBe(2);
    expect(w.clock.asked).toHaveLength(0);
    expect(w.clock.pending()).toBe(0);
  });

  it('of a connection no longer the shared one is not opened again', async () => {
    const s = await listenServer();
    const w = await watching(s.url);
    await w.watch('agent', [A]);
    w.unshare();
    expect(w.opened).toHaveLength(1);
    s.streams[0]!.end();
    // The client's own end of the stream: RemoteFeatures' handler, hung on the same promise
    // before this wait, has run once it settles (before, a round trip on another request stood
    // in for it, which raced the client noticing the end).
    expect(await w.opened[0]!.closed).not.toBe('local');
    expect(w.clock.pending()).toBe(0);
    expect(w.clock.asked).toHaveLength(0);
  });

  it('keeps the old stream open until the new watched set is acknowledged: an update between them arrives', async () => {
    let outcome: string | undefined;
    const ref: { w?: Awaited<ReturnType<typeof watching>> } = {};
    const s = await listenServer({
      beforeListen: async (uris, streams) => {
        if (uris.length !== 2) return;
        // The update for A is sent after the new listen request left Airlock and before the
        // server has it: only the old stream can carry it.
        const arrived = ref.w!.updated(A).then(() => 'arrived');
        s.notify(A);
        outcome = await Promise.race([
          arrived,
          streams[0]!.closed.then(() => 'the old stream was closed first'),
        ]);
      },
    });
    const w = (ref.w = await watching(s.url));
    await w.watch('one', [A]);
    await w.watch('two', [B]);
    expect(outcome).toBe('arrived');
    expect(s.streams.map((x) => [...x.uris].sort())).toEqual([[A], [A, B]]);
    // And the old one is closed once the new one is up.
    await s.streams[0]!.closed;
    const heard = w.updated(B);
    s.notify(B);
    await heard;
  });
});

describe('the list-change stream the SDK client opens at connect', () => {
  it('is opened again after the server ends it (the SDK never does), and the lists are read again', async () => {
    const s = await listenServer();
    const w = await watching(s.url);
    expect(s.listChanges).toHaveLength(1);
    const missed: SubscriptionFilter[] = [];
    const reread = new Promise<void>((resolve) =>
      w.features.followListChanges(w.up, (filter) => {
        missed.push(filter);
        resolve();
      }),
    );
    s.listChanges[0]!.end();
    await w.clock.whenAsked(1);
    w.clock.fire();
    await reread;
    // A change made while it was shut was said to no one: the caller reads those lists again.
    expect(missed).toEqual([{ resourcesListChanged: true }]);
    expect(s.listChanges).toHaveLength(2);
    const heard = w.heardKind('resources-changed');
    s.resourcesChanged();
    await heard;
    // Open 30 s, then cut (a proxy's idle timer): a healthy stream, so the first wait again.
    w.clock.advance(30_000);
    s.listChanges[1]!.end();
    await w.clock.whenAsked(2);
    expect(w.clock.asked[1]).toBeLessThanOrEqual(1.2 * DEFAULT_TIMINGS.backoffInitialMs);
  });
});

describe('list changes said while the lists are being read again', () => {
  it('are read once more, together, and each is announced after a reading that began after it', async () => {
    const s = await listenServer();
    const w = await watching(s.url);
    let emits = 0;
    const catalog = new ServerCatalog({
      current: (_gen, u) => u === w.up,
      features: w.features,
      listMs: NEVER_MS,
      emit: () => emits++,
      trouble: (_gen, _u, cause) => {
        throw cause;
      },
    });
    let release = () => {};
    s.lists.gate = new Promise<void>((r) => (release = r));
    const before = s.lists.count;
    const first = new Promise<void>((r) => s.lists.seen.push(r));
    catalog.notice(1, w.up, { kind: 'resources-changed' });
    await first;
    catalog.notice(1, w.up, { kind: 'prompts-changed' });
    catalog.notice(1, w.up, { kind: 'resources-changed' });
    catalog.notice(1, w.up, { kind: 'resources-changed' });
    s.lists.gate = null;
    release();
    await catalog.relisted(w.up);
    expect(s.lists.count - before).toBe(2);
    expect(emits).toBe(2);
    expect(w.heard.map((n) => n.kind)).toEqual([
      'resources-changed',
      'prompts-changed',
      'resources-changed',
    ]);
  });
});
