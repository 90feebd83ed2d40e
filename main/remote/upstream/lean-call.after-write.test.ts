import dc from 'node:diagnostics_channel';
import { createServer, type ClientRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectUpstream, type Upstream } from './upstream.js';
import { callUpstream } from './lean-call.js';

/**
 * A direct call's request timeout is armed after its request is written, and cleared after its
 * answer has been handed on (issue 34, wave 3 session 33: lean-call.ts armTimeout,
 * upstream-client.ts `settled`). Checked against what acts: node:http's own `written` moment
 * (the `http.client.request.start` diagnostics channel, published once the request is flushed
 * to the socket) and the SDK Protocol's own books (`_timeoutInfo`, which its `_setupTimeout`
 * fills and `_cleanupTimeout` empties), on a real socket to a real server. And the guard: a call
 * settled before the tick its timeout would be armed on is armed none, so no timer outlives it
 * to send a `notifications/cancelled` for a call already over.
 */
let srv: Server;
let url: URL;
const held: { id: unknown; res: ServerResponse }[] = [];
let waiting: (() => void) | undefined;
const cancelled: unknown[] = [];

beforeAll(async () => {
  srv = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const m = JSON.parse(raw || '{}') as {
        id?: number;
        method?: string;
        params?: { requestId?: unknown };
      };
      const json = { 'content-type': 'application/json' };
      if (m.method === 'initialize')
        return void res.writeHead(200, { ...json, 'mcp-session-id': 's1' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: m.id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: { tools: {} },
              serverInfo: { name: 'x', version: '1' },
            },
          }),
        );
      if (m.method === 'notifications/cancelled') cancelled.push(m.params?.requestId);
      if (m.id === undefined || m.method === undefined) return void res.writeHead(202).end();
      if (m.method !== 'tools/call')
        return void res
          .writeHead(200, json)
          .end(
            JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } }),
          );
      held.push({ id: m.id, res });
      waiting?.();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`);
});
afterAll(() => new Promise<void>((r) => srv.close(() => r())));

const arrived = (n: number) =>
  new Promise<void>((resolve) => {
    const check = () => (held.length >= n ? resolve() : (waiting = check));
    check();
  });
const turn = () => new Promise<void>((r) => setImmediate(r));

type Books = {
  _timeoutInfo: Map<number, unknown>;
  _setupTimeout: (...a: unknown[]) => void;
  _cleanupTimeout: (id: number) => void;
  _requestMessageId: number;
};

async function upstream(): Promise<{ up: Upstream; books: Books }> {
  const up = await connectUpstream({
    url,
    headers: {},
    timeoutMs: 10_000,
    clientVersion: 'test',
    directCalls: true,
  });
  return { up, books: up.client as unknown as Books };
}

const options = (signal: AbortSignal) => ({
  signal,
  timeout: 60_000,
  maxTotalTimeout: 60_000,
  resetTimeoutOnProgress: true,
});

describe('a direct call’s request timeout', () => {
  it('is armed after node:http has written the request, and cleared after the answer is handed on', async () => {
    const { up, books } = await upstream();
    const order: string[] = [];
    const onWritten = ({ request }: { request: ClientRequest }) => {
      if (request.method === 'POST') order.push('written');
    };
    dc.subscribe('http.client.request.start', onWritten as (m: unknown) => void);
    const setup = books._setupTimeout;
    const cleanup = books._cleanupTimeout;
    books._setupTimeout = function (this: unknown, ...a: unknown[]) {
      order.push('armed');
      return setup.apply(this, a);
    };
    books._cleanupTimeout = function (this: unknown, id: number) {
      order.push('cleared');
      return cleanup.call(this, id);
    };
    try {
      held.length = 0;
      const id = books._requestMessageId;
      let handed = false;
      const call = callUpstream(
        up.client,
        { name: 't', arguments: {} },
        true,
        options(new AbortController().signal),
      ).then((r) => {
        order.push('handed on');
        handed = true;
        return r;
      });
      await arrived(1);
      expect(order).toEqual(['written', 'armed']);
      expect(books._timeoutInfo.has(id)).toBe(true); // the call waits with its timeout armed
      held[0]!.res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          result: { content: [{ type: 'text', text: 'ok' }] },
        }),
      );
      await call;
      expect(handed).toBe(true);
      await turn();
      expect(order).toEqual(['written', 'armed', 'handed on', 'cleared']);
      expect(books._timeoutInfo.has(id)).toBe(false);
    } finally {
      dc.unsubscribe('http.client.request.start', onWritten as (m: unknown) => void);
      books._setupTimeout = setup;
      books._cleanupTimeout = cleanup;
      await up.close();
    }
  });

  it('is not armed for a call cancelled in the turn it was sent', async () => {
    const { up, books } = await upstream();
    try {
      held.length = 0;
      cancelled.length = 0;
      const id = books._requestMessageId;
      const controller = new AbortController();
      const call = callUpstream(
        up.client,
        { name: 't', arguments: {} },
        true,
        options(controller.signal),
      );
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow(/changed my mind/);
      await arrived(1);
      await turn();
      // The cancellation went to the server; no timeout was left behind for the call.
      await new Promise<void>((r) => {
        const check = () => (cancelled.includes(id) ? r() : setImmediate(check));
        check();
      });
      expect(books._timeoutInfo.has(id)).toBe(false);
      expect(books._timeoutInfo.size).toBe(0);
    } finally {
      await up.close();
    }
  });
});

describe('the deferred timer work on its own tick', () => {
  it('a throw arming the timeout fails the call rather than the process', async () => {
    const { up, books } = await upstream();
    const setup = books._setupTimeout;
    books._setupTimeout = () => {
      throw new Error('books moved');
    };
    try {
      held.length = 0;
      const call = callUpstream(
        up.client,
        { name: 't', arguments: {} },
        true,
        options(new AbortController().signal),
      );
      await expect(call).rejects.toThrow(/books moved/);
    } finally {
      books._setupTimeout = setup;
      await up.close();
    }
  });

  it('a throw clearing an answered call’s timeout goes to onerror, not out of the process', async () => {
    const { up, books } = await upstream();
    const errors: string[] = [];
    up.client.onerror = (e) => errors.push(e.message);
    const cleanup = books._cleanupTimeout;
    books._cleanupTimeout = () => {
      throw new Error('books moved');
    };
    try {
      held.length = 0;
      const id = books._requestMessageId;
      const call = callUpstream(
        up.client,
        { name: 't', arguments: {} },
        true,
        options(new AbortController().signal),
      );
      await arrived(1);
      held[0]!.res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } }));
      await expect(call).resolves.toEqual({ content: [] });
      await turn();
      expect(errors).toEqual(['books moved']);
    } finally {
      books._cleanupTimeout = cleanup;
      await up.close();
    }
  });
});
