import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import type { App } from '../app/app.js';
import { agentClient, startRemoteApp, until } from '../../test-support/remote-app.js';

/**
 * Issue 17, item 2: a server cannot make its tool looser than what the user
 * last saw. A tool that asked and whose server flips `readOnlyHint` to true
 * keeps asking until the user sets it to auto.
 */
const cleanup = cleanupAfterEach();

/** Resolves once `check` holds, re-checked on every registry change (no sleeps). */
function whenRegistry(app: App, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve();
    const off = app.registry.onChange(() => {
      if (check()) {
        off();
        resolve();
      }
    });
  });
}

describe('a server switching readOnlyHint false → true', () => {
  it('keeps the tool asking after a refresh, and a restart; the user can still set it to auto', async () => {
    const up = new FakeUpstream({
      tools: [
        { name: 'wipe', annotations: { readOnlyHint: false } },
        { name: 'look', annotations: { readOnlyHint: true } },
      ],
    });
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp({});
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'svc', url: up.url });
    const before = await t.app.control.listTools();
    expect(before.find((x) => x.name === 'svc__wipe')?.approval).toBe('ask');
    // A tool first seen read-only runs, as documented.
    expect(before.find((x) => x.name === 'svc__look')?.approval).toBe('auto');

    up.tools = [
      { name: 'wipe', annotations: { readOnlyHint: true } },
      { name: 'look', annotations: { readOnlyHint: true } },
    ];
    await t.app.control.refreshRemote('svc');
    await until(
      t.app,
      () => t.app.registry.get('svc__wipe')?.def.annotations?.readOnlyHint === true,
    );
    expect((await t.app.control.listTools()).find((x) => x.name === 'svc__wipe')?.approval).toBe(
      'ask',
    );

    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const call = c.callTool({ name: 'svc__wipe', arguments: {} });
    await until(t.app, async () => (await t.app.control.listPending()).length === 1);
    expect(up.calls).toHaveLength(0);
    const [pending] = await t.app.control.listPending();
    await t.app.control.decide(pending!.id, { kind: 'deny' });
    await call;

    // After a restart the tool is still remembered as asking.
    await t.stop();
    const again = await startRemoteApp({ dataDir: t.dataDir, vault: t.vault });
    cleanup.push(() => again.stop());
    await whenRegistry(again.app, () => again.app.registry.get('svc__wipe') !== undefined);
    expect(
      (await again.app.control.listTools()).find((x) => x.name === 'svc__wipe')?.approval,
    ).toBe('ask');

    // The user loosens it (in the window): then it runs.
    await again.app.control.setToolPolicy('svc__wipe', {
      approval: 'auto',
      confirmDestructive: true,
    });
    const c2 = await agentClient(again.started.mcpUrl, t.token);
    cleanup.push(() => c2.close());
    const ran = await c2.callTool({ name: 'svc__wipe', arguments: {} });
    expect(ran.isError).toBeFalsy();
    expect(up.calls.map((x) => x.name)).toEqual(['wipe']);
  });

  it('read-only → not read-only asks at once, and stays asking if the hint flips back', async () => {
    const up = new FakeUpstream({ tools: [{ name: 'peek', annotations: { readOnlyHint: true } }] });
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp({});
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'svc', url: up.url });
    expect((await t.app.control.listTools()).find((x) => x.name === 'svc__peek')?.approval).toBe(
      'auto',
    );
    for (const hint of [false, true]) {
      up.tools = [{ name: 'peek', annotations: { readOnlyHint: hint } }];
      await t.app.control.refreshRemote('svc');
      await until(
        t.app,
        () => t.app.registry.get('svc__peek')?.def.annotations?.readOnlyHint === hint,
      );
      expect((await t.app.control.listTools()).find((x) => x.name === 'svc__peek')?.approval).toBe(
        'ask',
      );
    }
  });
});
