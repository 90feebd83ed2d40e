import dc from 'node:diagnostics_channel';
import { request, ServerResponse, type ClientRequest } from 'node:http';
import { Protocol } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { NEVER_MS, startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { FIRST_EVENT_WAIT_MS } from '../gateway/event-stream.js';
import { SessionTransport } from '../gateway/session-transport.js';

/**
 * Review of wave 3 session 33 (issue 34) through a real App on real sockets: a 2025 agent's
 * everyday lone call to a remote server answering JSON. The branch's promise is that both timers
 * of the call — the upstream request's timeout (lean-call.ts armTimeout) and the agent's held
 * head (SessionTransport.holdHead) — are made after node:http has written the upstream request,
 * and that the upstream timeout is cleared only after the agent's answer is written
 * (upstream-client.ts `settled`). Checked against what acts: node:http's own
 * `http.client.request.start` (published once the request is flushed to its socket), the
 * Protocol's `_setupTimeout` and `_cleanupTimeout`, the `setTimeout` of FIRST_EVENT_WAIT_MS and
 * the agent's response `end`. Only warm calls are held to it: a session's first call reaches the
 * upstream after awaited steps of its own (the connection made lazily), so its held head is
 * made first (seen, not asserted). Health pings off (no other upstream traffic in between);
 * nothing here is timed.
 */
let up: FakeUpstream;
let t: RemoteTestApp;
const transports: SessionTransport[] = [];

beforeAll(async () => {
  up = new FakeUpstream({
    json: true,
    tools: [
      {
        name: 'plain',
        annotations: { readOnlyHint: true },
        run: async () => ({ content: [{ type: 'text', text: 'ok' }] }),
      },
    ],
  });
  await up.start();
  t = await startRemoteApp({ timings: { healthIntervalMs: NEVER_MS } });
  await t.app.control.addRemote({ name: 'up', url: up.url });
  const start = SessionTransport.prototype.start;
  vi.spyOn(SessionTransport.prototype, 'start').mockImplementation(function (
    this: SessionTransport,
  ) {
    transports.push(this);
    return start.call(this);
  });
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await t?.stop();
  await up?.stop();
});

function post(body: unknown, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      t.started.mcpUrl,
      {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          authorization: `Bearer ${t.token}`,
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('a warm 2025 lone call through a real App', () => {
  it('makes both its timers after node:http has written its upstream request', async () => {
    await post(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'r', version: '1' },
        },
      },
      {},
    );
    const h = {
      'mcp-session-id': transports.at(-1)!.sessionId!,
      'mcp-protocol-version': '2025-06-18',
    };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, h);
    const order: string[] = [];
    const onStart = ({ request: r }: { request: ClientRequest }) => {
      if (r.method !== 'POST') return;
      order.push(r.getHeader('authorization') === `Bearer ${t.token}` ? 'agent' : 'upstream');
    };
    dc.subscribe('http.client.request.start', onStart as (m: unknown) => void);
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      fn: () => void,
      ms?: number,
      ...a: unknown[]
    ) => {
      if (ms === FIRST_EVENT_WAIT_MS) order.push('held head');
      return (realSetTimeout as (...x: unknown[]) => unknown)(fn, ms, ...a);
    }) as never);
    const books = Protocol.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
    const setup = books._setupTimeout!;
    books._setupTimeout = function (this: unknown, ...a: unknown[]) {
      order.push('upstream timeout');
      return setup.apply(this, a);
    };
    const cleanup = books._cleanupTimeout!;
    books._cleanupTimeout = function (this: unknown, ...a: unknown[]) {
      const had = (this as { _timeoutInfo: Map<unknown, unknown> })._timeoutInfo.has(a[0]);
      if (had) order.push('upstream timeout cleared');
      return cleanup.apply(this, a);
    };
    const end = ServerResponse.prototype.end;
    ServerResponse.prototype.end = function (this: ServerResponse, ...a: unknown[]) {
      if (this.req.headers.authorization === `Bearer ${t.token}`) order.push('answer written');
      return (end as (...x: unknown[]) => ServerResponse).apply(this, a);
    } as typeof end;
    const calls: string[][] = [];
    try {
      for (let i = 1; i <= 4; i++) {
        order.length = 0;
        const text = await post(
          {
            jsonrpc: '2.0',
            id: i,
            method: 'tools/call',
            params: { name: 'up__plain', arguments: {} },
          },
          h,
        );
        expect(text).toContain('"ok"');
        calls.push([...order]);
      }
    } finally {
      books._setupTimeout = setup;
      books._cleanupTimeout = cleanup;
      ServerResponse.prototype.end = end;
      vi.mocked(globalThis.setTimeout).mockRestore();
      dc.unsubscribe('http.client.request.start', onStart as (m: unknown) => void);
    }
    // The first: seen only (its upstream leg waits on steps of its own).
    expect(calls[0]).toContain('held head');
    for (const warm of calls.slice(1))
      expect(warm).toEqual([
        'agent',
        'upstream',
        'upstream timeout',
        'held head',
        'answer written',
        'upstream timeout cleared',
      ]);
  });
});
