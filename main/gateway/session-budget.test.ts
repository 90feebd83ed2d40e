import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport as Transport1,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CountingSource,
  startTestApp,
  textOf as textOfResult,
  type TestApp,
} from '../../test-support/harness.js';
import { DEFAULT_BUDGETS } from './budgets.js';

/**
 * Issue 28, item 1: the per-agent session budget never locks out a well-behaved client. The
 * stock 1.x SDK client's close() sends no DELETE, so each connect/close leaves a session behind;
 * at the limit the agent's least recently used session with nothing in flight is ended, its
 * client gets 404 and starts a new session, and a session with a call in flight (one waiting for
 * approval, one running) is never ended. Only when every session has something in flight is a
 * new one refused.
 */
const CAP = DEFAULT_BUDGETS.sessions;
/** The 1.x client's result type also admits its old `toolResult` form. */
const textOf = (r: unknown) => textOfResult(r as { content?: unknown });
let t: TestApp;
let source: CountingSource;
let agentNo = 0;

beforeAll(async () => {
  source = new CountingSource();
  // The approval wait is the longest Airlock allows: the call below waits until the test decides.
  t = await startTestApp({ sources: [source], settings: { approvals: { waitSeconds: 300 } } });
});
afterAll(async () => {
  await t.stop();
});

const newAgent = async () => (await t.app.control.addAgent(`churn-${++agentNo}`)).token;

/**
 * The 1.x transport, whose fetch notes when the GET stream's answer arrives: by then Airlock has
 * the stream (it registers it before answering), so the session counts as listening.
 */
function transport(token: string, onListening?: () => void): Transport1 {
  return new Transport1(new URL(t.started.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (init?.method === 'GET' && res.ok) onListening?.();
      return res;
    },
  });
}

interface Connected {
  client: Client1;
  transport: Transport1;
  /** Resolves once the client's GET stream is open. */
  listening: Promise<void>;
}

/** A stock 1.x SDK client, connected (initialize, initialized, then its GET stream). */
async function connect1(token: string): Promise<Connected> {
  const client = new Client1({ name: 'sdk1-churn', version: '1.0.0' });
  client.onerror = () => {}; // an ended session's GET stream reconnecting to a 404 is reported here
  let listened!: () => void;
  const listening = new Promise<void>((r) => (listened = r));
  const tr = transport(token, listened);
  await client.connect(tr);
  return { client, transport: tr, listening };
}

/** A raw request on a session: its HTTP status (200 while the session lives, 404 once ended). */
async function ping(token: string, session: string): Promise<number> {
  const res = await fetch(t.started.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    },
    // An id no client here uses: one still open in the session would be refused (400).
    body: JSON.stringify({ jsonrpc: '2.0', id: 'budget-probe', method: 'ping' }),
  });
  await res.body?.cancel();
  return res.status;
}

/**
 * What an application on the 1.x client does when its session is gone (mcp-remote's
 * isSessionExpired; MCP 2025-11-25 "Session Management": a 404 means start a new session):
 * connect again on a new transport, then repeat the request once.
 */
async function withReinit<T>(
  c: Connected,
  token: string,
  run: () => Promise<T>,
): Promise<{ value: T; reinitialized: boolean }> {
  try {
    return { value: await run(), reinitialized: false };
  } catch (err) {
    if (!(err instanceof StreamableHTTPError && err.code === 404)) throw err;
    await c.client.close();
    c.transport = transport(token);
    await c.client.connect(c.transport);
    return { value: await run(), reinitialized: true };
  }
}

describe('the session budget and clients that never DELETE', () => {
  it(`a 1.x client that connects and closes ${CAP + 16} times is never refused; the newest ${CAP} sessions live on`, async () => {
    const token = await newAgent();
    const ids: string[] = [];
    for (let i = 0; i < CAP + 16; i++) {
      const c = await connect1(token);
      expect(textOf(await c.client.callTool({ name: 'count_read', arguments: {} }))).toMatch(
        /count_read ok/,
      );
      ids.push(c.transport.sessionId!);
      await c.client.close(); // the 1.x close(): no DELETE
    }
    const alive = await Promise.all(ids.map((id) => ping(token, id)));
    // The budget still holds: the oldest were ended to make room, the newest are open.
    expect(alive.slice(0, 16)).toEqual(Array(16).fill(404));
    expect(alive.slice(16)).toEqual(Array(CAP).fill(200));
  }, 300_000);

  it("an ended session's next request gets 404 and the 1.x client's application starts a new one", async () => {
    const token = await newAgent();
    const first = await connect1(token);
    const firstId = first.transport.sessionId!;
    const others = [];
    for (let i = 1; i < CAP; i++) others.push(await connect1(token));
    // All listening and idle: the least recently used one, the first, makes room for the next.
    await Promise.all([first, ...others].map((c) => c.listening));
    others.push(await connect1(token));
    expect(await ping(token, firstId)).toBe(404);
    const { value, reinitialized } = await withReinit(first, token, () =>
      first.client.callTool({ name: 'count_read', arguments: {} }),
    );
    expect(reinitialized).toBe(true);
    expect(textOf(value)).toMatch(/count_read ok/);
    expect(first.transport.sessionId).not.toBe(firstId);
    await Promise.all([first, ...others].map((c) => c.client.close()));
  }, 300_000);

  it('a session with a call in flight is never ended; only when all have one is a new session refused', async () => {
    const token = await newAgent();
    const agent = `churn-${agentNo}`;
    // The first session's call waits for the user's approval.
    const waiter = await connect1(token);
    const waiterId = waiter.transport.sessionId!;
    const waiting = waiter.client.callTool(
      { name: 'count_send', arguments: { to: 'someone' } },
      undefined,
      { timeout: 10 * 60_000 },
    );
    const pendingId = await new Promise<string>((resolve) => {
      const poll = async () => {
        const p = (await t.app.control.listPending()).find((r) => r.agent === agent);
        if (p) resolve(p.id);
        else setImmediate(() => void poll());
      };
      void poll();
    });
    // Every other session has a call running (held at the source).
    const ranBefore = source.count('count_read');
    source.hold();
    const busy = [];
    const running = [];
    for (let i = 1; i < CAP; i++) {
      const c = await connect1(token);
      busy.push(c);
      running.push(c.client.callTool({ name: 'count_read', arguments: {} }));
    }
    await until(() => source.count('count_read') >= running.length + ranBefore);

    const refused = await connect1(token).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(429);
    expect(String((refused as Error).message)).toMatch(
      new RegExp(`already has ${CAP} open MCP sessions.*every one of them has a request in flight`),
    );

    // The held calls answer: those sessions are idle again and make room; the waiting one stays.
    source.unhold();
    for (const r of await Promise.all(running)) expect(textOf(r)).toMatch(/count_read ok/);
    for (let i = 0; i < CAP + 8; i++) {
      const c = await connect1(token);
      await c.client.close();
    }
    expect(await ping(token, waiterId)).toBe(200);
    await t.app.control.decide(pendingId, { kind: 'allow_once' });
    expect(textOf(await waiting)).toMatch(/count_send ok/);
    expect(waiter.transport.sessionId).toBe(waiterId);
    await Promise.all([waiter, ...busy].map((c) => c.client.close()));
  }, 300_000);
});

/** Waits until `check` holds, polling once per turn of the event loop (no clock). */
function until(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const test = () => (check() ? resolve() : setImmediate(test));
    test();
  });
}
