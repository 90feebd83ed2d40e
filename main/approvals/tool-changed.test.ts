import { describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { CoreEvents } from '../platform/events.js';
import { ActivityLog } from '../store/activity.js';
import { ApprovalStore } from '../store/approval-store.js';
import { openDatabase } from '../store/db.js';
import { GrantStore } from '../store/grant-store.js';
import type { ToolEntry } from '../tools/registry.js';
import type { CallToolResult, ToolSource } from '../tools/types.js';
import { ApprovalEngine } from './engine.js';
import { GrantService } from './grants.js';
import { toolFingerprint } from './policy.js';

/**
 * An approval runs the call on the tool registered under its key at the time of the decision,
 * with what that tool fills in then. gmail_send without `account` is shown "from" the first
 * connected account that may write; approved after the accounts changed, it went out from
 * another one than the card named. A request whose tool changed since its card was made (its
 * definition, its server, its Google accounts: policy.ts toolFingerprint) cannot be allowed —
 * here the engine has no runFingerprint, so the whole tool stands for what runs; what allow once
 * binds when it has one is pending-binding.test.ts's.
 */

function harness(validate: () => string | null | Promise<string | null> = () => null) {
  const db = openDatabase(':memory:');
  const store = new ApprovalStore(db);
  const activity = new ActivityLog(db);
  const tool: { fingerprint: string | null } = { fingerprint: 'accounts: work, personal' };
  const execute = vi.fn(async (): Promise<CallToolResult> => ({
    content: [{ type: 'text', text: 'sent' }],
  }));
  const engine = new ApprovalEngine({
    store,
    events: new CoreEvents(),
    activity,
    grants: new GrantService({ store: new GrantStore(db), activity, fingerprint: () => 'p' }),
    timings: () => ({
      waitMs: 60_000,
      expireMs: 10 * 60_000,
      outcomeWindowMs: 10 * 60_000,
      progressIntervalMs: 1000,
      cancelGraceMs: 60_000,
    }),
    execute,
    toolInfo: () => ({
      name: 'gmail_send',
      inputSchema: { type: 'object' },
      server: 'Gmail',
      thirdParty: false,
      risk: 'destructive',
    }),
    validate,
    isPaused: () => false,
    toolFingerprint: () => tool.fingerprint,
  });
  const ask = (effect: () => Promise<string> = async () => 'Send an email from work@example.com') =>
    engine.ask({
      agent: 'a',
      toolKey: 'gmail/gmail_send',
      tool: 'gmail_send',
      args: { to: ['bob@example.com'], subject: 'Hi', body: 'x' },
      effect,
      signal: new AbortController().signal,
      noWait: true,
    });
  return { engine, execute, tool, ask };
}

describe('an approval is allowed only on the tool its card was made against', () => {
  it('the accounts changed while it waited: allowing is refused, nothing runs, and it can be denied', async () => {
    const h = harness();
    const id = (await h.ask()).approvalId!;
    h.tool.fingerprint = 'accounts: personal';
    for (const decision of [
      { kind: 'allow_once' as const },
      {
        kind: 'allow_edited' as const,
        arguments: { to: ['bob@example.com'], subject: 'Hi', body: 'y' },
      },
      { kind: 'always_allow' as const, confirm: true },
    ])
      await expect(h.engine.decide(id, decision)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/gmail_send changed since this request was shown/),
      });
    expect(h.engine.get(id).state).toBe('pending');
    expect(h.execute).not.toHaveBeenCalled();
    expect((await h.engine.decide(id, { kind: 'deny' })).state).toBe('denied');
  });

  it('a change while the card is being made counts as a change', async () => {
    const h = harness();
    const id = (
      await h.ask(async () => {
        h.tool.fingerprint = 'accounts: personal';
        return 'Send an email from work@example.com';
      })
    ).approvalId!;
    await expect(h.engine.decide(id, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('the tool is gone for now (its server is down): allowing is refused as unavailable, not as changed, and works once it is back unchanged', async () => {
    const h = harness();
    const id = (await h.ask()).approvalId!;
    const shown = h.tool.fingerprint;
    h.tool.fingerprint = null;
    await expect(h.engine.decide(id, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(
        /gmail_send is not available right now.*Allow it once the tool is back/,
      ),
    });
    expect(h.execute).not.toHaveBeenCalled();
    h.tool.fingerprint = shown;
    await h.engine.decide(id, { kind: 'allow_once' });
    await eventually(() => expect(h.execute).toHaveBeenCalledTimes(1));
  });

  it('a change while an edit is being checked counts as a change: nothing runs', async () => {
    const h: ReturnType<typeof harness> = harness(async () => {
      // The check awaits (a schema compiled on first use); the accounts change meanwhile.
      await Promise.resolve();
      h.tool.fingerprint = 'accounts: personal';
      return null;
    });
    const id = (await h.ask()).approvalId!;
    await expect(
      h.engine.decide(id, {
        kind: 'allow_edited',
        arguments: { to: ['bob@example.com'], subject: 'Hi', body: 'y' },
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(h.engine.get(id).state).toBe('pending');
    expect(h.execute).not.toHaveBeenCalled();
  });

  it('the same tool: allowed and run as before', async () => {
    const h = harness();
    const id = (await h.ask()).approvalId!;
    await h.engine.decide(id, { kind: 'allow_once' });
    await eventually(() => expect(h.execute).toHaveBeenCalledTimes(1));
  });

  it('toolFingerprint follows the definition and whom the source reaches, not the policy', () => {
    let accounts = ['work@example.com', 'personal@example.com'];
    const source = {
      kind: 'google',
      id: 'gmail',
      identity: () => JSON.stringify(accounts),
    } as unknown as ToolSource;
    const entry = {
      key: 'gmail/gmail_send',
      name: 'gmail_send',
      def: { name: 'gmail_send', description: 'Send', inputSchema: { type: 'object' } },
      source,
    } as unknown as ToolEntry;
    const before = toolFingerprint(entry);
    expect(toolFingerprint(entry)).toBe(before);
    accounts = ['personal@example.com'];
    expect(toolFingerprint(entry)).not.toBe(before);
  });
});
