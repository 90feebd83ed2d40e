import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CoreEvents } from '../platform/events.js';
import { ActivityLog } from '../store/activity.js';
import { ApprovalStore } from '../store/approval-store.js';
import { openDatabase } from '../store/db.js';
import { GrantStore } from '../store/grant-store.js';
import type { ClientRelay } from '../tools/relay.js';
import type { ToolCallContext } from '../tools/types.js';
import { ApprovalEngine } from './engine.js';
import { GrantService } from './grants.js';

/**
 * An approved call runs with the relay of the call waiting on its request (engine.ts execute):
 * what its server asks goes to that call's own agent request — or task, whose relay ties each
 * message to the task's id (gateway/mcp-handlers/related-task.ts) — not to whichever request of
 * the agent's opened last (call-path-wiring.ts relayFor, now only the fallback).
 */
function harness(progressIntervalMs = 60_000) {
  const db = openDatabase(':memory:');
  const activity = new ActivityLog(db);
  const events = new CoreEvents();
  const ran: ToolCallContext[] = [];
  const engine = new ApprovalEngine({
    store: new ApprovalStore(db),
    events,
    activity,
    grants: new GrantService({ store: new GrantStore(db), activity, fingerprint: () => 'p' }),
    timings: () => ({
      waitMs: 60_000,
      expireMs: 10 * 60_000,
      outcomeWindowMs: 10 * 60_000,
      progressIntervalMs,
      cancelGraceMs: 60_000,
    }),
    execute: vi.fn(async (_row, _args, ctx: ToolCallContext) => {
      ran.push(ctx);
      ctx.progress?.(0.5, 1, 'half way');
      return { content: [{ type: 'text' as const, text: 'sent' }] };
    }),
    toolInfo: () => ({
      name: 'send',
      inputSchema: { type: 'object' },
      server: 'S',
      thirdParty: true,
      risk: 'read-only',
    }),
    validate: () => null,
    isPaused: () => false,
    toolFingerprint: () => 'T',
    runFingerprint: () => 'R',
  });
  const requested = () =>
    new Promise<string>((resolve) => {
      const off = events.subscribe((e) => {
        if (e.type !== 'approval.requested') return;
        off();
        resolve(e.approval.id);
      });
    });
  return { engine, ran, requested, events };
}

const relay = (name: string) => ({ agent: 'a', name }) as unknown as ClientRelay;
const ask = (engine: ApprovalEngine, r?: ClientRelay) =>
  engine.ask({
    agent: 'a',
    toolKey: 's/send',
    tool: 'send',
    args: { n: 1 },
    effect: async () => 'Sends',
    signal: new AbortController().signal,
    ...(r ? { relay: r } : {}),
  });

describe("an approved call runs with the waiting call's relay", () => {
  it('the one call waiting: its relay', async () => {
    const h = harness();
    const mine = relay('task-1');
    const id = h.requested();
    const waiting = ask(h.engine, mine);
    await h.engine.decide(await id, { kind: 'allow_once' });
    expect((await waiting).ran).toBe(true);
    expect(h.ran).toHaveLength(1);
    expect(h.ran[0]!.relay).toBe(mine);
  });

  it('a call without one: none from the engine (the gateway falls back to relayFor)', async () => {
    const h = harness();
    const id = h.requested();
    const waiting = ask(h.engine);
    await h.engine.decide(await id, { kind: 'allow_once' });
    await waiting;
    expect(h.ran[0]!.relay).toBeUndefined();
  });
});

/** Review: whose relay, when calls leave, when another agent asks the same, when revoked. */
const askAs = (engine: ApprovalEngine, agent: string, signal: AbortSignal, r?: ClientRelay) =>
  engine.ask({
    agent,
    toolKey: 's/send',
    tool: 'send',
    args: { n: 1 },
    effect: async () => 'Sends',
    signal,
    ...(r ? { relay: r } : {}),
  });

describe('the waiting relay, when calls leave or another agent asks', () => {
  it('a call that left (cancelled) lends nothing: the one still waiting does', async () => {
    const h = harness();
    const stays = relay('stays');
    const leaves = new AbortController();
    const id = h.requested();
    const first = askAs(h.engine, 'a', new AbortController().signal, stays);
    const card = await id;
    const second = askAs(h.engine, 'a', leaves.signal, relay('leaves'));
    leaves.abort();
    expect((await second).decision).toBe('withdrawn');
    await h.engine.decide(card, { kind: 'allow_once' });
    expect((await first).ran).toBe(true);
    expect(h.ran.map((c) => c.relay)).toEqual([stays]);
  });

  it('every call gone (within the grace): none from the engine', async () => {
    const h = harness();
    const leaves = new AbortController();
    const id = h.requested();
    const waiting = askAs(h.engine, 'a', leaves.signal, relay('gone'));
    const card = await id;
    leaves.abort();
    await waiting;
    await h.engine.decide(card, { kind: 'allow_once' });
    // decide starts the run, which calls execute before its first await (engine.ts run).
    expect(h.ran).toHaveLength(1);
    expect(h.ran[0]!.relay).toBeUndefined();
  });

  it("another agent's identical call is its own request: its relay never runs this one", async () => {
    const h = harness();
    const mine = relay('a-call');
    const idA = h.requested();
    const a = askAs(h.engine, 'a', new AbortController().signal, mine);
    const cardA = await idA;
    const idB = h.requested();
    const b = askAs(h.engine, 'b', new AbortController().signal, {
      agent: 'b',
      name: 'b-call',
    } as unknown as ClientRelay);
    const cardB = await idB;
    expect(cardB).not.toBe(cardA);
    await h.engine.decide(cardA, { kind: 'allow_once' });
    expect((await a).ran).toBe(true);
    expect(h.ran.map((c) => [c.agent, c.relay])).toEqual([['a', mine]]);
    await h.engine.decide(cardB, { kind: 'deny' });
    expect((await b).ran).toBe(false);
  });

  it('a revoked agent: its waiting call is answered, the request withdrawn, approving it runs nothing', async () => {
    const h = harness();
    const id = h.requested();
    const waiting = askAs(h.engine, 'a', new AbortController().signal, relay('revoked'));
    const card = await id;
    expect(h.engine.withdrawAgent('a')).toBe(1);
    expect((await waiting).decision).toBe('withdrawn');
    await expect(h.engine.decide(card, { kind: 'allow_once' })).rejects.toThrow(/withdrawn/);
    expect(h.ran).toHaveLength(0);
  });

  it('generated: the relay is the latest-attached of the calls still waiting, or none', async () => {
    // Each step a call attaches (with or without a relay) or one still waiting leaves.
    const step = fc.oneof(
      fc.record({ attach: fc.boolean() }),
      fc.record({ leave: fc.nat({ max: 7 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const h = harness();
        const id = h.requested();
        const open: { r?: ClientRelay; c: AbortController; p: Promise<unknown> }[] = [];
        const attach = (withRelay: boolean) => {
          const c = new AbortController();
          const r = withRelay ? relay(`r${open.length}`) : undefined;
          open.push({ ...(r ? { r } : {}), c, p: askAs(h.engine, 'a', c.signal, r) });
        };
        attach(true);
        const card = await id;
        for (const s of steps) {
          if ('attach' in s) attach(s.attach);
          else if (open.length > 1) {
            // Never the last one: the request would be withdrawn after its grace, not decided.
            const [gone] = open.splice(s.leave % open.length, 1);
            gone!.c.abort();
            await gone!.p;
          }
        }
        // A repeat attaches as it asks (engine.ts ask: no await before wait when none is creating).
        expect(h.engine.get(card).agentWaiting).toBe(true);
        const expected = open
          .map((o) => o.r)
          .filter((r) => r !== undefined)
          .at(-1);
        await h.engine.decide(card, { kind: 'allow_once' });
        await Promise.all(open.map((o) => o.p));
        expect(h.ran).toHaveLength(1);
        expect(h.ran[0]!.relay).toBe(expected);
      }),
      { numRuns: 200, seed: 20261206 },
    );
  });
});

describe("a task's call waits quiet (engine-types.ts quiet)", () => {
  afterEach(() => vi.useRealTimers());

  const waitAndRun = async (quiet: boolean) => {
    vi.useFakeTimers();
    const h = harness(1000);
    const heard: unknown[][] = [];
    const id = h.requested();
    const waiting = h.engine.ask({
      agent: 'a',
      toolKey: 's/send',
      tool: 'send',
      args: { n: 1 },
      effect: async () => 'Sends',
      signal: new AbortController().signal,
      progress: (...p) => void heard.push(p),
      ...(quiet ? { quiet: true } : {}),
    });
    const card = await id;
    await vi.advanceTimersByTimeAsync(3500);
    const ticks = heard.splice(0);
    await h.engine.decide(card, { kind: 'allow_once' });
    expect((await waiting).ran).toBe(true);
    return { ticks, afterApproval: heard };
  };

  it('no "waiting" ticks, but the approved call\'s own progress', async () => {
    const quiet = await waitAndRun(true);
    expect(quiet.ticks).toEqual([]);
    expect(quiet.afterApproval).toEqual([[0.5, 1, 'half way']]);
  });

  it("a plain call (control): its ticks, then the call's progress", async () => {
    const plain = await waitAndRun(false);
    expect(plain.ticks.map((t) => t[0])).toEqual([1, 2, 3]);
    expect(plain.afterApproval).toEqual([[0.5, 1, 'half way']]);
  });
});
