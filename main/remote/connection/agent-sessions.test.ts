import { describe, expect, it } from 'vitest';
import { AgentSessions } from './agent-sessions.js';
import type { Upstream } from '../upstream/upstream.js';

/** Issue 14, item 4: agents' own upstream sessions are bounded and do not linger. */
function fakeUp(closed: string[], agent: string): Upstream {
  return {
    transport: 'streamable-http',
    protocolVersion: '2025-11-25',
    hasSession: () => true,
    close: async () => void closed.push(agent),
  } as unknown as Upstream;
}

describe('AgentSessions', () => {
  it('opens one session per agent and reuses it', async () => {
    const closed: string[] = [];
    let opened = 0;
    const s = new AgentSessions(async (a) => (opened++, fakeUp(closed, a)), 4);
    const a1 = await s.get('a');
    expect(await s.get('a')).toBe(a1);
    expect(opened).toBe(1);
    await s.closeAll();
  });

  it('is bounded: the least recently used idle session closes first', async () => {
    const closed: string[] = [];
    const s = new AgentSessions(async (a) => fakeUp(closed, a), 2);
    await s.get('a');
    await s.get('b');
    await s.get('a'); // a is now the more recent
    await s.get('c');
    await new Promise((r) => setImmediate(r));
    expect(closed).toEqual(['b']);
    expect(s.agents().sort()).toEqual(['a', 'c']);
    await s.closeAll();
  });

  it('closes idle sessions that hold no state for their agent; keeps the others', async () => {
    const closed: string[] = [];
    const s = new AgentSessions(async (a) => fakeUp(closed, a), 8, {
      ms: 1000,
      keep: (agent) => agent === 'stateful',
    });
    await s.get('stateless');
    await s.get('stateful');
    await s.sweep(Date.now() + 2000);
    expect(closed).toEqual(['stateless']);
    expect(s.agents()).toEqual(['stateful']);
    await s.closeAll();
  });
});
