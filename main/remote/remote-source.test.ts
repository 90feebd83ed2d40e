import { describe, expect, it } from 'vitest';
import { closedPort } from '../../test-support/closed-port.js';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { Logger } from '../platform/log.js';
import { FakeUpstream, type FakeTool } from '../../test-support/fake-upstream.js';
import { RemoteSource, type RemoteTimings } from './remote-source.js';
import type { InflightCalls } from './connection/inflight.js';
import { UNTRUSTED_META_KEY } from '../tools/untrusted.js';
import { CallAbortController } from '../platform/abort-hooks.js';
import { getEventListeners } from 'node:events';

/**
 * Bounds no test waits for (10 min, past any test's timeout), so a slow machine never trips one;
 * a test about a bound sets a short one against a server that never answers, the only thing that
 * can trip it. Short backoff: a restarted server is back at once.
 */
const NEVER = 10 * 60_000;
const FAST: Partial<RemoteTimings> = {
  connectMs: NEVER,
  listMs: NEVER,
  readyMs: NEVER,
  healthMs: NEVER,
  callIdleMs: NEVER,
  backoffInitialMs: 100,
  backoffMaxMs: 400,
};
const cleanup = cleanupAfterEach();

function source(url: string, headers: Record<string, string> = {}, timings = FAST): RemoteSource {
  const s = new RemoteSource(
    { name: 'up', url, headers },
    { logger: new Logger({ stderr: false }), version: 'test', timings },
  );
  cleanup.push(() => s.stop());
  s.start();
  return s;
}

async function upstream(
  tools: FakeTool[],
  o: Partial<ConstructorParameters<typeof FakeUpstream>[0]> = {},
): Promise<FakeUpstream> {
  const u = new FakeUpstream({ tools, ...o });
  await u.start();
  cleanup.push(() => u.stop());
  return u;
}

function changed(s: RemoteSource, until: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (until()) return resolve();
    const off = s.onChange(() => {
      if (until()) {
        off();
        resolve();
      }
    });
  });
}

const ctx = (signal = new AbortController().signal) => ({ agent: 'a', signal });
const text = (r: { content?: unknown }) =>
  ((r.content as { type: string; text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

describe('RemoteSource', () => {
  it('passes schemas, annotations and structuredContent through, never vouches read-only, marks results untrusted', async () => {
    const schema = {
      type: 'object',
      properties: { q: { type: 'string', pattern: '^x', 'x-custom': [1, { a: null }] } },
      required: ['q'],
      additionalProperties: false,
    };
    const u = await upstream([
      {
        name: 'lookup',
        inputSchema: schema,
        outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
        annotations: { readOnlyHint: true, title: 'Look up' },
        run: async () => ({
          content: [{ type: 'text', text: 'found' }],
          structuredContent: { n: 3 },
        }),
      },
    ]);
    const s = source(u.url);
    await s.ready();
    expect(s.status()).toEqual({ state: 'ready' });
    const [def] = s.tools();
    expect(def?.inputSchema).toEqual(schema);
    expect(def?.annotations).toMatchObject({ readOnlyHint: true });
    expect(def?.title).toBe('Look up');
    expect(def?.trustedReadOnly).toBeUndefined();
    const r = await s.call('lookup', { q: 'xy' }, ctx());
    expect(r.structuredContent).toEqual({ n: 3 });
    expect(r._meta?.[UNTRUSTED_META_KEY]).toEqual({ source: 'remote', server: 'up' });
    expect(text(r)).toMatch(
      /^\[Airlock: the content below comes from the remote MCP server "up", a third party/,
    );
    expect(text(r)).toMatch(/found$/);
    expect(u.calls).toEqual([{ name: 'lookup', args: { q: 'xy' } }]);
  });

  it('follows tools/list_changed', async () => {
    const u = await upstream([{ name: 'one' }]);
    const s = source(u.url);
    await s.ready();
    await u.getStreamOpen(); // the 2025 GET stream that carries notifications opens after initialized
    await u.setTools([{ name: 'one' }, { name: 'two' }]);
    await changed(s, () => s.tools().length === 2);
    expect(s.tools().map((t) => t.name)).toEqual(['one', 'two']);
  });

  it.each([404, 400] as const)(
    're-initializes transparently when the server forgot the session (%i)',
    async (staleStatus) => {
      const u = await upstream([{ name: 'ping_me' }], { staleStatus });
      const s = source(u.url);
      await s.ready();
      u.forgetSessions();
      const r = await s.call('ping_me', {}, ctx());
      expect(r.isError).toBeFalsy();
      expect(text(r)).toMatch(/ping_me ran/);
      expect(u.initializeCount).toBe(2);
      expect(u.calls.length).toBe(1);
    },
  );

  it('an agent whose own session is open (taken without waiting) gets a new one when the server forgot it', async () => {
    const u = await upstream([{ name: 'ping_me' }]);
    const s = source(u.url);
    await s.ready();
    expect(text(await s.call('ping_me', {}, ctx()))).toMatch(/ping_me ran/);
    const before = u.initializeCount;
    u.forgetSessions();
    // The agent's session is in hand (upNow): the stale answer still gets one retry on a new one.
    const r = await s.call('ping_me', {}, ctx());
    expect(r.isError).toBeFalsy();
    expect(text(r)).toMatch(/ping_me ran/);
    expect(u.initializeCount).toBeGreaterThan(before);
    expect(u.calls.length).toBe(2);
    // And the next call goes on that new session at once.
    expect(text(await s.call('ping_me', {}, ctx()))).toMatch(/ping_me ran/);
    expect(u.calls.length).toBe(3);
  });

  it('says "unreachable: connection refused" for a closed port, and "401 from server" for a bad token', async () => {
    const port = await closedPort();
    const dead = source(`http://127.0.0.1:${port}/mcp`);
    // Ready at all is "at once": every bound it could wait for is 10 min.
    await dead.ready();
    expect(dead.status()).toEqual({ state: 'error', detail: 'unreachable: connection refused' });
    expect(dead.tools()).toEqual([]);
    const r = await dead.call('x', {}, ctx());
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/unavailable \(unreachable: connection refused\); nothing was sent/);

    const u = await upstream([{ name: 't' }], { bearer: 'right-token-123' });
    const wrong = source(u.url, { Authorization: 'Bearer wrong-token-456' });
    await wrong.ready();
    expect(wrong.status()).toMatchObject({
      state: 'error',
      detail: expect.stringMatching(/^401 from server/),
    });
    const right = source(u.url, { Authorization: 'Bearer right-token-123' });
    await right.ready();
    expect(right.status()).toEqual({ state: 'ready' });
  });

  it('gives up on a server that never answers within the connect bound', async () => {
    const u = await upstream([], { silent: true });
    // Nothing answers, so only the bound can end the attempt: no race with the machine's speed.
    const s = source(u.url, {}, { ...FAST, connectMs: 700 });
    await s.ready();
    expect(s.status()).toEqual({ state: 'error', detail: 'unreachable: no answer within 1 s' });
  });

  it('forwards progress to the caller and cancellation to the server', async () => {
    let aborted!: () => void;
    const sawAbort = new Promise<void>((r) => (aborted = r));
    const u = await upstream([
      {
        name: 'slow',
        run: async (_args, c) => {
          await c.progress(1, 3);
          await c.progress(2, 3);
          c.signal.addEventListener('abort', () => aborted());
          await new Promise((r) => c.signal.addEventListener('abort', r));
          return { content: [{ type: 'text', text: 'never' }] };
        },
      },
    ]);
    const s = source(u.url);
    await s.ready();
    const seen: number[] = [];
    const ac = new AbortController();
    const call = s.call(
      'slow',
      {},
      {
        agent: 'a',
        signal: ac.signal,
        progress: (p) => void (seen.push(p), seen.length === 2 && ac.abort()),
      },
    );
    const r = await call;
    expect(seen).toEqual([1, 2]);
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/cancelled/);
    await sawAbort; // the upstream handler saw notifications/cancelled
  });

  it('fails an in-flight call within a bounded time when the server dies, and comes back with backoff', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const tools: FakeTool[] = [
      { name: 'hang', run: () => (started(), new Promise(() => {})) },
      { name: 'quick' },
    ];
    const u = await upstream(tools);
    const s = source(u.url);
    await s.ready();
    const port = u.port;
    await u.getStreamOpen();
    const call = s.call('hang', {}, ctx());
    await running;
    // The call ends because the server went away, not at a bound: its idle bound is 10 min.
    await u.stop();
    const r = await call;
    expect(text(r)).toMatch(
      /became unreachable during the call \(unreachable: .*\)\. It may or may not have completed/,
    );
    // The health check that follows the failure takes the source down (its tools disappear).
    await changed(s, () => s.status().state === 'error');
    expect(s.tools()).toEqual([]);

    const again = new FakeUpstream({ tools });
    await again.start(port);
    cleanup.push(() => again.stop());
    await changed(s, () => s.status().state === 'ready');
    expect(s.tools().map((t) => t.name)).toEqual(['hang', 'quick']);
    expect(text(await s.call('quick', {}, ctx()))).toMatch(/quick ran/);
  });

  it('a call Airlock cuts off (inflight.ts: its connection lost) fails at once, and the server is told', async () => {
    // The cut-off reaches the upstream request's cancel as a hook on the call's own controller
    // (abort-hooks.ts), not a listener: the call must still end now, not at its 10-minute bound.
    let started!: () => void;
    let told!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const sawCancel = new Promise<void>((r) => (told = r));
    const u = await upstream([
      {
        name: 'hang',
        run: (_a, c) => {
          c.signal.addEventListener('abort', () => told());
          started();
          return new Promise(() => {});
        },
      },
    ]);
    const s = source(u.url);
    await s.ready();
    const call = s.call('hang', {}, ctx());
    await running;
    (s as unknown as { c: { inflight: InflightCalls } }).c.inflight.abortAll('cut by the test');
    const r = await call;
    expect(text(r)).toMatch(/became unreachable during the call \(cut by the test\)/);
    await sawCancel; // notifications/cancelled reached the server
  });

  it("on a lone call's signal (a CallAbortController): the agent's cancel reaches the server, and no call leaves a hook behind", async () => {
    // Review of abort-hooks.ts: remote-calls.ts joins a lone call's signal by a hook (onAbort).
    // Whatever way the call ends (answered, a tool error, cancelled) the hook must be gone.
    const joins = (signal: AbortSignal) =>
      getEventListeners(signal, 'abort').length +
      Object.getOwnPropertySymbols(signal)
        .filter((k) => k.description === 'abort hooks')
        .reduce((n, k) => n + (signal as unknown as Record<symbol, Set<unknown>>)[k]!.size, 0);
    let started!: () => void;
    let told!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const sawCancel = new Promise<void>((r) => (told = r));
    const u = await upstream([
      { name: 'quick' },
      {
        name: 'boom',
        run: async () => {
          throw new Error('boom');
        },
      },
      {
        name: 'hang',
        run: (_a, c) => {
          c.signal.addEventListener('abort', () => told());
          started();
          return new Promise(() => {});
        },
      },
    ]);
    const s = source(u.url);
    await s.ready();
    for (const tool of ['quick', 'boom']) {
      const ac = new CallAbortController();
      await s.call(tool, {}, ctx(ac.signal));
      expect([tool, joins(ac.signal)]).toEqual([tool, 0]);
    }
    const ac = new CallAbortController();
    const call = s.call('hang', {}, ctx(ac.signal));
    await running;
    expect(joins(ac.signal)).toBe(1);
    ac.abort('the agent cancelled');
    expect(text(await call)).toMatch(/cancelled/);
    expect(joins(ac.signal)).toBe(0);
    await sawCancel; // notifications/cancelled reached the server
  });

  it('redacts its own credentials from what the server sends back', async () => {
    const u = await upstream([
      {
        name: 'leak',
        run: async (_a, c) => ({
          content: [
            {
              type: 'text',
              text: `you sent ${c.headers.authorization} and ${c.headers['x-api-key']}`,
            },
          ],
          structuredContent: { h: c.headers.authorization },
        }),
      },
    ]);
    const s = source(u.url, {
      Authorization: 'Bearer sekret-token-value-1',
      'X-Api-Key': 'key-value-99',
    });
    await s.ready();
    const r = await s.call('leak', {}, ctx());
    const json = JSON.stringify(r);
    expect(json).not.toContain('sekret-token-value-1');
    expect(json).not.toContain('key-value-99');
    expect(text(r)).toMatch(/you sent \[redacted\] and \[redacted\]/);
  });
});
