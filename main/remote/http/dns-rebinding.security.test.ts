import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { FakeUpstream } from '../../../test-support/fake-upstream.js';
import { NEVER_MS } from '../../../test-support/remote-app.js';
import { Logger } from '../../platform/log.js';
import { RemoteSource } from '../remote-source.js';
import { connectUpstream, describeFailure } from '../upstream/upstream.js';
import { guardedLookup, connectionRule, type Resolver } from './address-guard.js';
import { leanFetch } from './lean-fetch.js';

/**
 * A server the user adds by a host name is reached where that name resolves at each connection.
 * Its owner chooses the answer, and may change it (DNS rebinding): to 127.0.0.1, the requests —
 * with the user's header secrets — went to whatever listens on this computer at that port. The
 * connection is judged on the address each socket connects to (address-guard.ts connectionRule).
 */
const cleanup = cleanupAfterEach();
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(() => r(null)))));
});

/** A local service that counts the requests that reach it. */
async function localService(): Promise<{ port: number; asked: string[] }> {
  const asked: string[] = [];
  const s = createServer((req, res) => {
    asked.push(`${req.method} ${req.url} ${req.headers['x-api-key'] ?? ''}`);
    res.writeHead(404).end();
  });
  servers.push(s);
  const port = await new Promise<number>((r) =>
    s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)),
  );
  return { port, asked };
}

const toLoopback: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);

async function connect(url: string, only: 'sse' | 'streamable-http', resolve: Resolver) {
  return connectUpstream({
    url: new URL(url),
    headers: { 'X-API-Key': 'secret-key-1234' },
    timeoutMs: NEVER_MS,
    clientVersion: '1',
    only,
    resolve,
  }).then(
    () => null,
    (e: unknown) => e as Error,
  );
}

/** The error and its causes, as one text (the SDK wraps the fetch's failure). */
function chain(err: unknown): string {
  const out: string[] = [];
  for (let e = err; e instanceof Error; e = (e as { cause?: unknown }).cause) out.push(e.message);
  return out.join(' <- ');
}

describe('a remote server by host name never reaches this computer through DNS', () => {
  it.each(['sse', 'streamable-http'] as const)(
    '%s: a name that resolves to 127.0.0.1 is refused; the local service is never asked',
    async (only) => {
      const local = await localService();
      const err = await connect(`http://mcp.rebind.test:${local.port}/mcp`, only, toLoopback);
      expect(local.asked).toEqual([]);
      expect(chain(err)).toContain('mcp.rebind.test resolves to 127.0.0.1');
      expect(chain(err)).toContain('on this computer');
      // What the server's status line says.
      expect(describeFailure(err)).toMatch(/^refused: mcp\.rebind\.test resolves to 127\.0\.0\.1/);
      // …and what to write instead (a name in /etc/hosts pointing at 127.0.0.1 ends here too).
      expect(describeFailure(err)).toContain(
        'For a server on this computer, write localhost, 127.0.0.1 or a name ending in .localhost in its URL',
      );
    },
  );

  it.each(['sse', 'streamable-http'] as const)(
    '%s: the user naming this computer is taken as given (same service, same resolver)',
    async (only) => {
      const local = await localService();
      await connect(`http://127.0.0.1:${local.port}/mcp`, only, toLoopback);
      await connect(`http://localhost:${local.port}/mcp`, only, toLoopback);
      expect(local.asked.length).toBeGreaterThanOrEqual(2);
      expect(local.asked[0]).toContain('secret-key-1234');
    },
  );

  it('a name on the user network (LAN) is let through; link-local and loopback are not', async () => {
    const rule = connectionRule('http://nas.lan:8080/mcp');
    const answer =
      (address: string): Resolver =>
      () =>
        Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]);
    const look = (address: string) =>
      new Promise<string>((resolve) =>
        guardedLookup(rule, answer(address))('nas.lan', { all: true }, (err, a) =>
          resolve(err ? `refused: ${err.message}` : JSON.stringify(a)),
        ),
      );
    expect(await look('192.168.1.20')).toContain('192.168.1.20');
    expect(await look('10.1.2.3')).toContain('10.1.2.3');
    expect(await look('169.254.169.254')).toMatch(/^refused: .*link-local/);
    expect(await look('::ffff:127.0.0.1')).toMatch(/^refused: .*this computer/);
    expect(await look('fe80::1')).toMatch(/^refused/);
  });

  it('a refused answer among several is never handed to the socket (happy eyeballs may try any)', async () => {
    const rule = connectionRule('https://mcp.example.com/mcp');
    const answer =
      (...addresses: string[]): Resolver =>
      () =>
        Promise.resolve(
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
    const look = (resolve: Resolver) =>
      new Promise<{ err: Error | null; got: unknown }>((r) =>
        guardedLookup(rule, resolve)('mcp.example.com', { all: true }, (err, got) =>
          r({ err, got }),
        ),
      );
    // The socket gets only the public address: it cannot try ::1.
    expect(await look(answer('93.184.215.14', '::1'))).toEqual({
      err: null,
      got: [{ address: '93.184.215.14', family: 4 }],
    });
    // Nothing allowed: the name is refused, the refusal naming the first address.
    const none = await look(answer('::1', '169.254.169.254'));
    expect(none.err?.message).toContain('resolves to ::1');
  });
});

describe('the lean client never hands a judged connection to the global fetch', () => {
  it('a body it does not send itself is refused, not sent past the lookup', async () => {
    const local = await localService();
    const lookup = guardedLookup(connectionRule('http://mcp.rebind.test/mcp'), toLoopback);
    const f = leanFetch({ 'X-API-Key': 'secret-key-1234' }, undefined, lookup);
    // 127.0.0.1 in the URL: the global fetch would connect without asking any lookup.
    const err = await f(`http://127.0.0.1:${local.port}/mcp`, {
      method: 'POST',
      body: new Uint8Array([123, 125]),
    }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/^fetch failed/);
    expect(local.asked).toEqual([]);
  });
});

describe('through the source the app builds (the resolver given to its constructor)', () => {
  const NEVER = 10 * 60_000;
  const timings = {
    connectMs: NEVER,
    listMs: NEVER,
    readyMs: NEVER,
    healthMs: NEVER,
    callIdleMs: NEVER,
    backoffInitialMs: NEVER,
    backoffMaxMs: NEVER,
  };
  function source(url: string, resolve: Resolver): RemoteSource {
    const s = new RemoteSource(
      { name: 'up', url, headers: {} },
      { logger: new Logger({ stderr: false }), version: 'test', timings, resolve },
    );
    cleanup.push(() => s.stop());
    s.start();
    return s;
  }
  const settled = (s: RemoteSource) =>
    new Promise<void>((resolve) => {
      const done = () => ['ready', 'error'].includes(s.status().state);
      if (done()) return resolve();
      const off = s.onChange(() => {
        if (done()) {
          off();
          resolve();
        }
      });
    });

  it('a real MCP server on this computer, reached by a name: refused, and the status says why', async () => {
    const up = new FakeUpstream({ tools: [{ name: 'echo' }] });
    await up.start();
    cleanup.push(() => up.stop());
    const port = new URL(up.url).port;
    const s = source(`http://mcp.rebind.test:${port}/mcp`, toLoopback);
    await settled(s);
    const st = s.status();
    expect(st.state).toBe('error');
    expect(st.state === 'error' ? st.detail : '').toContain(
      'mcp.rebind.test resolves to 127.0.0.1',
    );
    expect(st.state === 'error' ? st.detail : '').toContain('write localhost, 127.0.0.1');
    // The same server by the URL naming this computer connects.
    const ok = source(up.url, toLoopback);
    await settled(ok);
    expect(ok.status().state).toBe('ready');
  });
});
