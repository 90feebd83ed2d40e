import { Agent } from 'node:http';
import { Socket } from 'node:net';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, INIT, SessionServer, textOf } from '../../test-support/session-server.js';

/**
 * SessionTransport, the 2025-era Streamable HTTP transport on Node's own request and response
 * (issue 20): real SDK clients of both generations against a real SDK server on it — calls,
 * progress, a server→client request answered by a second POST — and the raw HTTP answers the
 * SDK's own transport gives (status, message, headers), with the one-write answer it adds: one
 * JSON object for a lone call answered first, else one event stream.
 * Where it is stricter than the SDK's: session-transport.security.test.ts.
 */
const srv = new SessionServer();
const { sessions, errors } = srv;
let url: string;
const send = srv.send.bind(srv);
const open = srv.open.bind(srv);

beforeAll(async () => {
  await srv.start();
  url = srv.url;
});
afterAll(() => srv.stop());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  errors.length = 0;
});

describe('SDK clients on the session transport', () => {
  it('v2 client: tools, a call with progress, an elicitation answered by a second POST', async () => {
    const client = new Client(
      { name: 'v2', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { pick: 'blue' },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
    const progress: number[] = [];
    const r = await client.callTool(
      { name: 'echo', arguments: { text: 'hi' } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(textOf(r)).toBe('echo hi');
    expect(progress).toEqual([1]);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { ask: true } }))).toBe(
      'picked blue',
    );
    await client.close();
  });

  it('v1 client (SDK 1.x): the same, and DELETE ends the session', async () => {
    const client = new Client1(
      { name: 'v1', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { pick: 'red' },
    }));
    const transport = new Transport1(new URL(url));
    await client.connect(transport);
    const sid = transport.sessionId!;
    expect(sessions.has(sid)).toBe(true);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'v1' } }))).toBe(
      'echo v1',
    );
    expect(textOf(await client.callTool({ name: 'echo', arguments: { ask: true } }))).toBe(
      'picked red',
    );
    await transport.terminateSession();
    expect(sessions.has(sid)).toBe(false);
    await client.close();
  });
});

describe('HTTP answers of the session transport', () => {
  it('a lone call answered first is one JSON object: headers and body in one write, with its session id', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const h = await open(agent);
    await send('POST', call(1, { text: 'warm' }), h, agent);
    // The head's FIRST_EVENT_WAIT_MS timer never runs here: JSON because the answer came first,
    // whatever the machine's load.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let writes = 0;
    const proto = Socket.prototype as unknown as { _writeGeneric: (...a: unknown[]) => unknown };
    const original = proto._writeGeneric;
    const port = Number(new URL(url).port);
    vi.spyOn(proto, '_writeGeneric').mockImplementation(function (this: Socket, ...a: unknown[]) {
      if (this.localPort === port) writes++;
      return original.apply(this, a);
    });
    const r = await send('POST', call(2, { text: 'one' }), h, agent);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['mcp-session-id']).toBe(h['mcp-session-id']);
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.text)));
    expect(JSON.parse(r.text)).toEqual({
      result: { content: [{ type: 'text', text: 'echo one' }] },
      jsonrpc: '2.0',
      id: 2,
    });
    expect(writes).toBe(1);
    agent.destroy();
  });

  it('a call that sends progress or a log line before its answer stays an event stream, in order', async () => {
    const h = await open();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const tracked = call(3, { text: 'p' });
    const withToken = { ...tracked, params: { ...tracked.params, _meta: { progressToken: 't' } } };
    const progress = await send('POST', withToken, h);
    expect(progress.headers['content-type']).toBe('text/event-stream');
    expect(progress.headers['mcp-session-id']).toBe(h['mcp-session-id']);
    const events = progress.text
      .match(/^data: .*$/gm)!
      .map((l) => JSON.parse(l.slice(6)) as object);
    expect(events).toEqual([
      expect.objectContaining({ method: 'notifications/progress' }),
      expect.objectContaining({ id: 3, result: expect.anything() as unknown }),
    ]);
    const logged = await send('POST', call(4, { text: 'l', log: 2 }), h);
    expect(logged.headers['content-type']).toBe('text/event-stream');
    expect(logged.text.match(/^data: .*$/gm)).toHaveLength(3);
  });

  it('a batch holding one call is still answered as an event stream (a batch answers with an array)', async () => {
    const h = await open();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const r = await send('POST', [call(5, { text: 'b' })], h);
    expect(r.headers['content-type']).toBe('text/event-stream');
    expect(r.text).toContain('echo b');
  });

  it('a call that waits (an approval) gets its headers at once, keep-alive comments, then its answer', async () => {
    const h = await open();
    const release = srv.hold();
    const waiting = await srv.stream('POST', h, call(3, { text: 'late', wait: true }));
    // The status and headers arrived while the call is still held at the gate.
    expect(waiting.res.statusCode).toBe(200);
    expect(waiting.res.headers['content-type']).toBe('text/event-stream');
    await waiting.seen(': keepalive\n\n'); // a comment line while the call waits (30 ms here)
    release();
    const text = await waiting.body;
    expect(text.startsWith(': keepalive\n\n')).toBe(true);
    expect(text).toContain('echo late');
  });

  it('a batch of two calls is answered on one stream, ended after both', async () => {
    const h = await open();
    const r = await send('POST', [call(1, { text: 'a' }), call(2, { text: 'b' })], h);
    expect(r.text.match(/^event: message$/gm)).toHaveLength(2);
    expect(r.text).toContain('echo a');
    expect(r.text).toContain('echo b');
  });

  it('refuses as the SDK transport does: 406, 400, 404, 409, 405', async () => {
    const h = await open();
    const json = (r: { text: string }) =>
      JSON.parse(r.text) as { error: { code: number; message: string } };
    const notAcceptable = await send('POST', call(1), { ...h, accept: 'application/json' });
    expect(notAcceptable.status).toBe(406);
    expect(json(notAcceptable).error.message).toMatch(
      /must accept both application\/json and text\/event-stream/,
    );
    const version = await send('POST', call(1), { ...h, 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(json(version).error.message).toMatch(/Unsupported protocol version: 1999-01-01/);
    const again = await send('POST', INIT, h);
    expect(again.status).toBe(400);
    expect(json(again).error).toMatchObject({
      code: -32600,
      message: 'Invalid Request: Server already initialized',
    });
    const foreign = await send('POST', call(1), {
      ...h,
      'x-route': h['mcp-session-id']!,
      'mcp-session-id': 'other',
    });
    expect(foreign.status).toBe(404);
    expect(json(foreign).error).toMatchObject({ code: -32001, message: 'Session not found' });
    const first = await srv.stream('GET', h);
    const second = await send('GET', undefined, { ...h, accept: 'text/event-stream' });
    const get = {
      status: first.res.statusCode,
      type: first.res.headers['content-type'],
      second: second.status,
    };
    first.res.destroy();
    expect(get).toMatchObject({ status: 200, type: 'text/event-stream', second: 409 });
    const put = await send('PUT', call(1), h);
    expect(put.status).toBe(405);
    expect(put.headers['allow']).toBe('GET, POST, DELETE');
  });

  it('an answer whose client went away is dropped and reported, and the session goes on', async () => {
    const h = await open();
    const release = srv.hold();
    const undeliverable = new Promise<void>((resolve) => {
      const t = sessions.get(h['mcp-session-id']!)!;
      const prior = t.onerror;
      t.onerror = (e) => {
        prior?.(e);
        if (/undeliverable/.test(e.message)) resolve();
      };
    });
    const serverSawClose = new Promise<void>((r) => (srv.onResponseClosed = r));
    const gone = await srv.stream('POST', h, call(7, { wait: true }));
    expect(gone.res.headers['content-type']).toBe('text/event-stream');
    gone.res.destroy(); // the client goes away
    await serverSawClose;
    srv.onResponseClosed = undefined;
    release();
    await undeliverable;
    expect(errors.some((e) => e.includes('request ID 7 is undeliverable'))).toBe(true);
    const r = await send('POST', call(8, { text: 'after' }), h);
    expect(r.text).toContain('echo after');
  });

  it('busy while a request is open or one of ours awaits its answer; listening while the GET stream is open', async () => {
    const h = await open();
    const t = sessions.get(h['mcp-session-id']!)!;
    expect([t.busy(), t.listening()]).toEqual([false, false]);
    const getStream = await srv.stream('GET', h);
    expect(t.listening()).toBe(true);
    // A call still running keeps the session busy (the session budget never ends it).
    const release = srv.hold();
    const running = await srv.stream('POST', h, call(20, { wait: true }));
    expect(t.busy()).toBe(true);
    release();
    await running.body;
    expect(t.busy()).toBe(false);
    // A request of ours to the client: busy until the client answers it...
    await t.send({ jsonrpc: '2.0', id: 'ours-1', method: 'roots/list' });
    await getStream.seen('"id":"ours-1"');
    expect(t.busy()).toBe(true);
    const answer = { jsonrpc: '2.0', id: 'ours-1', result: { roots: [] } };
    expect((await send('POST', answer, h)).status).toBe(202);
    expect(t.busy()).toBe(false);
    // ...or until we cancel it (the SDK's timeout does so).
    await t.send({ jsonrpc: '2.0', id: 'ours-2', method: 'roots/list' });
    expect(t.busy()).toBe(true);
    await t.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'ours-2' },
    });
    expect(t.busy()).toBe(false);
    const serverSawClose = new Promise<void>((r) => (srv.onResponseClosed = r));
    getStream.res.destroy(); // the client stops listening
    await serverSawClose;
    srv.onResponseClosed = undefined;
    expect(t.listening()).toBe(false);
  });

  it("a request outside the client's requests, with no GET stream open, fails at once saying why", async () => {
    const h = await open();
    const t = sessions.get(h['mcp-session-id']!)!;
    await expect(t.send({ jsonrpc: '2.0', id: 'lost', method: 'roots/list' })).rejects.toThrow(
      /no GET stream open on session .*roots\/list request outside its requests cannot reach it/,
    );
    expect(t.busy()).toBe(false);
  });

  it('close() ends the open GET stream and later requests get 404', async () => {
    const h = await open();
    const t = sessions.get(h['mcp-session-id']!)!;
    const getStream = await srv.stream('GET', h);
    void t.close();
    await getStream.body; // ends: close() ended the stream
    const ended = getStream.res.statusCode;
    expect(ended).toBe(200);
    expect(getStream.res.complete).toBe(true);
    const after = await send('POST', call(1), h);
    expect(after.status).toBe(404);
  });
});
