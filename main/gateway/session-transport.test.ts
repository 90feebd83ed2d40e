import { randomUUID } from 'node:crypto';
import { Agent, createServer, request, type Server as HttpServer } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server, type AuthInfo } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionTransport } from './session-transport.js';

/**
 * SessionTransport, the 2025-era Streamable HTTP transport on Node's own request and response
 * (issue 20): real SDK clients of both generations against a real SDK server on it — calls,
 * progress, a server→client request answered by a second POST — and the raw HTTP answers the
 * SDK's own transport gives (status, message, headers), with the one-write answer it adds.
 */
const auth: AuthInfo = { token: 'x', clientId: 'agent', scopes: [], extra: { agent: 'agent' } };
const sessions = new Map<string, SessionTransport>();
const errors: string[] = [];
let gate: Promise<void> = Promise.resolve();
/** Called when the server side of any response closes (the client went away, or it ended). */
let onResponseClosed: (() => void) | undefined;
let http: HttpServer;
let url: string;

function mcpServer(): Server {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({
    tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler('tools/call', async (req, ctx) => {
    const args = (req.params.arguments ?? {}) as { text?: string; ask?: boolean; wait?: boolean };
    const token = req.params._meta?.progressToken;
    if (token !== undefined)
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, total: 2 },
      });
    if (args.wait) await gate;
    if (args.ask) {
      const answer = await server.elicitInput({
        mode: 'form',
        message: 'Which?',
        requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } },
      });
      return { content: [{ type: 'text', text: `picked ${String(answer.content?.['pick'])}` }] };
    }
    return { content: [{ type: 'text', text: `echo ${args.text ?? ''}` }] };
  });
  return server;
}

beforeAll(async () => {
  http = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as unknown) : undefined;
      res.once('close', () => onResponseClosed?.());
      // x-route: deliver to that session whatever Mcp-Session-Id says (the transport's own check).
      const sid = req.headers['x-route'] ?? req.headers['mcp-session-id'];
      const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (known) return known.handle(req, res, body, auth);
      const t = new SessionTransport({
        newSessionId: randomUUID,
        onsessioninitialized: (id) => sessions.set(id, t),
        onsessionclosed: (id) => sessions.delete(id),
        keepAliveMs: 30,
      });
      t.onerror = (e) => errors.push(e.message);
      void mcpServer()
        .connect(t)
        .then(() => t.handle(req, res, body, auth));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await Promise.all([...sessions.values()].map((t) => t.close()));
  http.closeAllConnections();
  await new Promise((r) => http.close(r));
});
afterEach(() => {
  vi.restoreAllMocks();
  errors.length = 0;
});

const textOf = (r: unknown) =>
  ((r as { content: Array<{ text: string }> }).content[0] ?? { text: '' }).text;

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

/** A raw HTTP exchange; `headers` add to Accept and Content-Type. */
function send(
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
  agent?: Agent,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ...(agent ? { agent } : {}),
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', v: '1' } },
};
const call = (id: number, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: args },
});

async function open(agent?: Agent): Promise<Record<string, string>> {
  const r = await send('POST', INIT, {}, agent);
  expect(r.status).toBe(200);
  const sid = r.headers['mcp-session-id'] as string;
  const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
  expect(
    (await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status,
  ).toBe(202);
  return h;
}

describe('HTTP answers of the session transport', () => {
  it('an answer is one event stream: headers, event and end in one write', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const h = await open(agent);
    await send('POST', call(1, { text: 'warm' }), h, agent);
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
    expect(r.headers['content-type']).toBe('text/event-stream');
    expect(r.headers['mcp-session-id']).toBe(h['mcp-session-id']);
    expect(r.text).toBe(
      'event: message\ndata: {"result":{"content":[{"type":"text","text":"echo one"}]},"jsonrpc":"2.0","id":2}\n\n',
    );
    expect(writes).toBe(1);
    agent.destroy();
  });

  it('a call that waits (an approval) gets its headers at once, keep-alive comments, then its answer', async () => {
    const h = await open();
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    const { body, kept } = await new Promise<{ body: Promise<string>; kept: Promise<void> }>(
      (resolve, reject) => {
        const req = request(
          url,
          {
            method: 'POST',
            headers: {
              ...h,
              accept: 'application/json, text/event-stream',
              'content-type': 'application/json',
            },
          },
          (res) => {
            // The status and headers arrived while the call is still held at the gate.
            expect(res.statusCode).toBe(200);
            expect(res.headers['content-type']).toBe('text/event-stream');
            let text = '';
            let keptAlive!: () => void;
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              text += c;
              if (text.includes(': keepalive\n\n')) keptAlive();
            });
            resolve({
              body: new Promise((r) => res.on('end', () => r(text))),
              kept: new Promise((r) => (keptAlive = r)),
            });
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(call(3, { text: 'late', wait: true })));
      },
    );
    await kept; // a comment line while the call waits (the harness sets 30 ms)
    release();
    const text = await body;
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
    const get = await new Promise<{ status: number; type: unknown; second: number }>((resolve) => {
      const req = request(
        url,
        { method: 'GET', headers: { ...h, accept: 'text/event-stream' } },
        (res) => {
          void send('GET', undefined, { ...h, accept: 'text/event-stream' }).then((second) => {
            resolve({
              status: res.statusCode ?? 0,
              type: res.headers['content-type'],
              second: second.status,
            });
            req.destroy();
          });
        },
      );
      req.end();
    });
    expect(get).toMatchObject({ status: 200, type: 'text/event-stream', second: 409 });
    const put = await send('PUT', call(1), h);
    expect(put.status).toBe(405);
    expect(put.headers['allow']).toBe('GET, POST, DELETE');
  });

  it('an answer whose client went away is dropped and reported, and the session goes on', async () => {
    const h = await open();
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    const undeliverable = new Promise<void>((resolve) => {
      const t = sessions.get(h['mcp-session-id']!)!;
      const prior = t.onerror;
      t.onerror = (e) => {
        prior?.(e);
        if (/undeliverable/.test(e.message)) resolve();
      };
    });
    const serverSawClose = new Promise<void>((r) => (onResponseClosed = r));
    await new Promise<void>((resolve) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: {
            ...h,
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
          },
        },
        (res) => {
          expect(res.headers['content-type']).toBe('text/event-stream');
          req.destroy();
          resolve();
        },
      );
      req.on('error', () => {});
      req.end(JSON.stringify(call(7, { wait: true })));
    });
    await serverSawClose;
    onResponseClosed = undefined;
    release();
    await undeliverable;
    expect(errors.some((e) => e.includes('request ID 7 is undeliverable'))).toBe(true);
    const r = await send('POST', call(8, { text: 'after' }), h);
    expect(r.text).toContain('echo after');
  });

  it('close() ends the open GET stream and later requests get 404', async () => {
    const h = await open();
    const t = sessions.get(h['mcp-session-id']!)!;
    const ended = new Promise<number>((resolve) => {
      const req = request(
        url,
        { method: 'GET', headers: { ...h, accept: 'text/event-stream' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          void t.close();
        },
      );
      req.end();
    });
    expect(await ended).toBe(200);
    const after = await send('POST', call(1), h);
    expect(after.status).toBe(404);
  });
});
