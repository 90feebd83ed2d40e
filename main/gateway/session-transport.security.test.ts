import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, SessionServer } from '../../test-support/session-server.js';

/**
 * Where SessionTransport (issue 20) is stricter than the SDK transport it replaced, which would
 * otherwise hang a request, keep a stream open for nothing, or grow without bound: a malformed
 * initialize opens no session, a request id still open is refused, a cancelled call's stream
 * ends, and a client that stops reading its stream is cut off.
 */
const srv = new SessionServer();
beforeAll(() => srv.start());
afterAll(() => srv.stop());
afterEach(() => {
  srv.errors.length = 0;
  srv.onResponseClosed = undefined;
});

const json = (r: { text: string }) =>
  JSON.parse(r.text) as { error: { code: number; message: string } };

describe('SessionTransport refuses what would hang or grow', () => {
  it('a malformed initialize opens no session (400, as the SDK answers)', async () => {
    const before = srv.sessions.size;
    const r = await srv.send('POST', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    expect(r.status).toBe(400);
    expect(json(r).error.message).toBe('Bad Request: Server not initialized');
    expect(r.headers['mcp-session-id']).toBeUndefined();
    expect(srv.sessions.size).toBe(before);
  });

  it('a request id still open in the session is refused; the open call still gets its answer', async () => {
    const h = await srv.open();
    const release = srv.hold();
    const first = await srv.stream('POST', h, call(5, { text: 'first', wait: true }));
    const reused = await srv.send('POST', call(5, { text: 'second' }), h);
    expect(reused.status).toBe(400);
    expect(json(reused).error).toMatchObject({
      code: -32600,
      message: 'Invalid Request: request ID 5 is already in use in this session',
    });
    const twice = await srv.send('POST', [call(6), call(6)], h);
    expect(twice.status).toBe(400);
    release();
    expect(await first.body).toContain('echo first');
  });

  it('a cancelled call gets no answer, and its stream ends instead of idling', async () => {
    const h = await srv.open();
    const release = srv.hold();
    const waiting = await srv.stream('POST', h, call(7, { text: 'never', wait: true }));
    const cancel = await srv.send(
      'POST',
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } },
      h,
    );
    expect(cancel.status).toBe(202);
    const text = await waiting.body; // ends while the call is still held at the gate
    expect(text).not.toContain('never');
    release();
    // The session goes on; the cancelled call's late end is not an error.
    expect((await srv.send('POST', call(8, { text: 'next' }), h)).text).toContain('echo next');
    expect(srv.errors.filter((e) => e.includes('request ID 7'))).toEqual([]);
  });

  it('a client that stops reading its GET stream is cut off; the session takes a new one', async () => {
    const h = await srv.open();
    const stalled = await srv.stream('GET', h);
    stalled.res.pause(); // reads nothing more: the socket's buffers fill, then Airlock's queue
    const transport = srv.sessions.get(h['mcp-session-id']!)!;
    const cut = new Promise<void>((r) => (srv.onResponseClosed = r));
    let cutOff = false;
    void cut.then(() => (cutOff = true));
    const line = {
      jsonrpc: '2.0' as const,
      method: 'notifications/message',
      params: { level: 'info', data: 'x'.repeat(64 * 1024) },
    };
    // Up to 64 MiB of log lines, far past the 4 MiB queue bound and the kernel's socket buffers.
    for (let i = 0; i < 1024 && !cutOff; i++) {
      await transport.send(line);
      await new Promise((r) => setImmediate(r));
    }
    expect(cutOff).toBe(true);
    const again = await srv.stream('GET', h);
    expect(again.res.statusCode).toBe(200);
    again.res.destroy();
    stalled.res.destroy();
  });
});
