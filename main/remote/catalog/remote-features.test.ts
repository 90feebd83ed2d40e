import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { conformanceUpstream } from '../../../test-support/conformance-upstream.js';
import { FakeUpstream } from '../../../test-support/fake-upstream.js';
import { getStreamOpen } from '../../../test-support/harness.js';
import {
  agentClient,
  startRemoteApp,
  until,
  type RemoteTestApp,
} from '../../../test-support/remote-app.js';

/**
 * Issue 14: resources and prompts of two servers never collide, a disabled
 * server offers nothing, and a 2025 server that breaks a call's stream
 * inside an event fails that call at once, not its other calls.
 */
const cleanup = cleanupAfterEach();

async function twoServers(): Promise<RemoteTestApp> {
  const a = conformanceUpstream();
  const b = conformanceUpstream();
  await a.start();
  await b.start();
  cleanup.push(
    () => a.stop(),
    () => b.stop(),
  );
  const t = await startRemoteApp();
  cleanup.push(() => t.stop());
  await t.app.control.addRemote({ name: 'alpha', url: a.url });
  await t.app.control.addRemote({ name: 'beta', url: b.url });
  return t;
}

describe('resources and prompts of several servers', () => {
  it('are namespaced per server; an original URI or name two servers share is refused with the form to use', async () => {
    const t = await twoServers();
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const uris = (await c.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        'airlock://alpha/test://static-text',
        'airlock://beta/test://static-text',
      ]),
    );
    const read = await c.readResource({ uri: 'airlock://beta/test://static-text' });
    expect(read.contents[0]).toMatchObject({ uri: 'airlock://beta/test://static-text' });
    await expect(c.readResource({ uri: 'test://static-text' })).rejects.toThrow(
      /airlock:\/\/<server>\/<uri>/,
    );
    const names = (await c.listPrompts()).prompts.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['alpha__test_simple_prompt', 'beta__test_simple_prompt']),
    );
    await expect(c.getPrompt({ name: 'test_simple_prompt' })).rejects.toThrow(/Unknown prompt/);
  });

  it('a disabled server offers no resources or prompts (agents are told), and its URIs no longer resolve', async () => {
    const t = await twoServers();
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const changed = new Promise<void>((resolve) => {
      c.setNotificationHandler('notifications/resources/list_changed', () => resolve());
    });
    const promptsChanged = new Promise<void>((resolve) => {
      c.setNotificationHandler('notifications/prompts/list_changed', () => resolve());
    });
    // The 2025 era delivers notifications on the GET stream: wait for it to open.
    await getStreamOpen(c);
    await t.app.control.updateRemote('beta', { enabled: false });
    await changed;
    await promptsChanged;
    await until(t.app, async () =>
      (await c.listResources()).resources.every((r) => !r.uri.startsWith('airlock://beta/')),
    );
    expect((await c.listPrompts()).prompts.map((p) => p.name)).not.toContain(
      'beta__test_simple_prompt',
    );
    await expect(c.readResource({ uri: 'airlock://beta/test://static-text' })).rejects.toThrow(
      /Unknown resource/,
    );
    // With one server left, the original URI is unambiguous again.
    const read = await c.readResource({ uri: 'test://static-text' });
    expect(read.contents[0]).toMatchObject({ uri: 'test://static-text' });
  });
});

describe('an agent limited to some tools', () => {
  it("sees resources and prompts only of its tools' servers, and cannot read the others", async () => {
    const t = await twoServers();
    await t.app.control.setAgentTools('test', ['alpha__noop']);
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const uris = (await c.listResources()).resources.map((r) => r.uri);
    expect(uris).toContain('airlock://alpha/test://static-text');
    expect(uris.some((u) => u.startsWith('airlock://beta/'))).toBe(false);
    expect((await c.listPrompts()).prompts.map((p) => p.name)).not.toContain(
      'beta__test_simple_prompt',
    );
    await expect(c.readResource({ uri: 'airlock://beta/test://static-text' })).rejects.toThrow(
      /Unknown resource/,
    );
    await expect(c.getPrompt({ name: 'beta__test_simple_prompt' })).rejects.toThrow(
      /Unknown prompt/,
    );
  });
});

describe('a 2025 server that breaks a call’s stream inside an event', () => {
  it('fails that call at once; the server stays up for other calls', async () => {
    const up = new FakeUpstream({
      tools: [
        { name: 'ok', annotations: { readOnlyHint: true } },
        { name: 'broken', annotations: { readOnlyHint: true } },
      ],
      cutMidEvent: ['broken'],
    });
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'old', url: up.url });
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const r = await c.callTool({ name: 'old__broken', arguments: {} });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toMatch(/response stream broke/);
    const ok = await c.callTool({ name: 'old__ok', arguments: {} });
    expect(ok.isError).toBeFalsy();
  });
});
