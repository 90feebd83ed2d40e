import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { nextRequest } from '../../test-support/core-events.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { connectClient, CountingSource, startTestApp } from '../../test-support/harness.js';
import { agentClient, startRemoteApp } from '../../test-support/remote-app.js';

// Issue 27 item 5: a grant is bound to the server it was made for, and lasts at most a year
// however its end is given.

const cleanup = cleanupAfterEach();

const SEND = {
  name: 'send',
  description: 'Sends a message.',
  inputSchema: { type: 'object', properties: { to: { type: 'string' } } },
  annotations: { readOnlyHint: false },
};

describe('a grant belongs to its server', () => {
  it('moving the server to another URL with the same tools voids the grant: the next call asks', async () => {
    const one = new FakeUpstream({ tools: [SEND] });
    const two = new FakeUpstream({ tools: [SEND] });
    await one.start();
    await two.start();
    cleanup.push(
      () => one.stop(),
      () => two.stop(),
    );
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'svc', url: one.url });
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const args = { to: 'ann@example.com' };

    const requested = nextRequest(t.app);
    const first = c.callTool({ name: 'svc__send', arguments: args });
    await t.app.control.decide((await requested).id, { kind: 'always_allow', confirm: true });
    await first;
    // Under the grant, no card (other arguments: a repeat would get the stored outcome).
    await c.callTool({ name: 'svc__send', arguments: { to: 'bob@example.com' } });
    expect(one.calls).toHaveLength(2);

    expect(await t.app.control.updateRemote('svc', { url: two.url })).toMatchObject({
      state: 'ready',
    });
    const asked = nextRequest(t.app);
    const moved = c.callTool({ name: 'svc__send', arguments: { to: 'cy@example.com' } });
    const outcome = await Promise.race([asked.then(() => 'asked'), moved.then(() => 'ran')]);
    expect(outcome).toBe('asked');
    await t.app.control.decide((await asked).id, { kind: 'deny' });
    await moved;
    expect(two.calls).toHaveLength(0);
    const [g] = await t.app.control.listGrants({ includeInactive: true });
    expect(g).toMatchObject({ active: false });
    expect(g!.inactiveReason).toMatch(/server/);
  });
});

describe('a grant lasts at most a year', () => {
  async function pending() {
    const source = new CountingSource();
    const t = await startTestApp({ sources: [source] });
    cleanup.push(() => t.stop());
    const client = await connectClient(t.started.mcpUrl, t.token);
    const requested = nextRequest(t.app);
    void client.callTool({ name: 'count_send', arguments: { to: 'a@example.com' } });
    return { app: t.app, id: (await requested).id };
  }

  it('refuses an `until` past a year, as it refuses such `hours`; a pending request stays pending', async () => {
    const { app, id } = await pending();
    const year = 365 * 24 * 3_600_000;
    for (const until of [
      '2999-01-01T00:00:00Z',
      new Date(Date.now() + year + 86_400_000).toISOString(),
      '2001-01-01T00:00:00Z',
      'next tuesday',
    ])
      await expect(
        app.control.decide(id, { kind: 'always_allow', confirm: true, until }),
      ).rejects.toMatchObject({ code: 'INVALID' });
    await expect(
      app.control.decide(id, { kind: 'always_allow', confirm: true, hours: 24 * 366 }),
    ).rejects.toMatchObject({ code: 'INVALID' });
    expect((await app.control.getApproval(id)).state).toBe('pending');
    expect(await app.control.listGrants({ includeInactive: true })).toEqual([]);

    const within = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await app.control.decide(id, { kind: 'always_allow', confirm: true, until: within });
    const [g] = await app.control.listGrants();
    expect(g!.expiresAt).toBe(within);
  });
});
