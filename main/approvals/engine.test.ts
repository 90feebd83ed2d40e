import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { tempDir } from '../../test-support/temp-dir.js';
import { CoreEvents } from '../platform/events.js';
import { ActivityLog } from '../store/activity.js';
import { ApprovalStore } from '../store/approval-store.js';
import { openDatabase } from '../store/db.js';
import { GrantStore } from '../store/grant-store.js';
import type { CallToolResult } from '../tools/types.js';
import { callKey } from './canonical.js';
import { ApprovalEngine } from './engine.js';
import { GrantService } from './grants.js';

function engineAt(
  path: string,
  clock: { now: number },
  execute = vi.fn(async (): Promise<CallToolResult> => ({
    content: [{ type: 'text', text: 'ran' }],
  })),
) {
  const db = openDatabase(path);
  const store = new ApprovalStore(db);
  const activity = new ActivityLog(db);
  const fingerprint = { value: 'v1' };
  const grants = new GrantService({
    store: new GrantStore(db),
    activity,
    fingerprint: () => fingerprint.value,
    now: () => clock.now,
  });
  const timings = {
    waitMs: 50,
    expireMs: 10 * 60_000,
    outcomeWindowMs: 10 * 60_000,
    progressIntervalMs: 1000,
    cancelGraceMs: 60_000,
  };
  const engine = new ApprovalEngine({
    store,
    events: new CoreEvents(),
    activity,
    grants,
    timings: () => timings,
    execute,
    toolInfo: () => ({
      name: 'send',
      inputSchema: { type: 'object' },
      server: 'Test',
      thirdParty: true,
      risk: 'destructive',
    }),
    validate: () => null,
    isPaused: () => false,
    now: () => clock.now,
  });
  return { db, store, engine, execute, activity, grants, fingerprint, timings };
}

const ask = (engine: ApprovalEngine, args: Record<string, unknown> = { to: 'bob' }) =>
  engine.ask({
    agent: 'a',
    toolKey: 'src/send',
    tool: 'send',
    args,
    effect: async () => 'Send',
    signal: new AbortController().signal,
  });

describe('ApprovalEngine', () => {
  it('pending requests expire after their time; a later repeat asks anew', async () => {
    const clock = { now: 1_000_000 };
    const { engine, execute } = engineAt(':memory:', clock);
    const first = await ask(engine);
    expect(first.decision).toBe('waiting');
    clock.now += 10 * 60_000 + 1;
    expect(engine.listPending()).toEqual([]);
    expect(engine.get(first.approvalId!).state).toBe('expired');
    await expect(engine.decide(first.approvalId!, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const second = await ask(engine);
    expect(second.approvalId).not.toBe(first.approvalId);
    expect(execute).not.toHaveBeenCalled();
  });

  it('a crash while executing leaves the request unknown and it is never re-sent', async () => {
    // In a folder of its own, removed with the database's -wal and -shm after the tests.
    const path = join(tempDir('airlock-engine-'), 'approvals.db');
    const clock = { now: 2_000_000 };
    const before = engineAt(path, clock);
    const id = (await ask(before.engine)).approvalId!;
    // Simulate the process dying between "executing" and the result.
    expect(before.store.transition(id, ['pending'], 'approved')).toBe(true);
    expect(before.store.transition(id, ['approved'], 'executing')).toBe(true);
    before.db.close();

    const after = engineAt(path, clock);
    after.engine.start();
    after.engine.stop();
    expect(after.engine.get(id).state).toBe('unknown');
    const repeat = await ask(after.engine);
    expect(repeat.result.isError).toBe(true);
    expect(repeat.result.content?.[0]).toMatchObject({
      text: expect.stringMatching(/may or may not have been applied/),
    });
    expect(after.execute).not.toHaveBeenCalled();
  });

  it('an approval that never started running is failed on restart, not run', async () => {
    const path = join(tempDir('airlock-engine2-'), 'approvals.db');
    const clock = { now: 3_000_000 };
    const before = engineAt(path, clock);
    const id = (await ask(before.engine)).approvalId!;
    before.store.transition(id, ['pending'], 'approved');
    before.db.close();
    const after = engineAt(path, clock);
    after.engine.start();
    after.engine.stop();
    expect(after.engine.get(id).state).toBe('failed');
    expect(after.execute).not.toHaveBeenCalled();
  });

  it('identical calls arriving together while the effect text is looked up make one request', async () => {
    const clock = { now: 4_000_000 };
    const { engine } = engineAt(':memory:', clock);
    let lookups = 0;
    const slow = () =>
      engine.ask({
        agent: 'a',
        toolKey: 'src/send',
        tool: 'send',
        args: { to: 'bob' },
        signal: new AbortController().signal,
        effect: () => new Promise((r) => setTimeout(() => r(`Send #${++lookups}`), 30)),
      });
    const [one, two] = await Promise.all([slow(), slow()]);
    expect(one.approvalId).toBe(two.approvalId);
    expect(lookups).toBe(1);
    expect(engine.listPending()).toHaveLength(1);
  });

  it('call keys ignore key order but not values', () => {
    expect(callKey('a', 't', { x: 1, y: { b: 2, a: 1 } })).toBe(
      callKey('a', 't', { y: { a: 1, b: 2 }, x: 1 }),
    );
    expect(callKey('a', 't', { x: 1 })).not.toBe(callKey('a', 't', { x: 2 }));
    expect(callKey('a', 't', { x: 1 })).not.toBe(callKey('b', 't', { x: 1 }));
  });

  it('a cancelled waiting call keeps its request for the grace period; the retry re-attaches and runs once', async () => {
    const clock = { now: 5_000_000 };
    const { engine, execute, timings } = engineAt(':memory:', clock);
    timings.waitMs = 60_000;
    const ctl = new AbortController();
    const first = engine.ask({
      agent: 'a',
      toolKey: 'src/send',
      tool: 'send',
      args: { to: 'bob' },
      effect: async () => 'Send',
      signal: ctl.signal,
    });
    await eventually(() => expect(engine.listPending()).toHaveLength(1));
    const id = engine.listPending()[0]!.id;
    expect(engine.get(id).agentWaiting).toBe(true);
    ctl.abort();
    expect((await first).decision).toBe('withdrawn');
    // Still pending, and the card knows the agent is gone.
    expect(engine.get(id)).toMatchObject({ state: 'pending', agentWaiting: false });
    expect(engine.get(id).agentLeftAt).toBeDefined();
    const retry = ask(engine);
    await eventually(() => expect(engine.get(id).agentWaiting).toBe(true));
    await engine.decide(id, { kind: 'allow_once' });
    const out = await retry;
    expect(out).toMatchObject({ approvalId: id, ran: true });
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('after the grace period a cancelled request is withdrawn', async () => {
    const clock = { now: 6_000_000 };
    const { engine, timings } = engineAt(':memory:', clock);
    timings.cancelGraceMs = 20;
    timings.waitMs = 60_000;
    const ctl = new AbortController();
    const first = engine.ask({
      agent: 'a',
      toolKey: 'src/send',
      tool: 'send',
      args: { to: 'bob' },
      effect: async () => 'Send',
      signal: ctl.signal,
    });
    await eventually(() => expect(engine.listPending()).toHaveLength(1));
    const id = engine.listPending()[0]!.id;
    ctl.abort();
    await first;
    await eventually(() => expect(engine.get(id).state).toBe('withdrawn'));
  });

  it('one Activity row follows a call the agent stopped waiting for to its end, with the upstream error', async () => {
    const clock = { now: 7_000_000 };
    const execute = vi.fn(async (): Promise<CallToolResult> => ({
      isError: true,
      content: [{ type: 'text', text: 'upstream said: mailbox full' }],
    }));
    const { engine, activity } = engineAt(':memory:', clock, execute);
    const first = await ask(engine);
    expect(first.decision).toBe('waiting');
    const id = first.approvalId!;
    expect(activity.list()).toMatchObject([
      { decision: 'waiting', outcome: 'pending', approvalId: id },
    ]);
    clock.now += 30_000;
    await engine.decide(id, { kind: 'allow_once' });
    await eventually(() => expect(engine.get(id).state).toBe('failed'));
    const rows = activity.list();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      decision: 'approved',
      decisionKind: 'once',
      outcome: 'error',
      waitMs: 30_000,
      detail: 'upstream said: mailbox full',
    });
  });

  it('always allow on a tool with side effects needs confirm; a grant is recorded, scoped and bound to the policy', async () => {
    const clock = { now: 8_000_000 };
    const { engine, grants, activity, fingerprint } = engineAt(':memory:', clock);
    const id = (await ask(engine, { to: 'ann@mycorp.com' })).approvalId!;
    await expect(engine.decide(id, { kind: 'always_allow' })).rejects.toMatchObject({
      code: 'CONFIRM_REQUIRED',
    });
    expect(engine.get(id).state).toBe('pending');
    // A constraint that does not hold for the call itself is refused.
    await expect(
      engine.decide(id, {
        kind: 'always_allow',
        confirm: true,
        constraint: { path: 'to', op: 'domain', value: 'other.com' },
      }),
    ).rejects.toMatchObject({ code: 'INVALID' });
    const view = await engine.decide(id, {
      kind: 'always_allow',
      confirm: true,
      hours: 2,
      constraint: { path: 'to', op: 'domain', value: '@mycorp.com' },
    });
    expect(view).toMatchObject({ decisionKind: 'grant' });
    const [g] = grants.list();
    expect(g).toMatchObject({ agent: 'a', constraint: { op: 'domain', value: 'mycorp.com' } });
    expect(grants.match('a', 'src/send', { to: 'bob@mycorp.com' })?.id).toBe(g!.id);
    expect(grants.match('a', 'src/send', { to: 'bob@mycorp.com.evil.net' })).toBeNull();
    expect(grants.match('a', 'src/send', { to: ['x@mycorp.com', 'y@gmail.com'] })).toBeNull();
    expect(grants.match('b', 'src/send', { to: 'bob@mycorp.com' })).toBeNull();
    expect(activity.list().some((r) => r.event === 'grant.created')).toBe(true);
    // The tool changed: the grant no longer applies, and says why.
    fingerprint.value = 'v2';
    expect(grants.match('a', 'src/send', { to: 'bob@mycorp.com' })).toBeNull();
    expect(grants.list({ includeInactive: true })[0]).toMatchObject({ active: false });
    fingerprint.value = 'v1';
    clock.now += 2 * 3_600_000 + 1;
    expect(grants.match('a', 'src/send', { to: 'bob@mycorp.com' })).toBeNull();
  });

  it('a revoked grant no longer matches and the revocation is in Activity', async () => {
    const clock = { now: 9_000_000 };
    const { engine, grants, activity } = engineAt(':memory:', clock);
    const id = (await ask(engine)).approvalId!;
    await engine.decide(id, { kind: 'always_allow', confirm: true });
    const g = grants.list()[0]!;
    expect(grants.match('a', 'src/send', { to: 'anyone' })).not.toBeNull();
    expect(grants.revoke(g.id)).toMatchObject({ active: false, inactiveReason: 'revoked' });
    expect(grants.match('a', 'src/send', { to: 'anyone' })).toBeNull();
    expect(activity.list().some((r) => r.event === 'grant.revoked')).toBe(true);
  });
});
