import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo, JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionTransport } from './session-transport.js';

/**
 * What a POST hands the SDK (issue 34, wave 3 session 19 moved it from a closure per POST to a
 * method): each of its messages in order, each with that POST's own authInfo — also when two POSTs
 * of one session are open at once, and when the first one's client has gone before the second
 * arrives. No SDK server answers here; the test reads what `onmessage` was given.
 */
let http: Server | undefined;
afterEach(async () => {
  http?.closeAllConnections();
  await new Promise((r) => http?.close(r));
  http = undefined;
});

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
};

describe('SessionTransport delivery', () => {
  it("hands every message of a POST on, in order, with that POST's authInfo", async () => {
    const t = new SessionTransport({
      newSessionId: () => 'sid',
      onsessioninitialized: () => {},
      onsessionclosed: () => {},
    });
    const seen: [unknown, string | undefined][] = [];
    let wanted = 0;
    let reached: () => void = () => {};
    t.onmessage = (m: JSONRPCMessage, extra?: MessageExtraInfo) => {
      seen.push(['id' in m ? m.id : (m as { method: string }).method, extra?.authInfo?.token]);
      if (seen.length === wanted) reached();
    };
    const until = (n: number) =>
      new Promise<void>((r) => {
        wanted = n;
        reached = r;
        if (seen.length >= n) r();
      });
    http = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        const auth: AuthInfo = { token: String(req.headers['x-token']), clientId: 'c', scopes: [] };
        t.handle(req, res, JSON.parse(raw), auth);
      });
    });
    await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
    const port = (http.address() as AddressInfo).port;
    const post = (token: string, body: unknown, sid = true) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-token': token,
          ...(sid ? { 'mcp-session-id': 'sid' } : {}),
        },
      });
      req.on('error', () => {});
      req.end(JSON.stringify(body));
      return req;
    };
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'x' },
    });
    const note = (method: string) => ({ jsonrpc: '2.0', method });

    post('init', INIT, false);
    await until(1);
    // Two batches open at once on the session, each with a request and notifications around it.
    const a = post('A', [note('notifications/initialized'), call(1), note('notifications/a')]);
    await until(4);
    post('B', [call(2), note('notifications/b'), call(3)]);
    await until(7);
    // A's client gone before C arrives; notifications only (answered 202).
    a.destroy();
    post('C', [note('notifications/c1'), note('notifications/c2')]);
    await until(9);
    expect(seen).toEqual([
      [0, 'init'],
      ['notifications/initialized', 'A'],
      [1, 'A'],
      ['notifications/a', 'A'],
      [2, 'B'],
      ['notifications/b', 'B'],
      [3, 'B'],
      ['notifications/c1', 'C'],
      ['notifications/c2', 'C'],
    ]);
    await t.close();
  });

  it('a request for a client that went away from its call fails, saying so; a notification is dropped', async () => {
    // An approved call's relay may be a waiting request whose client hung up without cancelling
    // (approvals/engine.ts): its server's elicitation must not wait unanswered for ten minutes.
    const t = new SessionTransport({
      newSessionId: () => 'sid',
      onsessioninitialized: () => {},
      onsessionclosed: () => {},
    });
    let delivered: (id: unknown) => void = () => {};
    t.onmessage = (m: JSONRPCMessage) => void ('id' in m && delivered(m.id));
    const arrived = (want: unknown) =>
      new Promise<void>((r) => (delivered = (id) => id === want && r()));
    http = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        const gone = new Promise<void>((r) => res.on('close', () => r()));
        t.handle(req, res, JSON.parse(raw), { token: 't', clientId: 'c', scopes: [] });
        closed.push(gone);
      });
    });
    const closed: Promise<void>[] = [];
    await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
    const port = (http.address() as AddressInfo).port;
    const post = (body: unknown, sid = true) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(sid ? { 'mcp-session-id': 'sid' } : {}),
        },
      });
      req.on('error', () => {});
      req.end(JSON.stringify(body));
      return req;
    };
    const init = arrived(0);
    post(INIT, false);
    await init;
    const called = arrived(7);
    const call = post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } });
    await called;
    call.destroy();
    await closed[1];
    const ask = { jsonrpc: '2.0' as const, id: 1, method: 'elicitation/create', params: {} };
    await expect(t.send(ask, { relatedRequestId: 7 })).rejects.toThrow(/went away from request 7/);
    // Progress or a log line for it has nowhere to go either, and is no reason to fail the call.
    const note = { jsonrpc: '2.0' as const, method: 'notifications/progress', params: {} };
    await expect(t.send(note, { relatedRequestId: 7 })).resolves.toBeUndefined();
    expect(t.busy()).toBe(true); // the call itself is still unanswered
    await t.close();
  });
});
