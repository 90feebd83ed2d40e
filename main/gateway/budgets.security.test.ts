import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectClient,
  CountingSource,
  startTestApp,
  textOf,
  type TestApp,
} from '../../test-support/harness.js';
import { AgentBudgets, DEFAULT_BUDGETS } from './budgets.js';

/**
 * Issue 17, item 4: one agent token cannot exhaust Airlock. Each budget is
 * reached by the attacking agent, refused with an error naming the limit (or,
 * for sessions, held by ending its least recently used idle one: issue 28,
 * item 1), and another agent is still served.
 */
let t: TestApp;
let source: CountingSource;

beforeAll(async () => {
  source = new CountingSource();
  t = await startTestApp({ sources: [source], settings: { approvals: { waitSeconds: 1 } } });
});
afterAll(async () => {
  await t.stop();
});

const initialize = (token: string) =>
  fetch(t.started.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'flood', version: '1' },
      },
    }),
  });

const ping = async (token: string, session: string) => {
  const res = await fetch(t.started.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'probe', method: 'ping' }),
  });
  await res.body?.cancel();
  return res.status;
};

describe('per-agent budgets', () => {
  it(`open sessions: one over ${DEFAULT_BUDGETS.sessions} ends the least recently used idle one, so the count stays at the limit; another agent still connects`, async () => {
    const ids: string[] = [];
    for (let i = 0; i <= DEFAULT_BUDGETS.sessions; i++) {
      const res = await initialize(t.token);
      expect(res.status).toBe(200);
      ids.push(res.headers.get('mcp-session-id')!);
      await res.body?.cancel();
    }
    // A flood never holds more than the limit: the first session made room for the last.
    const statuses = await Promise.all(ids.map((id) => ping(t.token, id)));
    expect(statuses.filter((s) => s === 404)).toHaveLength(1);
    expect(statuses[0]).toBe(404);
    const other = (await t.app.control.addAgent('sessions-bystander')).token;
    const ok = await initialize(other);
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it(`pending requests: one over ${DEFAULT_BUDGETS.pendingRequests} is refused as a tool error, nothing is queued`, async () => {
    const token = (await t.app.control.addAgent('flooder')).token;
    const client = await connectClient(t.started.mcpUrl, token);
    const waiting = await Promise.all(
      Array.from({ length: DEFAULT_BUDGETS.pendingRequests }, (_, i) =>
        client.callTool({ name: 'count_send', arguments: { to: `person${i}` } }),
      ),
    );
    for (const r of waiting) expect(textOf(r)).toMatch(/approval/i);
    const before = (await t.app.control.listPending()).length;
    const over = await client.callTool({ name: 'count_send', arguments: { to: 'one-more' } });
    expect(over.isError).toBe(true);
    expect(textOf(over)).toMatch(
      new RegExp(
        `already has ${DEFAULT_BUDGETS.pendingRequests} requests waiting.*limit per agent`,
      ),
    );
    expect((await t.app.control.listPending()).length).toBe(before);
    // Repeating a waiting call attaches to its request: not refused.
    const repeat = await client.callTool({ name: 'count_send', arguments: { to: 'person0' } });
    expect(textOf(repeat)).not.toMatch(/Refused/);
    // Another agent is not affected by this one's budget.
    const other = await connectClient(
      t.started.mcpUrl,
      (await t.app.control.addAgent('pending-bystander')).token,
    );
    const fine = await other.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    expect(textOf(fine)).not.toMatch(/Refused/);
    expect(source.count('count_send')).toBe(0);
    await Promise.all([client.close(), other.close()]);
  });

  it('bytes of pending arguments: a request that would pass the limit is refused', async () => {
    const client = await connectClient(
      t.started.mcpUrl,
      (await t.app.control.addAgent('big-args')).token,
    );
    const big = 'x'.repeat(Math.floor(DEFAULT_BUDGETS.pendingArgBytes * 0.6));
    const first = await client.callTool({ name: 'count_send', arguments: { to: big } });
    expect(textOf(first)).not.toMatch(/Refused/);
    const second = await client.callTool({ name: 'count_send', arguments: { to: big + 'y' } });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toMatch(
      new RegExp(`over Airlock's limit per agent of ${DEFAULT_BUDGETS.pendingArgBytes} bytes`),
    );
    await client.close();
  });
});

describe('session budget at the limit', () => {
  const b = new AgentBudgets({ sessions: 3 });
  const use = (id: string, lastUsed: number, busy = false, listening = false) => ({
    id,
    lastUsed,
    busy,
    listening,
  });

  it('under the limit: admitted, nothing ended', () => {
    expect(b.admitSession('x', [use('a', 1), use('b', 2)])).toEqual({ ok: true });
  });

  it('ends the least recently used session with nothing in flight, one whose client no longer listens first', () => {
    expect(b.admitSession('x', [use('a', 3), use('b', 1), use('c', 2)])).toEqual({
      ok: true,
      evict: 'b',
    });
    expect(b.admitSession('x', [use('a', 3), use('b', 1, true), use('c', 2)])).toEqual({
      ok: true,
      evict: 'c',
    });
    expect(
      b.admitSession('x', [use('a', 3), use('b', 1, false, true), use('c', 2, false, true)]),
    ).toEqual({ ok: true, evict: 'a' });
    expect(
      b.admitSession('x', [use('a', 3, false, true), use('b', 1, false, true), use('c', 2, true)]),
    ).toEqual({ ok: true, evict: 'b' });
  });

  it('refuses only when every session has something in flight', () => {
    const verdict = b.admitSession('x', [use('a', 3, true), use('b', 1, true), use('c', 2, true)]);
    expect(verdict).toMatchObject({ ok: false });
    expect(!verdict.ok && verdict.message).toMatch(
      /already has 3 open MCP sessions.*every one of them has a request in flight/,
    );
  });
});
