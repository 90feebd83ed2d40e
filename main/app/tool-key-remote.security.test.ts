import { describe, expect, it } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream, type FakeTool } from '../../test-support/fake-upstream.js';
import type { App } from './app.js';
import { startRemoteApp, toolsOffered } from '../../test-support/remote-app.js';

/**
 * tool-key.security.test.ts with a real remote server, not a test source: the server relists its
 * tools (tools/list_changed) and a new tool, "send." (dots are allowed in MCP tool names), cleans
 * up to the same public name as "send_" and sorts first, so "mail__send_" passes to it while the
 * Tools page still shows the row of send_. The change the user makes on that row, carrying the
 * row's key, is refused; it never reaches send.
 */
const cleanup = cleanupAfterEach();

const tool = (name: string, description: string): FakeTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: false, destructiveHint: false },
});

/** Resolves once the registry (rebuilt on the server's new listing) satisfies `check`. */
function registryShows(app: App, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const test = () => {
      if (!check()) return;
      off();
      resolve();
    };
    const off = app.registry.onChange(test);
    test();
  });
}

describe('a remote server relisting its tools moves a public name: changes keep to the row', () => {
  it('setToolPolicy and setAgentTools with the row key are refused, nothing changes', async () => {
    const u = new FakeUpstream({ tools: [tool('send_', 'Sends to one person.')] });
    await u.start();
    cleanup.push(() => u.stop());
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'mail', url: u.url });
    await toolsOffered(t.app, ['mail__send_']);
    // The row the Tools page shows, and then the server's new listing.
    const row = (await t.app.control.listTools()).find((x) => x.name === 'mail__send_')!;
    const sendKey = row.key;
    expect(sendKey).toMatch(/\/send_$/);
    await u.getStreamOpen();
    await u.setTools([tool('send_', 'Sends to one person.'), tool('send.', 'Sends to everyone.')]);
    await registryShows(t.app, () => t.app.registry.get('mail__send_')?.key !== sendKey);
    const dotKey = t.app.registry.get('mail__send_')!.key;
    expect(dotKey).toMatch(/\/send\.$/);
    expect(t.app.registry.getByKey(sendKey)!.name).not.toBe('mail__send_');

    const token = new URL(t.started.controlUrl).hash.replace('#token=', '');
    const cli = httpControlClient(t.started.url, token);
    await t.app.control.setAgentTools('test', []);
    const settings = structuredClone(t.app.settings.get().tools);
    const refused = [
      () => t.app.control.setToolPolicy(row.name, { approval: 'auto', key: row.key }),
      () => t.app.control.setToolPolicy(row.name, { enabled: false, key: row.key }),
      () => cli.setToolPolicy(row.name, { approval: 'auto', key: row.key }),
      () => t.app.control.setAgentTools('test', [{ name: row.name, key: row.key }]),
      () => cli.setAgentTools('test', [{ name: row.name, key: row.key }]),
    ];
    for (const call of refused)
      await expect(call()).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/mail__send_ now names another tool/),
      });
    const views = await t.app.control.listTools();
    for (const key of [sendKey, dotKey])
      expect(views.find((x) => x.key === key)).toMatchObject({ enabled: true, approval: 'ask' });
    expect(t.app.settings.get().tools).toEqual(settings);
    expect(t.app.agents.get('test')!.tools).toEqual([]);
    expect(await t.app.control.listPolicyChanges()).toEqual([]);
  });
});
