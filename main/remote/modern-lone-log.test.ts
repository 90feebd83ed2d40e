import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionServer } from '../../test-support/session-server.js';
import { startRemoteApp, toolsOffered, type RemoteTestApp } from '../../test-support/remote-app.js';
import { ModernHotTransport } from '../gateway/modern-hot.js';
import { LOG_LEVELS, levelRank, type LoggingLevel } from '../tools/features.js';

/**
 * A 2026-07-28 agent whose requests name a log level (the stock v2 client after
 * `setLoggingLevel`, SEP-2577) calling a real upstream that logs mid-call: its everyday calls take
 * the lone path (mcp-handlers/modern-lone-call.ts, round-line.ts LoneLine), and what it sees is
 * what an App without the lone path (`loneCalls: false`) gives — each line at or above its level,
 * in order, on the call's own stream before the result; the same statuses, headers and bytes on
 * the wire. No clock: the lines are read when the call's answer has been read.
 */
const upstream = new SessionServer();
const apps: Record<'lone' | 'sdk', RemoteTestApp> = {} as never;
/** Each level at least once, out of order, twice over. */
const SENT: LoggingLevel[] = [
  'info',
  'emergency',
  'debug',
  'warning',
  'notice',
  'critical',
  'error',
  'alert',
  'debug',
  'error',
  'info',
  'warning',
];

const loneRuns = vi.spyOn(
  ModernHotTransport.prototype as unknown as { runLone: () => void },
  'runLone',
);

beforeAll(async () => {
  await upstream.start();
  for (const [key, loneCalls] of [
    ['lone', true],
    ['sdk', false],
  ] as const) {
    const t = await startRemoteApp({ loneCalls });
    await t.app.control.addRemote({ name: 'chatty', url: upstream.url });
    await toolsOffered(t.app, ['chatty__echo']);
    await t.app.control.setToolPolicy('chatty__echo', {
      approval: 'auto',
      confirmDestructive: true,
    });
    apps[key] = t;
  }
}, 60_000);

afterAll(async () => {
  for (const t of Object.values(apps)) await t.stop();
  await upstream.stop();
});

/**
 * The stock v2 client (auto: 2026-07-28) at `level`: each call's lines as of its answer. This
 * client (2.4.0) refuses `setLoggingLevel` on the 2026-07-28 era (logging/setLevel is not in it,
 * SEP-2577) and builds its envelope without a level (Client._outboundMetaEnvelope), so the level
 * goes in each call's `_meta`, which the client merges into the envelope it sends.
 */
async function stockClient(t: RemoteTestApp, level: LoggingLevel) {
  const c = new Client({ name: 'logs-v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  const lines: unknown[] = [];
  c.setNotificationHandler('notifications/message', (n) => void lines.push(n.params));
  await c.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
  const call = async (text: string) => {
    const r = await c.callTool({
      name: 'chatty__echo',
      arguments: { text, levels: SENT },
      _meta: { [LOG_LEVEL_META_KEY]: level },
    });
    return { result: r, lines: lines.splice(0) };
  };
  return { c, call };
}

describe('a 2026-07-28 agent with a log level, a real upstream logging mid-call', () => {
  it('the stock v2 client refuses setLoggingLevel on this era (so the level goes in `_meta`)', async () => {
    const c = new Client(
      { name: 'logs-v2', version: '1' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await c.connect(
      new StreamableHTTPClientTransport(new URL(apps.lone.started.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${apps.lone.token}` } },
      }),
    );
    try {
      await expect(c.setLoggingLevel('info')).rejects.toThrow(/not supported/);
    } finally {
      await c.close();
    }
  });

  it.each(LOG_LEVELS)(
    'the stock v2 client at %s: the lines at or above it, in order, before the result — on the lone path, as on the SDK path',
    async (level) => {
      const seen: Record<string, unknown> = {};
      for (const key of ['sdk', 'lone'] as const) {
        const before = loneRuns.mock.calls.length;
        const { c, call } = await stockClient(apps[key], level);
        try {
          seen[key] = [await call('a'), await call('b')];
        } finally {
          await c.close();
        }
        // The lone App's calls took the lone path; the other App has none.
        expect(loneRuns.mock.calls.length - before).toBe(key === 'lone' ? 2 : 0);
      }
      expect(seen['lone']).toEqual(seen['sdk']);
      const [a] = seen['lone'] as { result: unknown; lines: unknown[] }[];
      expect(a!.lines).toEqual(
        SENT.filter((l) => levelRank(l) >= levelRank(level)).map((l) => ({
          level: l,
          logger: expect.stringMatching(/lg$/) as unknown,
          data: `a@${l}`,
        })),
      );
    },
    60_000,
  );

  it('the same statuses, headers and bytes on the wire (a raw request at warning)', async () => {
    const raw = async (t: RemoteTestApp) => {
      const res = await fetch(t.started.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'chatty__echo',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: {
            name: 'chatty__echo',
            arguments: { text: 'w', levels: SENT },
            _meta: {
              [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
              [CLIENT_CAPABILITIES_META_KEY]: {},
              [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
              [LOG_LEVEL_META_KEY]: 'warning',
            },
          },
        }),
      });
      const headers = Object.fromEntries(
        [...res.headers].filter(([k]) => !['date', 'keep-alive', 'connection'].includes(k)),
      );
      return { status: res.status, headers, body: await res.text() };
    };
    const sdk = await raw(apps.sdk);
    const before = loneRuns.mock.calls.length;
    const lone = await raw(apps.lone);
    expect(loneRuns.mock.calls.length - before).toBe(1);
    expect(lone).toEqual(sdk);
    // An event stream: the seven lines at or above warning, then the answer.
    expect(lone.headers['content-type']).toBe('text/event-stream');
    expect(lone.body.match(/notifications\/message/g)).toHaveLength(7);
    expect(lone.body.lastIndexOf('notifications/message')).toBeLessThan(
      lone.body.indexOf('"result"'),
    );
  });
});

/** A raw 2026-07-28 tools/call of chatty__echo naming `level` in its envelope: the whole exchange. */
async function post(
  t: RemoteTestApp,
  token: string,
  id: unknown,
  level: unknown,
  args: Record<string, unknown>,
) {
  const res = await fetch(t.started.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'chatty__echo',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'chatty__echo',
        arguments: args,
        _meta: {
          [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
          [CLIENT_CAPABILITIES_META_KEY]: {},
          [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
          ...(level === undefined ? {} : { [LOG_LEVEL_META_KEY]: level }),
        },
      },
    }),
  });
  const headers = Object.fromEntries(
    [...res.headers].filter(([k]) => !['date', 'keep-alive', 'connection'].includes(k)),
  );
  return { status: res.status, headers, body: res.text() };
}

/** The `data` of each notifications/message on an event stream's body, in order. */
function linesOf(body: string): unknown[] {
  return body
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as { method?: string; params?: { data: unknown } })
    .filter((m) => m.method === 'notifications/message')
    .map((m) => m.params!.data);
}

/** Review of h-loglvl: cases the differential property test does not generate. */
describe('a log level in the envelope: review cases', () => {
  it.each([['verbose'], ['INFO'], [''], [3], [null], [['info']], ['constructor']])(
    'an invalid level (%j): not the lone path, and the same answer as the SDK path',
    async (level) => {
      const sdk = await post(apps.sdk, apps.sdk.token, 3, level, { text: 'x', levels: SENT });
      const sdkSeen = { ...sdk, body: await sdk.body };
      const before = loneRuns.mock.calls.length;
      const lone = await post(apps.lone, apps.lone.token, 3, level, { text: 'x', levels: SENT });
      const loneSeen = { ...lone, body: await lone.body };
      expect(loneRuns.mock.calls.length - before).toBe(0);
      expect(loneSeen).toEqual(sdkSeen);
      // The SDK refuses the envelope (400, -32602 naming the key) before anything runs.
      expect(loneSeen.status).toBe(400);
      expect(JSON.parse(loneSeen.body)).toMatchObject({
        error: { code: -32602, message: expect.stringContaining(LOG_LEVEL_META_KEY) as unknown },
      });
    },
  );

  it('concurrent calls with one JSON-RPC id, of one agent and of another, at different levels: each line on its own request only', async () => {
    const seen: Record<string, unknown> = {};
    for (const key of ['sdk', 'lone'] as const) {
      const t = apps[key];
      const other = (await t.app.control.addAgent(`other-${key}`)).token;
      const before = loneRuns.mock.calls.length;
      // The upstream's gate (`wait`), opened once all three calls wait at it — each after its
      // lines — whatever reached the agent by then: all three are open at once.
      const waiting: (() => void)[] = [];
      let allIn!: () => void;
      const arrived = new Promise<void>((r) => (allIn = r));
      // A thenable that records who waits (`await` calls `then` with its resume function).
      const gate = {
        then(ok: () => void) {
          if (waiting.push(ok) === 3) allIn();
        },
      };
      (upstream as unknown as { gate: unknown }).gate = gate;
      const sent = [
        post(t, t.token, 1, 'error', { text: 'A', levels: SENT, wait: true }),
        post(t, t.token, 1, 'debug', { text: 'C', levels: SENT, wait: true }),
        post(t, other, 1, 'warning', { text: 'B', levels: SENT, wait: true }),
      ];
      await arrived;
      for (const ok of waiting) ok();
      upstream.hold()();
      const open = await Promise.all(sent);
      const bodies = await Promise.all(open.map((o) => o.body));
      expect(loneRuns.mock.calls.length - before).toBe(key === 'lone' ? 3 : 0);
      const [a, c, b] = bodies.map(linesOf);
      const want = (text: string, level: LoggingLevel) =>
        SENT.filter((l) => levelRank(l) >= levelRank(level)).map((l) => `${text}@${l}`);
      expect(a).toEqual(want('A', 'error'));
      expect(c).toEqual(want('C', 'debug'));
      expect(b).toEqual(want('B', 'warning'));
      // The answer last, with the request's own id.
      for (const body of bodies) {
        const last = body.trim().split('\n').at(-1)!;
        expect(JSON.parse(last.slice(6))).toMatchObject({ id: 1, result: {} });
      }
      seen[key] = open.map((o, i) => ({ status: o.status, headers: o.headers, body: bodies[i] }));
    }
    expect(seen['lone']).toEqual(seen['sdk']);
  });
});
