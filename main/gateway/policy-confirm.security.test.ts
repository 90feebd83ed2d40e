import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { ControlError } from '../../common/contract/index.js';
import { confirmedInWindow, refuseLoosening } from '../cli/confirm-in-window.js';
import { CountingSource, startTestApp, type TestApp } from '../../test-support/harness.js';
import { nextRequest } from '../../test-support/core-events.js';

/**
 * Issue 17, item 7: `airlock tools set X --approval auto --confirm-destructive`
 * worked unattended from any process with the control token (agents with a
 * shell included). Loosening from outside Airlock's window now waits for the
 * user's confirmation in the window; tightening applies at once.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function start(policyConfirm?: 'window' | 'page') {
  t = await startTestApp({ sources: [new CountingSource()] });
  if (policyConfirm === 'window') {
    // The desktop shell's App: restart the same profile in window mode.
    await t.stop();
    const { App } = await import('../app/app.js');
    const { Logger } = await import('../platform/log.js');
    const app = new App({
      dataDir: t.dataDir,
      port: 0,
      vault: t.vault,
      sources: [new CountingSource()],
      logger: new Logger({ dir: `${t.dataDir}/logs`, stderr: false }),
      policyConfirm: 'window',
    });
    const started = await app.start();
    t = { ...t, app, started, stop: () => app.stop() };
  }
  const token = new URL(t.started.controlUrl).hash.replace('#token=', '');
  return { t, token, cli: httpControlClient(t.started.url, token) };
}

/** A control call carrying the headers a same-origin fetch from Airlock's page has. */
function fromPage(tt: TestApp, token: string, method: string, params: unknown[]) {
  const host = `127.0.0.1:${tt.started.port}`;
  return new Promise<{ status: number; body: { error?: string; result?: unknown } }>(
    (resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: tt.started.port,
          method: 'POST',
          path: '/api/rpc',
          headers: {
            host,
            origin: `http://${host}`,
            'sec-fetch-site': 'same-origin',
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ method, params }));
    },
  );
}

const approvalOf = async (tt: TestApp, name: string) =>
  (await tt.app.control.listTools()).find((x) => x.name === name)?.approval;

describe('loosening from outside the window waits for the user', () => {
  it('the CLI (control token over HTTP) cannot make a tool auto, nor confirm its own request', async () => {
    const { t, cli } = await start();
    const err = await cli
      .setToolPolicy('count_delete', { approval: 'auto', confirmDestructive: true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ControlError);
    expect((err as ControlError).code).toBe('CONFIRM_IN_WINDOW');
    expect((err as ControlError).message).toMatch(
      /confirm in Airlock's window.*count_delete run without asking/,
    );
    expect(await approvalOf(t, 'count_delete')).toBe('ask');
    const [pending] = await cli.listPolicyChanges();
    expect(pending?.summary).toMatch(/count_delete/);
    // The same caller confirming its own change is refused.
    await expect(cli.decidePolicyChange(pending!.id, true)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await approvalOf(t, 'count_delete')).toBe('ask');
  });

  it('the window confirms; the waiting CLI then sees the change applied', async () => {
    const { t, cli } = await start();
    const waiting = confirmedInWindow(
      cli,
      () => cli.setToolPolicy('count_send', { approval: 'auto', confirmDestructive: true }),
      () => {},
    );
    const change = await new Promise<string>((resolve) => {
      const off = t.app.events.subscribe((e) => {
        if (e.type === 'policy.change' && e.change.state === 'pending') {
          off();
          resolve(e.change.id);
        }
      });
    });
    // The window talks to the core directly (IPC in the desktop app).
    expect((await t.app.control.decidePolicyChange(change, true)).state).toBe('confirmed');
    await waiting;
    expect(await approvalOf(t, 'count_send')).toBe('auto');
  });

  it('a rejected change leaves the policy as it was and tells the CLI', async () => {
    const { t, cli } = await start();
    const waiting = confirmedInWindow(
      cli,
      () =>
        cli.setToolPolicy('count_send', {
          enabled: true,
          approval: 'auto',
          confirmDestructive: true,
        }),
      () => {},
    );
    const id = await new Promise<string>((resolve) => {
      const off = t.app.events.subscribe((e) => {
        if (e.type === 'policy.change') {
          off();
          resolve(e.change.id);
        }
      });
    });
    await t.app.control.decidePolicyChange(id, false);
    await expect(waiting).rejects.toThrow(/You rejected the change/);
    expect(await approvalOf(t, 'count_send')).toBe('ask');
  });

  it('tightening from the CLI applies at once', async () => {
    const { t, cli } = await start();
    await t.app.control.setToolPolicy('count_read', { approval: 'auto' });
    expect((await cli.setToolPolicy('count_read', { approval: 'ask' })).approval).toBe('ask');
    expect((await cli.setToolPolicy('count_read', { enabled: false })).enabled).toBe(false);
  });

  it('widening an agent’s tools from the CLI waits too', async () => {
    const { t, cli } = await start();
    await t.app.control.setAgentTools('test', ['count_read']);
    await expect(cli.setAgentTools('test', null)).rejects.toMatchObject({
      code: 'CONFIRM_IN_WINDOW',
    });
    await expect(cli.setAgentTools('test', ['count_read', 'count_send'])).rejects.toMatchObject({
      code: 'CONFIRM_IN_WINDOW',
    });
    expect((await cli.setAgentTools('test', [])).tools).toEqual([]);
  });

  it('headless: Airlock’s own page is the window', async () => {
    const { t, token } = await start('page');
    const res = await fromPage(t, token, 'setToolPolicy', [
      'count_send',
      { approval: 'auto', confirmDestructive: true },
    ]);
    expect(res.status).toBe(200);
    expect(await approvalOf(t, 'count_send')).toBe('auto');
  });

  it('desktop: nothing over HTTP confirms, not even a page; only the window (IPC)', async () => {
    const { t, token, cli } = await start('window');
    const res = await fromPage(t, token, 'setToolPolicy', [
      'count_send',
      { approval: 'auto', confirmDestructive: true },
    ]);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('CONFIRM_IN_WINDOW');
    const [pending] = await cli.listPolicyChanges();
    expect((await fromPage(t, token, 'decidePolicyChange', [pending!.id, true])).status).toBe(403);
    expect(await approvalOf(t, 'count_send')).toBe('ask');
    await t.app.control.decidePolicyChange(pending!.id, true);
    expect(await approvalOf(t, 'count_send')).toBe('auto');
  });

  it('"always allow" from outside the window allows this call once; the grant waits for the user', async () => {
    const { t, cli } = await start();
    const source = t.app.registry.get('count_send')!.source as CountingSource;
    const { connectClient } = await import('../../test-support/harness.js');
    const agent = await connectClient(t.started.mcpUrl, t.token);
    const call = agent.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    const { id } = await nextRequest(t.app);
    expect((await cli.decide(id, { kind: 'always_allow' })).state).not.toBe('pending');
    await call;
    expect(source.count('count_send')).toBe(1);
    expect(
      (await t.app.control.listTools('test')).find((x) => x.name === 'count_send')?.approval,
    ).toBe('ask');
    const [pending] = await t.app.control.listPolicyChanges();
    expect(pending?.summary).toBe('always allow count_send for agent "test" until revoked');
    expect(await t.app.control.listGrants()).toEqual([]);
    await t.app.control.decidePolicyChange(pending!.id, true);
    // Confirmed in the window: now a standing grant for this agent and tool (issue 16 item 2).
    const grants = await t.app.control.listGrants();
    expect(grants.map((g) => [g.agent, g.tool, g.active])).toEqual([['test', 'count_send', true]]);
    await agent.close();
  });

  it('"always allow, flagged calls too" from outside the window: the user sees it and the grant keeps it', async () => {
    const { t, cli } = await start();
    const { connectClient } = await import('../../test-support/harness.js');
    const agent = await connectClient(t.started.mcpUrl, t.token);
    const call = agent.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    const { id } = await nextRequest(t.app);
    await cli.decide(id, { kind: 'always_allow', hours: 2, includeTainted: true, confirm: true });
    await call;
    const [pending] = await t.app.control.listPolicyChanges();
    // What the user confirms names the wider scope: flagged calls run without asking too.
    expect(pending?.summary).toBe(
      'always allow count_send for agent "test" for 2 h, calls Airlock flags included',
    );
    await t.app.control.decidePolicyChange(pending!.id, true);
    const grants = await t.app.control.listGrants();
    expect(grants.map((g) => [g.tool, g.active, g.includeTainted])).toEqual([
      ['count_send', true, true],
    ]);
    await agent.close();
  });

  it('with no Airlock running, the CLI’s in-process core refuses loosening', async () => {
    const { t } = await start();
    const offline = refuseLoosening(t.app.control);
    await expect(
      offline.setToolPolicy('count_send', { approval: 'auto', confirmDestructive: true }),
    ).rejects.toThrow(/Airlock is not running, so there is no window to confirm this in/);
    expect((await offline.setToolPolicy('count_send', { approval: 'ask' })).approval).toBe('ask');
  });
});

describe.skipIf(process.platform === 'win32')(
  'the local control socket is not the window either',
  () => {
    it('loosening over the socket (what `airlock tools set` uses while a server runs) waits for the window', async () => {
      const { t } = await start();
      const { readServerInfo } = await import('../platform/instance.js');
      const { dataPaths } = await import('../platform/paths.js');
      const { socketControlClient } = await import('../cli/socket-client.js');
      const path = readServerInfo(dataPaths(t.dataDir).serverInfo)?.controlSocket;
      expect(path).toBeTruthy();
      const api = socketControlClient(path!);
      const err = await api
        .setToolPolicy('count_delete', { approval: 'auto', confirmDestructive: true })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ControlError);
      expect((err as ControlError).code).toBe('CONFIRM_IN_WINDOW');
      expect(await approvalOf(t, 'count_delete')).toBe('ask');
      // Nor can the socket confirm its own change.
      const id = /Change id: ([0-9a-f-]+)/.exec((err as ControlError).message)?.[1];
      const own = await api.decidePolicyChange(id!, true).catch((e: unknown) => e);
      expect((own as ControlError).code).toBe('FORBIDDEN');
      expect(await approvalOf(t, 'count_delete')).toBe('ask');
      // Tightening still applies at once.
      await api.setToolPolicy('count_read', { approval: 'ask' });
      expect(await approvalOf(t, 'count_read')).toBe('ask');
    });
  },
);
