import { Client, InMemoryTransport as ClientMemory } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import type { AgentFeatures } from './api.js';
import { roundRelay, sessionRelay } from './relay.js';

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
  client.setNotificationHandler('notifications/elicitation/complete', (n) => {
    got.push(n.params.elicitationId);
  });
  const [a, b] = ClientMemory.createLinkedPair();
  await Promise.all([server.connect(b as never), client.connect(a)]);
  return { server, client, got };
}

describe('a relay tells the agent that a URL step is complete', () => {
  it('a 2025 session with URL elicitation gets notifications/elicitation/complete', async () => {
    const { server, client, got } = await connected({ elicitation: { url: {} } });
    sessionRelay('a', server, features).elicitationComplete!('e-1');
    await client.ping(); // delivered in order: the notification came first
    expect(got).toEqual(['e-1']);
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
    expect(roundRelay('a', server, features, async () => ({})).elicitationComplete).toBeUndefined();
  });
});
