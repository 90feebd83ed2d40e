import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream, type FakeTool } from '../../test-support/fake-upstream.js';
import { textOf } from '../../test-support/harness.js';
import { FAST_REMOTE } from '../../test-support/remote-app.js';
import { Logger } from '../platform/log.js';
import { RemoteSource } from './remote-source.js';
import { leanCallTool } from './upstream/lean-call.js';
import { UpstreamClient } from './upstream/upstream-client.js';

/**
 * Review of wave 3 session 29 (issue 34): lean-call.ts decides the lean path once per client and
 * negotiated version (`leanFit`, a WeakMap). What that cache must not carry: the tool's own
 * decision (a tool that gains an `outputSchema` after tools/list_changed is checked against it
 * from then on, whatever path its earlier calls took), and a client of a connection that was
 * replaced (the server forgot the session: 404, a new session) — each against a real SDK server,
 * through RemoteSource as an agent's call goes. Which path a call took is seen on the client:
 * `callTool` is the SDK path.
 */
const cleanup = cleanupAfterEach();

const SCHEMA = {
  type: 'object',
  properties: { n: { type: 'number' } },
  required: ['n'],
  additionalProperties: false,
};

const run = async (args: Record<string, unknown>) => ({
  content: [{ type: 'text' as const, text: 'ok' }],
  ...(args.structured ? { structuredContent: args.structured as Record<string, unknown> } : {}),
});

const tool = (outputSchema?: Record<string, unknown>): FakeTool => ({
  name: 't',
  run,
  ...(outputSchema ? { outputSchema } : {}),
});

async function connected(stateless: boolean) {
  const u = new FakeUpstream({ tools: [tool()], stateless });
  await u.start();
  cleanup.push(() => u.stop());
  const s = new RemoteSource(
    { name: 'srv', url: u.url, headers: {} },
    { logger: new Logger({ stderr: false }), version: 'test', timings: FAST_REMOTE },
  );
  cleanup.push(() => s.stop());
  s.start();
  await s.settled();
  expect(s.status()).toEqual({ state: 'ready' });
  return { u, s };
}

const ctx = () => ({ agent: 'a', signal: new AbortController().signal });

/** Counts the SDK path's calls (`Client.callTool`) on every client, from now on. */
function sdkCalls() {
  const spy = vi.spyOn(UpstreamClient.prototype, 'callTool');
  cleanup.push(async () => void spy.mockRestore());
  return () => spy.mock.calls.length;
}

/** Until `s` lists tool `t` with (or without) an output schema: woken by its change events. */
function schemaListed(s: RemoteSource, want = true): Promise<void> {
  const has = () =>
    s.tools().some((d) => d.name === 't' && (d.outputSchema !== undefined) === want);
  if (has()) return Promise.resolve();
  return new Promise((resolve) => {
    const off = s.onChange(() => {
      if (!has()) return;
      off();
      resolve();
    });
  });
}

describe('the lean decision on a stateful server (a session per agent)', () => {
  // (A stateless server has no stream outside a request to say tools/list_changed on.)
  const stateless = false;
  it('a tool that gains an output schema after list_changed takes the checked path', async () => {
    const { u, s } = await connected(stateless);
    const sdk = sdkCalls();
    // Plain: lean (no SDK call), and the result passes as it is.
    const first = await s.call('t', {}, ctx());
    expect(first.isError).toBeFalsy();
    expect(sdk()).toBe(0);
    await u.getStreamOpen();
    const listed = schemaListed(s);
    await u.setTools([tool(SCHEMA)]);
    await listed;
    // Now the tool declares an output schema: the SDK path, and its result is checked.
    const bad = await s.call('t', { structured: { n: 'x' } }, ctx());
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('output schema');
    const good = await s.call('t', { structured: { n: 1 } }, ctx());
    expect(good.isError).toBeFalsy();
    expect(good.structuredContent).toEqual({ n: 1 });
    expect(sdk()).toBe(2);
    // And back: the schema dropped, the lean path again.
    const dropped = schemaListed(s, false);
    await u.setTools([tool()]);
    await dropped;
    expect(s.tools().some((d) => d.outputSchema)).toBe(false);
    const plain = await s.call('t', {}, ctx());
    expect(plain.isError).toBeFalsy();
    expect(sdk()).toBe(2);
  });
});

describe.each([
  ['a stateless server (one shared connection)', true],
  ['a stateful server (a session per agent)', false],
])('the lean decision on %s', (_what, stateless) => {
  it('a session the server forgot (404): the call goes again on the new one, lean', async () => {
    const { u, s } = await connected(stateless);
    const sdk = sdkCalls();
    expect((await s.call('t', {}, ctx())).isError).toBeFalsy();
    u.forgetSessions();
    const again = await s.call('t', {}, ctx());
    expect(again.isError).toBeFalsy();
    expect(textOf(again)).toContain('ok');
    const after = await s.call('t', {}, ctx());
    expect(after.isError).toBeFalsy();
    expect(sdk()).toBe(0);
  });
});

describe('the lean decision on one client reconnected', () => {
  const options = () => ({
    signal: new AbortController().signal,
    timeout: 60_000,
    maxTotalTimeout: 600_000,
    resetTimeoutOnProgress: true,
  });

  /** A transport that answers `initialize` with `version` and records what is written. */
  function transport(version: string) {
    const written: JSONRPCMessage[] = [];
    const t = {
      start: async () => {},
      close: async () => void t.onclose?.(),
      send: async (m: JSONRPCMessage) => {
        written.push(m);
        const r = m as { id?: number; method?: string };
        if (r.method === 'initialize')
          queueMicrotask(() =>
            t.onmessage?.({
              jsonrpc: '2.0',
              id: r.id!,
              result: {
                protocolVersion: version,
                capabilities: { tools: {} },
                serverInfo: { name: 's', version: '1' },
              },
            } as JSONRPCMessage),
          );
      },
      onmessage: undefined as ((m: JSONRPCMessage) => void) | undefined,
      onclose: undefined as (() => void) | undefined,
    };
    return { t, written };
  }

  it('closed: the SDK path; connected again (another version, then the first): lean again', async () => {
    const client = new UpstreamClient(
      { name: 'airlock', version: 'test' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    const first = transport('2025-06-18');
    await client.connect(first.t as never);
    const a = leanCallTool(client, { name: 'x', arguments: {} }, options());
    expect(a).toBeDefined();
    void a!.catch(() => {});
    await client.close();
    // Closed: no negotiated version, no transport — the SDK's path, as before the cache.
    expect(leanCallTool(client, { name: 'x', arguments: {} }, options())).toBeUndefined();
    for (const [version, again] of [
      ['2025-03-26', transport('2025-03-26')],
      ['2025-06-18', transport('2025-06-18')],
    ] as const) {
      await client.connect(again.t as never);
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      const b = leanCallTool(client, { name: 'x', arguments: {} }, options());
      expect(b).toBeDefined();
      void b!.catch(() => {});
      // Written on the new transport, not the closed one, without an envelope.
      const sent = again.written.at(-1) as { method?: string; params?: { _meta?: unknown } };
      expect(sent.method).toBe('tools/call');
      expect(sent.params?._meta).toBeUndefined();
      expect(first.written.filter((m) => 'method' in m && m.method === 'tools/call')).toHaveLength(
        1,
      );
      await client.close();
    }
  });
});
