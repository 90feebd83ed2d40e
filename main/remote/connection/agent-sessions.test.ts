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

  it("openUse: get's session without a promise once open, counted as a use; none before or after", async () => {
    const closed: string[] = [];
    let finish!: (up: Upstream) => void;
    const s = new AgentSessions(
      (a) =>
        a === 'slow'
          ? new Promise<Upstream>((r) => (finish = r))
          : Promise.resolve(fakeUp(closed, a)),
      2,
    );
    const opening = s.get('slow');
    expect(s.openUse('slow')).toBeUndefined(); // still connecting: the caller awaits get
    finish(fakeUp(closed, 'slow'));
    const slow = await opening;
    expect(s.openUse('slow')).toBe(slow);
    await s.get('b');
    expect(s.openUse('slow')).toBe(slow); // slow is now the more recent: b goes first
    await s.get('c');
    await new Promise((r) => setImmediate(r));
    expect(closed).toEqual(['b']);
    await s.release('slow');
    expect(s.openUse('slow')).toBeUndefined();
    await s.closeAll();
  });
});
