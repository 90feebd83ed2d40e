import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import type { AddressRule, Resolver } from './address-guard.js';
import { PINNED_TIMEOUT_MS, pinnedFetch } from './pinned-fetch.js';

/**
 * pinned-fetch.ts's promises beyond the address checks (address-guard.property.test.ts): an
 * OAuth request that gets no answer fails in time; a server's event stream is never cut by that
 * limit; TLS names the host, not the address the name resolved to.
 */
const cleanup = cleanupAfterEach();
afterEach(() => {
  vi.useRealTimers();
});

/** Names resolve to 127.0.0.1; the rule lets this computer through (only link-local refused). */
const toLoopback: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
const RULE: AddressRule = { refused: new Set(['link-local']) };

/** A server whose handler is the test's; `requests` resolves each request as it arrives. */
async function server(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const s = createServer(handle);
  cleanup.push(
    () =>
      new Promise((r) => {
        s.closeAllConnections();
        s.close(r);
      }),
  );
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

describe('an OAuth request that gets no answer', () => {
  it(`fails after ${PINNED_TIMEOUT_MS / 1000} s with the origin named, and its connection is closed`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let arrived!: () => void;
    const asked = new Promise<void>((r) => (arrived = r));
    let closed!: () => void;
    const gone = new Promise<void>((r) => (closed = r));
    const port = await server((req) => {
      req.socket.on('close', closed);
      arrived(); // …and never answered
    });
    const f = pinnedFetch(RULE, toLoopback);
    const outcome = f(`http://as.test:${port}/token?client_secret=s3cr3t`, {
      method: 'POST',
      body: 'grant_type=refresh_token',
    }).then(
      () => null,
      (e: unknown) => e as { message: string; cause?: { code?: string; message?: string } },
    );
    let settled = false;
    void outcome.then(() => (settled = true));
    await asked;
    vi.advanceTimersByTime(PINNED_TIMEOUT_MS - 1);
    await new Promise(setImmediate);
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    const err = await outcome;
    expect(err?.message).toBe('fetch failed');
    expect(err?.cause?.code).toBe('ETIMEDOUT');
    expect(err?.cause?.message).toBe(`no answer from http://as.test:${port} within 30 s`);
    await gone;
  });

  it('an answer in time clears its timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const port = await server((_req, res) => res.end('{"ok":true}'));
    const r = await pinnedFetch(RULE, toLoopback)(`http://as.test:${port}/m`);
    expect(await r.json()).toEqual({ ok: true });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("a server's answers in stream mode (the MCP connection)", () => {
  it('a slow answer (a long tool call) and a long-lived event stream are never cut by that limit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let arrived!: (res: ServerResponse) => void;
    const asked = new Promise<ServerResponse>((r) => (arrived = r));
    const port = await server((_req, res) => arrived(res));
    const answer = pinnedFetch(RULE, toLoopback, { stream: true })(`http://mcp.test:${port}/mcp`, {
      method: 'POST',
      body: '{}',
    });
    const res = await asked;
    // No answer yet for ten times the OAuth limit: the request is still open.
    vi.advanceTimersByTime(PINNED_TIMEOUT_MS * 10);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': open\n\n');
    const r = await answer;
    const reader = r.body!.getReader();
    const dec = new TextDecoder();
    expect(dec.decode((await reader.read()).value)).toBe(': open\n\n');
    vi.advanceTimersByTime(PINNED_TIMEOUT_MS * 10);
    res.write('data: late\n\n');
    expect(dec.decode((await reader.read()).value)).toBe('data: late\n\n');
    await reader.cancel();
  });
});

describe('TLS', () => {
  it('names the host (SNI), not the address it resolved to', async () => {
    let named!: (name: string) => void;
    const sni = new Promise<string>((r) => (named = r));
    // No certificate at all: the handshake fails after the client's hello, which names the host.
    const s = createTlsServer({
      SNICallback: (name, cb) => {
        named(name);
        cb(new Error('no certificate here'), undefined);
      },
    });
    s.on('tlsClientError', () => {});
    cleanup.push(() => new Promise((r) => s.close(r)));
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    const err = await pinnedFetch(
      RULE,
      toLoopback,
    )(`https://as.test:${port}/token`).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe('fetch failed');
    expect(await sni).toBe('as.test');
  });
});

describe('stream mode keeps its connections alive, judged by its own rule only', () => {
  /** A keep-alive server answering `{}` that counts the connections made to it. */
  async function counting() {
    let n = 0;
    const s = createServer((_req, res) => res.end('{}'));
    s.on('connection', () => n++);
    cleanup.push(
      () =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    );
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return { port: (s.address() as AddressInfo).port, connections: () => n };
  }

  it("a connection's requests share one socket", async () => {
    const { port, connections } = await counting();
    const f = pinnedFetch(RULE, toLoopback, { stream: true });
    for (let i = 0; i < 3; i++) {
      const r = await f(`http://mcp.test:${port}/mcp`, { method: 'POST', body: '{}' });
      await r.text();
    }
    expect(connections()).toBe(1);
  });

  it("a socket one rule let through is never another's: the stricter fetch is refused", async () => {
    const { port, connections } = await counting();
    const url = `http://mcp.test:${port}/mcp`;
    const lenient = pinnedFetch(RULE, toLoopback, { stream: true });
    await (await lenient(url)).text(); // an idle socket to mcp.test:port now waits in its pool
    const strict = pinnedFetch({ refused: new Set(['local']) }, toLoopback, { stream: true });
    const err = await strict(url).then(
      () => null,
      (e: unknown) => e as { cause?: { code?: string } },
    );
    expect(err?.cause?.code).toBe('EADDRREFUSED');
    expect(connections()).toBe(1);
  });
});
