import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { ControlError, type ControlApi } from '../../common/contract/index.js';
import { socketControlClient } from '../cli/socket-client.js';
import { confirmedInWindow, refuseLoosening } from '../cli/confirm-in-window.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { agentClient, FAST_REMOTE } from '../../test-support/remote-app.js';
import { startTestApp, type TestApp } from '../../test-support/harness.js';
import { controlSocketPath } from '../gateway/control-socket.js';
import { remoteLoosening } from './remote-loosening.js';

/**
 * Issue 27, item 4: `updateRemote {enabled: true}` over the control socket applied at once and
 * the server's tools ran. Every server change that lets more run — enabling, another URL,
 * other headers or token, another launch of a local server, relaying turned back on, adding a
 * server back whose tools the user once let run unasked — waits for the user in Airlock's
 * window, over the socket and over HTTP alike; tightening applies at once.
 */
let up: FakeUpstream;
let other: FakeUpstream;
let t: TestApp;
let agent: Client;
const clients: Record<'socket' | 'http', ControlApi> = {} as never;

beforeAll(async () => {
  const tool = (name: string) => ({
    name,
    annotations: { readOnlyHint: true },
    run: async () => ({ content: [{ type: 'text' as const, text: `${name} ran` }] }),
  });
  up = new FakeUpstream({ tools: [tool('read')] });
  other = new FakeUpstream({ tools: [tool('read')] });
  await up.start();
  await other.start();
  t = await startTestApp({ app: { remoteTimings: FAST_REMOTE } });
  const token = new URL(t.started.controlUrl).hash.replace('#token=', '');
  clients.http = httpControlClient(t.started.url, token);
  clients.socket = socketControlClient(controlSocketPath(t.dataDir));
  // The window (in-process, as over IPC) adds the server: a read-only tool, which runs unasked.
  await t.app.control.addRemote({ name: 'svc', url: up.url });
  agent = await agentClient(t.started.mcpUrl, t.token);
});
afterAll(async () => {
  await agent.close();
  await t.stop();
  await up.stop();
  await other.stop();
});

const cfg = () => t.app.settings.get().remotes.find((r) => r.name === 'svc')!;
const held = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ControlError);
  expect((err as ControlError).code).toBe('CONFIRM_IN_WINDOW');
  return (err as ControlError).message;
};
const pendingId = async (summary: RegExp) => {
  const change = (await t.app.control.listPolicyChanges()).find((c) => summary.test(c.summary));
  expect(change, `a pending change matching ${summary}`).toBeDefined();
  return change!.id;
};
const toolNames = async () => (await agent.listTools()).tools.map((x) => x.name);

describe.each(['socket', 'http'] as const)('over the control %s', (via) => {
  it('re-enabling a disabled server waits for the window; its tools stay out until confirmed', async () => {
    const api = clients[via];
    expect(await toolNames()).toContain('svc__read');
    // Tightening: at once.
    expect((await api.updateRemote('svc', { enabled: false })).enabled).toBe(false);
    expect(await toolNames()).not.toContain('svc__read');
    const calls = up.calls.length;

    expect(await held(api.updateRemote('svc', { enabled: true }))).toMatch(
      /confirm in Airlock's window.*enable server "svc"/,
    );
    expect(cfg().enabled).toBe(false);
    expect(await toolNames()).not.toContain('svc__read');
    const r = await agent.callTool({ name: 'svc__read', arguments: {} }).catch((e: unknown) => e);
    expect((r as Error).message).toMatch(/Unknown tool/);
    expect(up.calls.length).toBe(calls);
    // Confirming its own request is not the caller's to do.
    const id = await pendingId(/enable server "svc"/);
    await expect(api.decidePolicyChange(id, true)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(cfg().enabled).toBe(false);

    // The window confirms: now it runs.
    expect((await t.app.control.decidePolicyChange(id, true)).state).toBe('confirmed');
    expect(cfg().enabled).toBe(true);
    await t.app.control.refreshRemote('svc');
    expect(await toolNames()).toContain('svc__read');
  });

  it('another URL, other headers, a new token: each waits; the server keeps its old ones', async () => {
    const api = clients[via];
    const before = { ...cfg() };
    expect(await held(api.updateRemote('svc', { url: other.url }))).toMatch(
      /point server "svc" at http:\/\/127\.0\.0\.1:\d+\/mcp \(was .*\).*which server, and as whom/,
    );
    expect(await held(api.updateRemote('svc', { headers: { 'X-Tenant': 'theirs' } }))).toMatch(
      /change the headers of server "svc"/,
    );
    expect(await held(api.updateRemote('svc', { bearerToken: 'their-token-123456' }))).toMatch(
      /give server "svc" a new token/,
    );
    // Nothing in the summary is the token itself.
    for (const c of await t.app.control.listPolicyChanges())
      expect(c.summary).not.toContain('their-token-123456');
    expect(cfg()).toEqual(before);
    expect(await t.vault.get('remote:svc:bearer')).toBeNull();
    // The same URL (as updateRemote normalises it), an empty header set on a server without
    // headers, and a patch updateRemote refuses anyway are not held.
    expect((await api.updateRemote('svc', { url: `  ${up.url}  ` })).url).toBe(up.url);
    expect((await api.updateRemote('svc', { headers: {} })).headerNames).toEqual([]);
    await expect(api.updateRemote('svc', { url: 'ftp://x/' })).rejects.toMatchObject({
      code: 'INVALID',
    });
    for (const c of await t.app.control.listPolicyChanges())
      await t.app.control.decidePolicyChange(c.id, false);
  });

  it('relaying off applies at once; back on waits for the window', async () => {
    const api = clients[via];
    expect((await api.updateRemote('svc', { relay: false })).relay).toBe(false);
    expect(await held(api.updateRemote('svc', { relay: true }))).toMatch(
      /let server "svc" send its requests \(sampling, elicitation, roots\)/,
    );
    expect(cfg().relay).toBe(false);
    const waiting = confirmedInWindow(
      api,
      () => api.updateRemote('svc', { relay: true }),
      () => {},
    );
    await t.app.control.decidePolicyChange(await pendingId(/let server "svc" send/), true);
    await waiting;
    expect(cfg().relay).toBe(true);
  });
});

describe('local servers and servers added back', () => {
  it('a new program, arguments or environment of a local server waits; the same launch does not', async () => {
    const stdio = { command: process.execPath, args: ['--version'], env: { A: '1' } };
    await t.app.control.addRemote({ name: 'loc', stdio });
    await t.app.control.updateRemote('loc', { enabled: false });
    const api = clients.socket;
    const launch = () => t.app.settings.get().remotes.find((r) => r.name === 'loc')!.stdio;
    const was = launch();
    for (const changed of [
      { ...stdio, command: '/bin/sh' },
      { ...stdio, args: ['-e', 'evil()'] },
      { ...stdio, env: { A: '2' } },
      { ...stdio, secretEnv: { TOKEN: 'theirs-123' } },
    ])
      expect(await held(api.updateRemote('loc', { stdio: changed }))).toMatch(
        /start local server "loc" as/,
      );
    expect(launch()).toEqual(was);
    // Disabled, the same launch given again changes nothing that runs: applied at once.
    expect((await api.updateRemote('loc', { stdio })).stdio?.args).toEqual(['--version']);
    for (const c of await t.app.control.listPolicyChanges())
      await t.app.control.decidePolicyChange(c.id, false);
    await t.app.control.removeRemote('loc');
  });

  it('remove, then add back under the same name: held when the user had let its tools run unasked', async () => {
    await t.app.control.setToolPolicy('svc__read', { approval: 'auto' });
    const api = clients.http;
    await api.removeRemote('svc');
    expect(await held(api.addRemote({ name: 'svc', url: other.url }))).toMatch(
      /add server "svc" again: your earlier choices for it let 1 of its tools \(read\) run without asking/,
    );
    expect(t.app.settings.get().remotes.some((r) => r.name === 'svc')).toBe(false);
    // A new name carries no earlier choices: added at once, as before.
    expect((await api.addRemote({ name: 'fresh', url: other.url })).name).toBe('fresh');
  });

  it('without a running Airlock the CLI refuses these changes instead of applying them', async () => {
    await t.app.control.updateRemote('fresh', { enabled: false });
    const offline = refuseLoosening(t.app.control, (method, params) =>
      remoteLoosening(method, params, t.app.settings.get()),
    );
    await expect(offline.updateRemote('fresh', { enabled: true })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/no window to confirm this in: enable server "fresh"/),
    });
    expect((await offline.updateRemote('fresh', { relay: false })).relay).toBe(false);
  });
});
