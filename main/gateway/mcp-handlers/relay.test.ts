import { Client, InMemoryTransport as ClientMemory } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import type { AgentFeatures } from './api.js';
import { roundRelay, sessionRelay } from './relay.js';
import { RELAY_LIMITS } from './relay-ledger.js';

/**
 * A URL elicitation's completion (MCP 2025-11-25, `notifications/elicitation/complete`) goes to
 * a 2025 agent on its session, outside any request — and only to an agent that declared URL-mode
 * elicitation. A 2026-07-28 relay has no channel for it after the call.
 */
const features = { recordRelay: vi.fn() } as unknown as AgentFeatures;

async function connected(caps: Record<string, unknown>) {
  const server = new Server({ name: 'airlock', version: '1' }, { capabilities: {} });
  const client = new Client({ name: 'agent', version: '1' }, { capabilities: caps });
  const got: string[] = [];
  const metas: unknown[] = [];
  client.setNotificationHandler('notifications/elicitation/complete', (n) => {
    got.push(n.params.elicitationId);
    metas.push(n.params._meta);
  });
  const [a, b] = ClientMemory.createLinkedPair();
  await Promise.all([server.connect(b as never), client.connect(a)]);
  return { server, client, got, metas };
}

describe('a relay tells the agent that a URL step is complete', () => {
  it('a 2025 session with URL elicitation gets notifications/elicitation/complete', async () => {
    const { server, client, got } = await connected({ elicitation: { url: {} } });
    sessionRelay('a', server, features).elicitationComplete!('e-1');
    await client.ping(); // delivered in order: the notification came first
    expect(got).toEqual(['e-1']);
    await client.close();
  });

  it("with the server's _meta (filtered before it reaches the relay: untrusted.ts noticeMeta)", async () => {
    const { server, client, got, metas } = await connected({ elicitation: { url: {} } });
    const relay = sessionRelay('a', server, features);
    relay.elicitationComplete!('e-3', { 'example.com/k': { n: [1] } });
    relay.elicitationComplete!('e-4');
    await client.ping();
    expect(got).toEqual(['e-3', 'e-4']);
    expect(metas).toEqual([{ 'example.com/k': { n: [1] } }, undefined]);
    await client.close();
  });

  it('an agent that did not declare URL elicitation is not sent it', async () => {
    const { server, client, got } = await connected({ elicitation: { form: {} } });
    sessionRelay('a', server, features).elicitationComplete!('e-2');
    await client.ping();
    expect(got).toEqual([]);
    await client.close();
  });

  it('a 2026-07-28 relay offers no later channel', () => {
    const server = new Server({ name: 'airlock', version: '1' }, { capabilities: {} });
    expect(
      roundRelay('a', server, features, undefined, undefined, async () => ({})).elicitationComplete,
    ).toBeUndefined();
  });
});

/**
 * Issue 27.7 on a session's own relay (requests outside any call, e.g. roots/list): its ledger
 * lives as long as the session, so the bound is on requests waiting for the agent at once — and
 * an answered one makes room again (relay-ledger.ts).
 */
describe('a session relay bounds the requests waiting for the agent', () => {
  it(`${RELAY_LIMITS.perRequest} may wait at once; the next is refused; one answered makes room`, async () => {
    const max = RELAY_LIMITS.perRequest;
    const server = new Server({ name: 'airlock', version: '1' }, { capabilities: {} });
    const client = new Client({ name: 'agent', version: '1' }, { capabilities: { roots: {} } });
    // The agent holds every roots/list until the test answers it; `reached(n)` resolves once n
    // have arrived.
    const held: (() => void)[] = [];
    let want = 0;
    let arrived: () => void = () => {};
    const reached = (n: number) =>
      held.length >= n ? Promise.resolve() : new Promise<void>((r) => ((want = n), (arrived = r)));
    client.setRequestHandler(
      'roots/list',
      () =>
        new Promise((resolve) => {
          held.push(() => resolve({ roots: [] }));
          if (held.length >= want) arrived();
        }),
    );
    const [a, b] = ClientMemory.createLinkedPair();
    await Promise.all([server.connect(b as never), client.connect(a)]);
    const relay = sessionRelay('a', server, features);
    const ask = () => relay.request({ method: 'roots/list', params: {}, server: 'up' });

    const waiting = Array.from({ length: max }, ask);
    await reached(max);
    await expect(ask()).rejects.toThrow(`${max} of its requests already wait for the agent`);
    held[0]!();
    await expect(waiting[0]).resolves.toEqual({ roots: [] });
    const next = ask();
    await reached(max + 1);
    for (const answer of held.slice(1)) answer();
    await expect(Promise.all([...waiting, next])).resolves.toHaveLength(max + 1);
    await client.close();
  });
});
