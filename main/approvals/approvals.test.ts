import { afterEach, describe, expect, it } from 'vitest';
import { nextRequest } from '../../test-support/core-events.js';
import {
  connectClient,
  CountingSource,
  startTestApp,
  textOf,
  type TestApp,
} from '../../test-support/harness.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function setup(settings: Record<string, unknown> = {}) {
  const source = new CountingSource();
  t = await startTestApp({ sources: [source], settings });
  const client = await connectClient(t.started.mcpUrl, t.token);
  return { source, client, app: t.app };
}

describe('approvals through a real MCP client', () => {
  it('read-only tools run at once; side effects wait for the user, then run exactly once', async () => {
    const { source, client, app } = await setup();
    expect(textOf(await client.callTool({ name: 'count_read', arguments: {} }))).toMatch(
      /count_read ok/,
    );
    const requested = nextRequest(app);
    const call = client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } });
    const req = await requested;
    expect(req).toMatchObject({
      agent: 'test',
      tool: 'count_send',
      state: 'pending',
      arguments: { to: 'bob@example.com' },
    });
    expect(source.count('count_send')).toBe(0);
    await app.control.decide(req.id, { kind: 'allow_once' });
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/count_send ok/);
    expect(source.count('count_send')).toBe(1);
    expect((await app.control.getApproval(req.id)).state).toBe('done');
    const activity = await app.control.listActivity();
    // One row per call; the approval's row followed it to its end.
    expect(activity.map((a) => a.decision).sort()).toEqual(['approved', 'auto']);
    expect(activity.find((a) => a.decision === 'approved')).toMatchObject({
      decisionKind: 'once',
      outcome: 'ok',
      approvalId: req.id,
    });
    expect(JSON.stringify(activity)).not.toContain('bob@example.com');
  });

  it('a denial reaches the agent as isError with the reason, and nothing runs', async () => {
    const { source, client, app } = await setup();
    const requested = nextRequest(app);
    const call = client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } });
    await app.control.decide((await requested).id, { kind: 'deny', reason: 'not today' });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/denied.*not today.*Do not retry/s);
    expect(source.count('count_send')).toBe(0);
  });

  it('three timed-out retries and one approval give one request and one execution; later repeats get the stored outcome', async () => {
    const { source, client, app } = await setup({ approvals: { waitSeconds: 1 } });
    const args = { to: 'bob@example.com' };
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const r = await client.callTool({ name: 'count_send', arguments: args });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/Waiting for the user's approval.*Nothing has been sent/s);
      ids.add(textOf(r).match(/request ([0-9a-f-]{36})/)![1]!);
    }
    expect(ids.size).toBe(1);
    expect(await app.control.listPending()).toHaveLength(1);
    const id = [...ids][0]!;
    expect((await app.control.getApproval(id)).agentWaiting).toBe(false);
    // The fourth call waits longer than the test may run (300 s), so it is approved, not answered
    // "waiting", however slow the machine: with the 1 s wait, a decision that reached it after
    // its second was a race lost to the machine's load (issue 29 item 2). It is decided once it
    // has attached (the request says its agent is waiting again), so it gets the run itself.
    await app.control.updateSettings({ waitSeconds: 300 });
    // Key order does not matter: canonicalised arguments attach to the same request.
    const attached = client.callTool({ name: 'count_send', arguments: { ...args } });
    await expect.poll(async () => (await app.control.getApproval(id)).agentWaiting).toBe(true);
    await app.control.decide(id, { kind: 'allow_once' });
    const ran = textOf(await attached);
    expect(ran).toMatch(/count_send ok/);
    expect(ran).not.toMatch(/already ran once/);
    const again = await client.callTool({ name: 'count_send', arguments: args });
    expect(textOf(again)).toMatch(/already ran once.*count_send ok/s);
    expect(source.count('count_send')).toBe(1);
  });

  it('double-click, concurrent approvals and approve-after-deny never run twice', async () => {
    // The default wait (45 s): each call is decided, never answered "waiting" first.
    const { source, client, app } = await setup();
    const send = (to: string) => client.callTool({ name: 'count_send', arguments: { to } });
    // Double-click / two UIs at once.
    const r1 = nextRequest(app);
    const c1 = send('one@example.com');
    const id1 = (await r1).id;
    const outcomes = await Promise.allSettled(
      [1, 2, 3, 4].map(() => app.control.decide(id1, { kind: 'allow_once' })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(
      outcomes
        .filter((o) => o.status === 'rejected')
        .map((o) => (o as PromiseRejectedResult).reason.code),
    ).toEqual(['CONFLICT', 'CONFLICT', 'CONFLICT']);
    await c1;
    expect(source.count('count_send')).toBe(1);
    // Approve after deny.
    const r2 = nextRequest(app);
    const c2 = send('two@example.com');
    const id2 = (await r2).id;
    await app.control.decide(id2, { kind: 'deny' });
    await expect(app.control.decide(id2, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await c2;
    expect(source.count('count_send')).toBe(1);
  });

  it('edited arguments are validated against the schema; valid edits run and the agent is told', async () => {
    const { source, client, app } = await setup();
    const requested = nextRequest(app);
    const call = client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } });
    const id = (await requested).id;
    await expect(
      app.control.decide(id, { kind: 'allow_edited', arguments: { to: 'x' } }),
    ).rejects.toMatchObject({
      code: 'INVALID',
      message: expect.stringMatching(
        /do not fit count_send.*\/to must NOT have fewer than 3 characters/,
      ),
    });
    await expect(
      app.control.decide(id, {
        kind: 'allow_edited',
        arguments: { to: 'ok@example.com', extra: 1 },
      }),
    ).rejects.toMatchObject({ code: 'INVALID' });
    expect((await app.control.getApproval(id)).state).toBe('pending');
    await app.control.decide(id, { kind: 'allow_edited', arguments: { to: 'carol@example.com' } });
    const text = textOf(await call);
    expect(text).toMatch(/edited the arguments.*to: "bob@example.com" → "carol@example.com"/);
    expect(source.calls).toEqual([{ tool: 'count_send', args: { to: 'carol@example.com' } }]);
  });

  it('"always allow" lets later calls from that agent run without asking', async () => {
    const { source, client, app } = await setup();
    const requested = nextRequest(app);
    const call = client.callTool({ name: 'count_send', arguments: { to: 'a@example.com' } });
    const id = (await requested).id;
    // Letting a tool with side effects run freely needs a deliberate confirmation (issue 16 item 2).
    await expect(app.control.decide(id, { kind: 'always_allow' })).rejects.toMatchObject({
      code: 'CONFIRM_REQUIRED',
    });
    await app.control.decide(id, { kind: 'always_allow', confirm: true });
    await call;
    await client.callTool({ name: 'count_send', arguments: { to: 'b@example.com' } });
    expect(source.count('count_send')).toBe(2);
    expect(
      (await app.control.listTools('test')).find((x) => x.name === 'count_send'),
    ).toMatchObject({ grantedUntil: null });
    const [grant] = await app.control.listGrants();
    expect(grant).toMatchObject({ agent: 'test', tool: 'count_send', uses: 1, active: true });
    const activity = await app.control.listActivity();
    expect(activity.find((a) => a.event === 'grant.created')).toMatchObject({ grantId: grant!.id });
    expect(activity.find((a) => a.decision === 'grant' && a.event === undefined)).toMatchObject({
      grantId: grant!.id,
      outcome: 'ok',
    });
    // Revoked: the next call asks again.
    await app.control.revokeGrant(grant!.id);
    const again = nextRequest(app);
    void client.callTool({ name: 'count_send', arguments: { to: 'c@example.com' } });
    expect((await again).arguments).toEqual({ to: 'c@example.com' });
    // Another agent still has to ask.
    expect((await app.control.listTools()).find((x) => x.name === 'count_send')?.approval).toBe(
      'ask',
    );
  });

  it('a silent grant left in settings by an older version is not honoured', async () => {
    const { app } = await setup();
    app.agents.update('test', (a) => void (a.grants['count/count_send'] = null));
    expect(
      (await app.control.listTools('test')).find((x) => x.name === 'count_send')?.approval,
    ).toBe('ask');
  });

  it('pause denies every asking call at once; read-only calls still run', async () => {
    const { source, client, app } = await setup();
    await app.control.setPaused(true);
    const r = await client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/paused/);
    expect(await app.control.listPending()).toEqual([]);
    expect((await client.callTool({ name: 'count_read', arguments: {} })).isError).toBeFalsy();
    expect(source.count('count_send')).toBe(0);
  });

  it('a client that cancels while waiting keeps its request for the grace period; its retry re-attaches', async () => {
    const { client, app } = await setup();
    const requested = nextRequest(app);
    const abort = new AbortController();
    const call = client.callTool(
      { name: 'count_send', arguments: { to: 'bob@example.com' } },
      { signal: abort.signal },
    );
    const id = (await requested).id;
    const left = new Promise<void>((resolve) =>
      app.events.subscribe(
        (e) => e.type === 'approval.updated' && e.approval.agentWaiting === false && resolve(),
      ),
    );
    abort.abort();
    await expect(call).rejects.toThrow();
    await left;
    expect(await app.control.getApproval(id)).toMatchObject({
      state: 'pending',
      agentWaiting: false,
    });
    const retry = client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } });
    await expect.poll(async () => (await app.control.getApproval(id)).agentWaiting).toBe(true);
    await app.control.decide(id, { kind: 'allow_once' });
    expect(textOf(await retry)).toMatch(/count_send ok/);
    expect(await app.control.listPending()).toEqual([]);
  });

  it('progress notifications flow while the call waits', async () => {
    // The longest wait (300 s): the approval after the first tick always comes before it ends.
    const { client, app } = await setup({
      approvals: { waitSeconds: 300, progressIntervalSeconds: 1 },
    });
    const requested = nextRequest(app);
    const messages: string[] = [];
    let approved = false;
    const call = client.callTool(
      { name: 'count_send', arguments: { to: 'bob@example.com' } },
      {
        onprogress: (p) => {
          messages.push(p.message ?? '');
          if (!approved) {
            approved = true;
            void requested.then((r) => app.control.decide(r.id, { kind: 'allow_once' }));
          }
        },
      },
    );
    expect(textOf(await call)).toMatch(/count_send ok/);
    expect(messages[0]).toMatch(/Waiting for approval in Airlock/);
  });
});

describe('tool policies', () => {
  it('making a destructive tool auto needs explicit confirmation', async () => {
    const { app } = await setup();
    await expect(
      app.control.setToolPolicy('count_delete', { approval: 'auto' }),
    ).rejects.toMatchObject({ code: 'CONFIRM_REQUIRED' });
    expect(
      (
        await app.control.setToolPolicy('count_delete', {
          approval: 'auto',
          confirmDestructive: true,
        })
      ).approval,
    ).toBe('auto');
    // A non-destructive side effect needs no confirmation.
    expect((await app.control.setToolPolicy('count_send', { approval: 'auto' })).approval).toBe(
      'auto',
    );
  });

  it('per-agent overrides and tool subsets apply to that agent only', async () => {
    const { client, app } = await setup();
    await app.control.setToolPolicy('count_read', { enabled: false, agent: 'test' });
    expect((await client.listTools()).tools.map((x) => x.name)).not.toContain('count_read');
    expect((await app.control.listTools()).find((x) => x.name === 'count_read')?.enabled).toBe(
      true,
    );
    await app.control.setAgentTools('test', ['count_send']);
    expect((await client.listTools()).tools.map((x) => x.name)).toEqual(['count_send']);
    await expect(client.callTool({ name: 'airlock_status', arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
    await expect(app.control.setAgentTools('test', ['nope'])).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await app.control.setAgentTools('test', null);
    expect((await client.listTools()).tools.map((x) => x.name)).toContain('airlock_status');
  });

  it('settings survive a tool disappearing and coming back', async () => {
    const { source, app } = await setup();
    await app.control.setToolPolicy('count_read', { enabled: false });
    const saved = source.defs;
    source.defs = saved.filter((d) => d.name !== 'count_read');
    source.changed();
    expect(app.registry.get('count_read')).toBeUndefined();
    source.defs = saved;
    source.changed();
    expect((await app.control.listTools()).find((x) => x.name === 'count_read')?.enabled).toBe(
      false,
    );
  });
});
