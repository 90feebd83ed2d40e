import { describe, expect, it } from 'vitest';
import { closedPort } from '../../test-support/closed-port.js';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream, type FakeUpstreamOptions } from '../../test-support/fake-upstream.js';
import {
  agentClient,
  startRemoteApp,
  until,
  type RemoteTestApp,
} from '../../test-support/remote-app.js';
import { bearerKey } from './secrets.js';

/** Issue 4, "Isolation" and "Hot reload", against in-process upstreams and a real Airlock. */
const cleanup = cleanupAfterEach();

async function upstream(o: FakeUpstreamOptions): Promise<FakeUpstream> {
  const u = new FakeUpstream(o);
  await u.start();
  cleanup.push(() => u.stop());
  return u;
}
async function airlock(o: Parameters<typeof startRemoteApp>[0] = {}): Promise<RemoteTestApp> {
  const t = await startRemoteApp(o);
  cleanup.push(() => t.stop());
  return t;
}
async function names(t: RemoteTestApp, token = t.token): Promise<string[]> {
  const c = await agentClient(t.started.mcpUrl, token);
  try {
    return (await c.listTools()).tools.map((x) => x.name);
  } finally {
    await c.close();
  }
}

/** Resolves once the server's source is in `state` (re-checked on every core event). */
const stateIs = (t: RemoteTestApp, name: string, state: string) =>
  until(
    t.app,
    async () =>
      (await t.app.control.getStatus()).sources.find((s) => s.id === `remote:${name}`)?.state ===
      state,
  );

describe('isolation', () => {
  it('a slow or dead upstream never holds up tools/list or the other servers', async () => {
    const good = await upstream({
      tools: [{ name: 'hello', annotations: { readOnlyHint: true } }],
    });
    const silent = await upstream({ tools: [], silent: true });
    // Only "slow" can trip the 1 s ready bound: it never answers, and "good" is awaited first.
    const t = await airlock({ timings: { readyMs: 1000 } });
    await t.app.control.addRemote({ name: 'good', url: good.url });
    let slowSettled = false;
    const slowAdded = t.app.control
      .addRemote({ name: 'slow', url: silent.url })
      .finally(() => (slowSettled = true));
    const dead = await t.app.control.addRemote({
      name: 'dead',
      url: `http://127.0.0.1:${await closedPort()}/mcp`,
    });
    expect(dead).toMatchObject({
      state: 'error',
      detail: 'unreachable: connection refused',
      toolCount: 0,
    });

    // While "slow" is still connecting (its connect bound is 10 min: it cannot run out here),
    // tools/list and calls of the others are answered: ordering, not the wall clock (issue 19
    // item 6, issue 29 item 2).
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const listed = await c.listTools();
    expect(listed.tools.map((x) => x.name)).toContain('good__hello');
    const called = await c.callTool({ name: 'good__hello', arguments: {} });
    expect(called.isError).toBeFalsy();
    expect(slowSettled).toBe(false);

    // After a restart, the first tools/list waits at most the ready bound (1 s here) for the
    // slow one, not for its connect bound: it answers while "slow" is still loading.
    await t.stop();
    await slowAdded.catch(() => undefined); // stopping ended its attempt
    const again = await airlock({ dataDir: t.dataDir, vault: t.vault, timings: { readyMs: 1000 } });
    await stateIs(again, 'good', 'ready');
    const c2 = await agentClient(again.started.mcpUrl, t.token);
    cleanup.push(() => c2.close());
    const relisted = await c2.listTools();
    expect(relisted.tools.map((x) => x.name)).toContain('good__hello');
    const slowNow = (await again.app.control.getStatus()).sources.find(
      (s) => s.id === 'remote:slow',
    );
    expect(slowNow?.state).toBe('loading');
  });

  it('a server that never answers fails at its connect bound, and its status says why', async () => {
    const silent = await upstream({ tools: [], silent: true });
    // A short bound is safe here: nothing answers, so nothing but the bound ends the attempt.
    const t = await airlock({ timings: { connectMs: 3000 } });
    const slow = await t.app.control.addRemote({ name: 'slow', url: silent.url });
    expect(slow).toMatchObject({ state: 'error', detail: 'unreachable: no answer within 3 s' });
    const status = await t.app.control.getStatus();
    expect(status.sources.find((s) => s.id === 'remote:slow')).toMatchObject({
      state: 'error',
      detail: 'unreachable: no answer within 3 s',
      toolCount: 0,
    });
  });
});

describe('hot reload', () => {
  it('a change queued behind the stop does not start its server again', async () => {
    const u = await upstream({ tools: [{ name: 'hello', annotations: { readOnlyHint: true } }] });
    const t = await airlock();
    await t.app.control.addRemote({ name: 'late', url: u.url });
    const manager = t.app.remotes!;
    const before = u.initializeCount;
    // A settings change and a reconnect arriving while Airlock shuts down (the queue runs the
    // stop first): neither may connect after it, or the server outlives the app.
    await Promise.all([manager.stop(), manager.sync('late'), manager.refresh('late')]);
    expect(u.initializeCount).toBe(before);
    const sources = (await t.app.control.getStatus()).sources.map((s) => s.id);
    expect(sources).not.toContain('remote:late');
  });

  it('a control call arriving after the stop does not load the servers again', async () => {
    const u = await upstream({ tools: [{ name: 'hello', annotations: { readOnlyHint: true } }] });
    const t = await airlock();
    await t.app.control.addRemote({ name: 'late', url: u.url });
    await t.app.stop();
    const before = u.initializeCount;
    // A request still in flight when the app stopped (the gateway's grace, a window's IPC call):
    // the stopped loader must not build and start a fresh manager, a server nobody stops.
    await expect(t.app.control.refreshRemote('late')).rejects.toThrow(/stopping/);
    expect(u.initializeCount).toBe(before);
  });

  it('a server change judged after the stop (the loosening gate) does not load the servers again', async () => {
    const u = await upstream({ tools: [{ name: 'hello', annotations: { readOnlyHint: true } }] });
    const t = await airlock();
    await t.app.control.addRemote({ name: 'late', url: u.url });
    // A local server, disabled: judging a change to its sandbox reads the loaded StdioServers.
    await t.app.control.addRemote({
      name: 'loc',
      stdio: { command: process.execPath, args: ['--version'] },
    });
    await t.app.control.updateRemote('loc', { enabled: false });
    await t.app.stop();
    const before = u.initializeCount;
    await expect(
      t.app.serverLoosening('updateRemote', ['loc', { sandbox: { network: true } }]),
    ).rejects.toThrow(/stopping/);
    expect(u.initializeCount).toBe(before);
  });

  it('edits, disables and removes apply without a restart; tool settings survive a tool leaving and coming back', async () => {
    const one = await upstream({
      tools: [{ name: 'a' }, { name: 'b' }],
      bearer: 'token-for-one-1234',
    });
    const two = await upstream({
      tools: [{ name: 'a' }, { name: 'c' }],
      bearer: 'token-for-two-5678',
    });
    const silent = await upstream({ tools: [], silent: true });
    const t = await airlock();
    expect(
      await t.app.control.addRemote({
        name: 'svc',
        url: one.url,
        bearerToken: 'token-for-one-1234',
      }),
    ).toMatchObject({ state: 'ready', hasToken: true, toolCount: 2 });
    await t.app.control.setToolPolicy('svc__a', { enabled: false });
    await t.app.control.setToolPolicy('svc__b', { approval: 'auto', confirmDestructive: true });
    expect(await names(t)).toEqual(expect.arrayContaining(['svc__b']));

    // New URL and token: the new server's tools replace the old ones; svc__a keeps its setting.
    expect(
      await t.app.control.updateRemote('svc', { url: two.url, bearerToken: 'token-for-two-5678' }),
    ).toMatchObject({ state: 'ready', toolCount: 2 });
    const listed = await names(t);
    expect(listed).toContain('svc__c');
    expect(listed).not.toContain('svc__a'); // still disabled by the user
    expect(listed).not.toContain('svc__b');

    // Back to the first server: b returns with the user's "auto".
    await t.app.control.updateRemote('svc', { url: one.url, bearerToken: 'token-for-one-1234' });
    const b = (await t.app.control.listTools()).find((x) => x.name === 'svc__b');
    expect(b).toMatchObject({ approval: 'auto', customized: true });

    // While a new connection is being built, the previous tools stay live. The attempt ends
    // when the test takes that server away (its connect bound is 10 min).
    const editing = t.app.control.updateRemote('svc', { url: silent.url });
    expect(await names(t)).toContain('svc__b');
    await silent.stop();
    expect(await editing).toMatchObject({ state: 'error' });
    expect(await names(t)).not.toContain('svc__b');

    await t.app.control.updateRemote('svc', { url: one.url });
    expect(await names(t)).toContain('svc__b');
    expect(await t.app.control.updateRemote('svc', { enabled: false })).toMatchObject({
      state: 'disabled',
      toolCount: 0,
    });
    expect(await names(t)).not.toContain('svc__b');
    expect(await t.app.control.updateRemote('svc', { enabled: true })).toMatchObject({
      state: 'ready',
    });
    expect(await names(t)).toContain('svc__b');

    await t.app.control.removeRemote('svc');
    expect(await names(t)).not.toContain('svc__b');
    expect(await t.app.control.listRemotes()).toEqual([]);
    expect(await t.vault.get(bearerKey('svc'))).toBeNull();
    await expect(t.app.control.removeRemote('svc')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('speaks the 2026-07-28 era to a modern upstream (another Airlock) and follows its list_changed', async () => {
    const inner = await airlock();
    const t = await airlock();
    const view = await t.app.control.addRemote({
      name: 'inner',
      url: inner.started.mcpUrl,
      bearerToken: inner.token,
    });
    expect(view).toMatchObject({
      state: 'ready',
      transport: 'streamable-http',
      protocolVersion: '2026-07-28',
      toolCount: 1,
    });
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const status = await c.callTool({ name: 'inner__airlock_status', arguments: {} });
    expect(JSON.stringify(status.content)).toMatch(/Airlock/);

    // The inner Airlock gains a tool; its list_changed reaches us and the new tool appears.
    const extra = await upstream({ tools: [{ name: 'fresh' }] });
    await inner.app.control.addRemote({ name: 'extra', url: extra.url });
    await until(t.app, async () => (await t.app.control.listRemotes())[0]?.toolCount === 2);
    expect(await names(t)).toContain('inner__extra__fresh');
  });
});
