import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { call, SessionServer, textOf } from '../../test-support/session-server.js';
import { FIRST_EVENT_WAIT_MS } from './event-stream.js';

/**
 * Review of issue 34's JSON answer (event-stream.ts endWithAnswer): the edges its own tests did
 * not reach. The head's timer is faked so that JSON-or-stream is decided by what came first, not
 * by the machine's speed; each case checks that the answer arrives once, whole, and that the
 * session goes on.
 */
const srv = new SessionServer();

beforeAll(() => srv.start());
afterAll(() => srv.stop());
afterEach(() => {
  vi.useRealTimers();
  srv.errors.length = 0;
});

/** The JSON-RPC messages of an answer, whichever form it took. */
function messagesOf(r: { headers: Record<string, unknown>; text: string }): unknown[] {
  if (r.headers['content-type'] === 'application/json') return [JSON.parse(r.text)];
  return (r.text.match(/^data: .*$/gm) ?? []).map((l) => JSON.parse(l.slice(6)) as unknown);
}

describe('the JSON answer of a lone call, at its edges', () => {
  it('a multi-byte answer larger than the socket buffer: Content-Length in bytes, body whole', async () => {
    const h = await srv.open();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const text = '€😀'.repeat(400_000) + 'end'; // ~2.8 MB of UTF-8, many socket writes
    const r = await srv.send('POST', call(1, { text }), h);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.text)));
    expect(textOf((JSON.parse(r.text) as { result: unknown }).result)).toBe(`echo ${text}`);
  });

  // The gate opens in the same synchronous turn as the timer fires, before or after it: the answer
  // needs microtasks to come, so the head goes out first both ways and the answer ends the stream.
  it.each(['timer, then gate', 'gate, then timer'])(
    'the head timer fires in the turn the answer is released (%s): one event stream, the answer once',
    async (order) => {
      const h = await srv.open();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const release = srv.hold();
      const t = srv.sessions.get(h['mcp-session-id']!)!;
      const answered = srv.send('POST', call(2, { text: 'race', wait: true }), h);
      await eventually(() => expect(t.busy()).toBe(true));
      if (order === 'timer, then gate') {
        vi.advanceTimersByTime(FIRST_EVENT_WAIT_MS);
        release();
      } else {
        release();
        vi.advanceTimersByTime(FIRST_EVENT_WAIT_MS);
      }
      const r = await answered;
      expect(r.status).toBe(200);
      expect(r.headers['mcp-session-id']).toBe(h['mcp-session-id']);
      expect(r.headers['content-type']).toBe('text/event-stream');
      expect(messagesOf(r)).toEqual([expect.objectContaining({ id: 2 })]);
      expect(textOf((messagesOf(r)[0] as { result: unknown }).result)).toBe('echo race');
      expect(srv.errors).toEqual([]);
    },
  );

  it('a client that hangs up while the head is held: the answer is dropped, reported, the session goes on', async () => {
    const h = await srv.open();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const release = srv.hold();
    const t = srv.sessions.get(h['mcp-session-id']!)!;
    const req = request(srv.url, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...h,
      },
    });
    req.on('error', () => {});
    req.end(JSON.stringify(call(3, { text: 'gone', wait: true })));
    await eventually(() => expect(t.busy()).toBe(true));
    // Set now: the only response open on the server is this call's.
    const serverSawClose = new Promise<void>((r) => (srv.onResponseClosed = r));
    req.destroy(); // before any byte of the answer
    await serverSawClose;
    srv.onResponseClosed = undefined;
    const undeliverable = eventually(() =>
      expect(srv.errors.some((e) => e.includes('request ID 3 is undeliverable'))).toBe(true),
    );
    release();
    await undeliverable;
    const next = await srv.send('POST', call(4, { text: 'after' }), h);
    expect(next.headers['content-type']).toBe('application/json');
    expect(next.text).toContain('echo after');
  });

  it('notifications/cancelled while the head is held: the call stream ends with no answer; the next call is JSON', async () => {
    const h = await srv.open();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const release = srv.hold();
    const t = srv.sessions.get(h['mcp-session-id']!)!;
    const held = srv.send('POST', call(5, { text: 'never', wait: true }), h);
    await eventually(() => expect(t.busy()).toBe(true));
    const cancel = await srv.send(
      'POST',
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } },
      h,
    );
    expect(cancel.status).toBe(202);
    const r = await held;
    expect(r.status).toBe(200);
    expect(messagesOf(r)).toEqual([]);
    release();
    const next = await srv.send('POST', call(6, { text: 'next' }), h);
    expect(next.headers['content-type']).toBe('application/json');
    expect(next.text).toContain('echo next');
    expect(srv.errors.filter((e) => e.includes('request ID 5'))).toEqual([]);
  });

  it.each([
    [
      'v2 Client',
      async () => {
        const c = new Client(
          { name: 'v2', version: '1' },
          { versionNegotiation: { mode: 'legacy' } },
        );
        await c.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
        return {
          c,
          call: (text: string, signal: AbortSignal) =>
            c.callTool({ name: 'echo', arguments: { text, wait: true } }, { signal }),
          plain: (text: string) => c.callTool({ name: 'echo', arguments: { text } }),
        };
      },
    ],
    [
      'SDK 1.x Client',
      async () => {
        const c = new Client1({ name: 'v1', version: '1' });
        await c.connect(new Transport1(new URL(srv.url)));
        return {
          c,
          call: (text: string, signal: AbortSignal) =>
            c.callTool({ name: 'echo', arguments: { text, wait: true } }, undefined, { signal }),
          plain: (text: string) => c.callTool({ name: 'echo', arguments: { text } }),
        };
      },
    ],
  ])(
    '%s aborts a call while the head is held; later calls on the session are answered',
    async (_n, connect) => {
      const { c, call: slow, plain } = await connect();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const release = srv.hold();
      const abort = new AbortController();
      const aborted = slow('never', abort.signal).then(
        () => 'answered',
        (e: Error) => e.message,
      );
      await eventually(() => expect([...srv.sessions.values()].some((t) => t.busy())).toBe(true));
      abort.abort('changed my mind');
      expect(await aborted).not.toBe('answered');
      release();
      expect(textOf(await plain('after'))).toBe('echo after');
      await c.close();
    },
  );
});
