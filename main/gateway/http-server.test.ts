import { Agent, request } from 'node:http';
import { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Logger } from '../platform/log.js';
import type { ControlRoutes } from './control-routes.js';
import { Gateway, type McpHandler } from './http-server.js';
import { serveWeb } from './web-bridge.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * The /mcp response path of the web-standard leg (web-bridge.ts, the 2026-07-28 era; issue 20):
 * a finished response is not an aborted request, headers and the first event leave together, and
 * an idle event stream still gets its headers at once. A stand-in MCP handler answers with web
 * Responses as the SDK's handler does. The 2025-era leg is session-transport.test.ts.
 */
type Answer = (request: Request) => Promise<Response>;
let answer: Answer;
const seen: Request[] = [];
const mcp: McpHandler = {
  handle: (x) =>
    serveWeb(x.req, x.res, x.raw, x.parsedBody, (request) => {
      seen.push(request);
      return answer(request);
    }),
  close: async () => {},
};
const control = { closeStreams: () => {} } as unknown as ControlRoutes;
const gateway = new Gateway({
  mcp,
  control,
  authenticateAgent: (t) => (t === 'agent-token' ? 'agent' : null),
  logger: new Logger({ stderr: false }),
  version: 'test',
  maxBodyBytes: () => 1 << 20,
  uiDir: tempDir('airlock-ui-'),
});
let port: number;
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  port = await gateway.start(0);
});
afterAll(async () => {
  keepAlive.destroy();
  await gateway.stop(100);
});
afterEach(() => {
  vi.restoreAllMocks();
  seen.length = 0;
});

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });
const EVENT = 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n';

function post(opts: { agent?: Agent; signal?: AbortSignal } = {}) {
  return new Promise<{ status: number; type: string | undefined; body: string }>(
    (resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          agent: opts.agent ?? keepAlive,
          ...(opts.signal ? { signal: opts.signal } : {}),
          headers: {
            authorization: 'Bearer agent-token',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }),
          );
        },
      );
      req.on('error', reject);
      req.end(BODY);
    },
  );
}

/** An event stream: `events` are sent as soon as the stream is read; closes after them unless `open`. */
function sse(events: string[], open = false): Response {
  const enc = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const e of events) c.enqueue(enc.encode(e));
        if (!open) c.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
}

/** Counts socket writes by the gateway's side of its connections. */
function countServerWrites(): () => number {
  let writes = 0;
  const proto = Socket.prototype as unknown as {
    _writeGeneric: (this: Socket, ...a: unknown[]) => unknown;
  };
  const original = proto._writeGeneric;
  vi.spyOn(proto, '_writeGeneric').mockImplementation(function (this: Socket, ...a: unknown[]) {
    if (this.localPort === port) writes++;
    return original.apply(this, a);
  });
  return () => writes;
}

describe('the /mcp response path (issue 20)', () => {
  it('does not abort the request of a response that finished', async () => {
    answer = async () => sse([EVENT]);
    const first = await post();
    expect(first.body).toBe(EVENT);
    // A second request on the same keep-alive connection: by its end, the first response has closed.
    answer = async () => Response.json({ jsonrpc: '2.0', id: 1, result: {} });
    await post();
    expect(seen).toHaveLength(2);
    expect(seen[0]!.signal.aborted).toBe(false);
  });

  it('aborts the request when the client goes away before the answer', async () => {
    let received!: () => void;
    const arrived = new Promise<void>((r) => (received = r));
    answer = (req) =>
      new Promise<Response>((resolve) => {
        received();
        req.signal.addEventListener('abort', () => resolve(new Response(null, { status: 499 })));
      });
    const client = new AbortController();
    const call = post({ agent: new Agent(), signal: client.signal }).catch((e: Error) => e);
    await arrived;
    client.abort();
    await call;
    await new Promise<void>((r) =>
      seen[0]!.signal.aborted ? r() : seen[0]!.signal.addEventListener('abort', () => r()),
    );
    expect(seen[0]!.signal.aborted).toBe(true);
  });

  it('sends headers, the event and the end of the body in one write', async () => {
    answer = async () => sse([EVENT]);
    await post(); // warm the keep-alive connection
    const writes = countServerWrites();
    const r = await post();
    expect(r).toMatchObject({ status: 200, type: 'text/event-stream', body: EVENT });
    expect(writes()).toBe(1);
  });

  it('sends a JSON answer in one write', async () => {
    answer = async () => Response.json({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    await post();
    const writes = countServerWrites();
    const r = await post();
    expect(r.type).toBe('application/json');
    expect(writes()).toBe(1);
  });

  it('cancels the event stream when the client goes away mid-stream', async () => {
    let cancelled!: () => void;
    const gone = new Promise<void>((r) => (cancelled = r));
    answer = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start: (c) => c.enqueue(new TextEncoder().encode(EVENT)),
          cancel: () => cancelled(),
        }),
        { status: 200, headers: { 'content-type': 'text/event-stream' } },
      );
    await new Promise<void>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          agent: new Agent(),
          headers: { authorization: 'Bearer agent-token', 'content-type': 'application/json' },
        },
        (res) =>
          res.once('data', () => {
            req.destroy();
            resolve();
          }),
      );
      req.on('error', () => {});
      req.end(BODY);
    });
    // The stream's source hears of it (the SDK transport then drops the stream).
    await gone;
    expect(seen[0]!.signal.aborted).toBe(true);
  });

  it('still sends the headers of an event stream that has nothing to say yet', async () => {
    let push!: (e: string) => void;
    answer = async () => {
      const enc = new TextEncoder();
      return new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            push = (e) => {
              c.enqueue(enc.encode(e));
              c.close();
            };
          },
        }),
        { status: 200, headers: { 'content-type': 'text/event-stream' } },
      );
    };
    // The response (status and headers) arrives while the stream is still silent…
    const headers = await new Promise<{ status: number; body: Promise<string> }>(
      (resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/mcp',
            method: 'POST',
            agent: new Agent(),
            headers: { authorization: 'Bearer agent-token', 'content-type': 'application/json' },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            resolve({
              status: res.statusCode ?? 0,
              body: new Promise((r) => res.on('end', () => r(body))),
            });
          },
        );
        req.on('error', reject);
        req.end(BODY);
      },
    );
    expect(headers.status).toBe(200);
    // …and the event follows when there is one.
    push(EVENT);
    expect(await headers.body).toBe(EVENT);
  });
});
