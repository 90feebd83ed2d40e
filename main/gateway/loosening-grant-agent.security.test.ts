import { afterEach, describe, expect, it } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { nextRequest } from '../../test-support/core-events.js';
import {
  connectClient,
  CountingSource,
  startTestApp,
  textOf,
  type TestApp,
} from '../../test-support/harness.js';
import { MemoryVault } from '../platform/vault/vault.js';

/**
 * Red-team wave 4: a loosening held for the user's confirmation on the Tools page (asked for from
 * outside the window, up to ten minutes on) names its agent by name — an "always allow" of its
 * request, "let X run without asking" for it, more tools for it. Revoking an agent ends its grants
 * and requests so that "a new agent given the same name inherits nothing" (revoke.security.test.ts);
 * a change held for the revoked agent and confirmed afterwards was applied all the same, under the
 * name — to whichever agent bears it next. Revoking now fails every change held for the agent.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('a held "always allow" dies with the agent it was asked for', () => {
  it.each([
    ['re-added under the same name before the confirmation', true],
    ['not re-added (yet)', false],
  ])('agent revoked, %s: the grant is not made; the new agent asks', async (_label, readdFirst) => {
    const source = new CountingSource();
    t = await startTestApp({ sources: [source] });
    const token = new URL(t.started.controlUrl).hash.replace('#token=', '');
    const cli = httpControlClient(t.started.url, token);
    const old = await connectClient(t.started.mcpUrl, t.token);
    const call = old.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    const { id } = await nextRequest(t.app);
    await cli.decide(id, { kind: 'always_allow' });
    await call;
    await old.close();
    const [held] = await t.app.control.listPolicyChanges();
    const seen: unknown[] = [];
    const off = t.app.events.subscribe((e) => {
      if (e.type === 'policy.change' && e.change.id === held!.id) seen.push(e.change);
    });
    await t.app.control.revokeAgent('test');
    off();
    // Failed with the agent, saying so (within the revocation); nothing left to confirm, and
    // confirming it changes nothing.
    expect(seen).toEqual([
      expect.objectContaining({ state: 'failed', error: expect.stringMatching(/revoked/) }),
    ]);
    const added = readdFirst ? await t.app.control.addAgent('test') : null;
    expect(await t.app.control.listPolicyChanges()).toEqual([]);
    await expect(t.app.control.decidePolicyChange(held!.id, true)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await t.app.control.listGrants()).toEqual([]);
    // Whoever bears the name now asks like any agent.
    const fresh = added ?? (await t.app.control.addAgent('test'));
    const next = await connectClient(t.started.mcpUrl, fresh.token);
    const asked = nextRequest(t.app);
    const again = next.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    expect((await asked).agent).toBe('test');
    expect(source.count('count_send')).toBe(1);
    await next.close();
    expect(textOf(await again.catch(() => ({ content: [] })))).not.toMatch(/count_send ok/);
  });
});

describe('every held loosening for an agent dies with it', () => {
  it.each([
    [
      '"let count_send run without asking" for the agent',
      (cli: ReturnType<typeof httpControlClient>) =>
        cli.setToolPolicy('count_send', { approval: 'auto', agent: 'test' }),
    ],
    [
      '"give the agent count_send"',
      (cli: ReturnType<typeof httpControlClient>) =>
        cli.setAgentTools('test', ['count_read', 'count_send']),
    ],
  ])(
    '%s, held; the agent revoked and a new one added under its name: the change fails, the new agent gets nothing',
    async (_label, ask) => {
      const source = new CountingSource();
      t = await startTestApp({ sources: [source] });
      const cli = httpControlClient(
        t.started.url,
        new URL(t.started.controlUrl).hash.replace('#token=', ''),
      );
      // The old agent sees count_read only, so giving it count_send is a loosening that waits.
      await t.app.control.setAgentTools('test', ['count_read']);
      await expect(ask(cli)).rejects.toMatchObject({ code: 'CONFIRM_IN_WINDOW' });
      const [held] = await t.app.control.listPolicyChanges();
      await t.app.control.revokeAgent('test');
      const fresh = await t.app.control.addAgent('test');
      await t.app.control.setAgentTools('test', ['count_read']);
      // Gone with the agent: nothing left to confirm, and confirming it by id changes nothing.
      expect(await t.app.control.listPolicyChanges()).toEqual([]);
      await expect(t.app.control.decidePolicyChange(held!.id, true)).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      const tools = await t.app.control.listTools('test');
      expect(tools.find((x) => x.name === 'count_send')?.approval).not.toBe('auto');
      expect((await t.app.control.listAgents()).find((a) => a.name === 'test')?.tools).toEqual([
        'count/count_read',
      ]);
      const next = await connectClient(t.started.mcpUrl, fresh.token);
      expect((await next.listTools()).tools.map((x) => x.name)).toEqual(['count_read']);
      await next.close();
    },
  );
});

/**
 * Review of wave 4: the agent leaves settings (and its token stops working) before its keychain
 * entry is deleted (agent-service.ts revoke), and the changes held for it were failed only after
 * that deletion. A keychain that is slow — a name added again meanwhile — or that refuses to
 * delete left them pending for the next agent under the name.
 */
class KeychainOnHold extends MemoryVault {
  refuse = false;
  private entered: (() => void) | null = null;
  private release: (() => void) | null = null;
  /** Resolves once a delete waits on the keychain; `done` lets it finish. */
  hold(): { waiting: Promise<void>; done: () => void } {
    const waiting = new Promise<void>((r) => (this.entered = r));
    const gate = new Promise<void>((r) => (this.release = r));
    this.gate = gate;
    return { waiting, done: () => this.release?.() };
  }
  private gate: Promise<void> | null = null;
  override async delete(key: string): Promise<boolean> {
    const gate = this.gate;
    this.gate = null;
    if (gate) {
      this.entered?.();
      await gate;
    }
    if (this.refuse) throw new Error('keychain refused');
    return super.delete(key);
  }
}

describe('held changes fail with the revocation, before the keychain answers', () => {
  it.each([
    ['slow: the name asked for again while it deletes', false],
    ['refusing to delete', true],
  ])(
    'keychain %s: the change fails, the new agent under the name gets nothing',
    async (_l, refuse) => {
      const vault = new KeychainOnHold();
      vault.refuse = refuse;
      t = await startTestApp({ sources: [new CountingSource()], vault });
      const cli = httpControlClient(
        t.started.url,
        new URL(t.started.controlUrl).hash.replace('#token=', ''),
      );
      // Held for "test", and one for "other" that its revocation must leave alone.
      await t.app.control.addAgent('other');
      await expect(
        cli.setToolPolicy('count_send', { approval: 'auto', agent: 'test' }),
      ).rejects.toMatchObject({ code: 'CONFIRM_IN_WINDOW' });
      await expect(
        cli.setToolPolicy('count_delete', {
          approval: 'auto',
          agent: 'other',
          confirmDestructive: true,
        }),
      ).rejects.toMatchObject({ code: 'CONFIRM_IN_WINDOW' });
      const [mine, others] = await t.app.control.listPolicyChanges();
      // And a grant the user made in the window for "test": it ends with the agent too.
      const old = await connectClient(t.started.mcpUrl, t.token);
      const call = old.callTool({ name: 'count_send', arguments: { to: 'someone' } });
      await t.app.control.decide((await nextRequest(t.app)).id, {
        kind: 'always_allow',
        confirm: true,
      });
      await call;
      await old.close();
      expect((await t.app.control.listGrants()).filter((g) => g.active)).toHaveLength(1);

      const keychain = vault.hold();
      const revoking = t.app.control.revokeAgent('test').catch((e: unknown) => e);
      await keychain.waiting;
      expect((await t.app.control.listGrants()).filter((g) => g.active)).toEqual([]);
      // Nothing of the revoked agent's left to confirm; the other agent's change still waits.
      expect((await t.app.control.listPolicyChanges()).map((c) => c.id)).toEqual([others!.id]);
      await expect(t.app.control.decidePolicyChange(mine!.id, true)).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      // The name is not given out again while its keychain entry is being deleted: a token
      // stored now would go with it, and the new agent would be missing at the next start.
      await expect(t.app.control.addAgent('test')).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/still being revoked/),
      });
      keychain.done();
      await revoking;
      const fresh = await t.app.control.addAgent('test');
      expect(await vault.get('agent:test')).toBe(fresh.token);
      const next = await connectClient(t.started.mcpUrl, fresh.token);
      expect(
        (await t.app.control.listTools('test')).find((x) => x.name === 'count_send')?.approval,
      ).toBe('ask');
      // The new agent's call asks: no grant of the revoked one lets it run unseen.
      const asked = nextRequest(t.app);
      const again = next.callTool({ name: 'count_send', arguments: { to: 'someone' } });
      expect((await asked).agent).toBe('test');
      await next.close();
      await again.catch(() => {});
      expect((await t.app.control.decidePolicyChange(others!.id, true)).state).toBe('confirmed');
      const theirs = (await t.app.control.listTools('other')).find(
        (x) => x.name === 'count_delete',
      );
      expect(theirs?.approval).toBe('auto');
    },
  );
});
