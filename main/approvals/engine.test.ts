import { describe, expect, it, vi } from 'vitest';
import { CoreEvents } from '../platform/events.js';
import { ApprovalStore } from '../store/approval-store.js';
import { openDatabase } from '../store/db.js';
import type { CallToolResult } from '../tools/types.js';
import { callKey } from './canonical.js';
import { ApprovalEngine } from './engine.js';

function engineAt(
  path: string,
  clock: { now: number },
  execute = vi.fn(async (): Promise<CallToolResult> => ({
    content: [{ type: 'text', text: 'ran' }],
  })),
) {
  const db = openDatabase(path);
  const store = new ApprovalStore(db);
  const engine = new ApprovalEngine({
    store,
    events: new CoreEvents(),
    timings: () => ({
      waitMs: 50,
      expireMs: 10 * 60_000,
      outcomeWindowMs: 10 * 60_000,
      progressIntervalMs: 1000,
    }),
    execute,
    toolInfo: () => ({ name: 'send', inputSchema: { type: 'object' } }),
    validate: () => null,
    grant: () => {},
    isPaused: () => false,
    now: () => clock.now,
  });
  return { db, store, engine, execute };
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
    const dir = (await import('node:os')).tmpdir();
    const path = `${dir}/airlock-engine-${process.pid}-${Date.now()}.db`;
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
    const path = `${(await import('node:os')).tmpdir()}/airlock-engine2-${process.pid}-${Date.now()}.db`;
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
});
