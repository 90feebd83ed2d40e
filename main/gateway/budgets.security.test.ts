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
 * reached by the attacking agent, refused with an error naming the limit,
 * and another agent is still served.
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

describe('per-agent budgets', () => {
  it(`open sessions: one over ${DEFAULT_BUDGETS.sessions} is refused (429, JSON-RPC error naming the limit); another agent still connects`, async () => {
    for (let i = 0; i < DEFAULT_BUDGETS.sessions; i++) {
      const res = await initialize(t.token);
      expect(res.status).toBe(200);
      await res.body?.cancel();
    }
    const over = await initialize(t.token);
    expect(over.status).toBe(429);
    const body = (await over.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toMatch(
      new RegExp(`already has ${DEFAULT_BUDGETS.sessions} open MCP sessions.*limit per agent`),
    );
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
  it('closes the least recently used session if it has been idle a while, else refuses', () => {
    let now = 1_000_000;
    const b = new AgentBudgets({ sessions: 2, sessionIdleEvictMs: 1000 }, () => now);
    const open = [
      { id: 'a', lastUsed: now - 10 },
      { id: 'b', lastUsed: now - 20 },
    ];
    expect(b.admitSession('x', open.slice(0, 1))).toEqual({ ok: true });
    expect(b.admitSession('x', open)).toMatchObject({ ok: false });
    now += 2000;
    expect(b.admitSession('x', open)).toEqual({ ok: true, evict: 'b' });
  });
});
