import { describe, expect, it, vi } from 'vitest';
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
function harness() {
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
      progressIntervalMs: 60_000,
      cancelGraceMs: 60_000,
    }),
    execute: vi.fn(async (_row, _args, ctx: ToolCallContext) => {
      ran.push(ctx);
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
  return { engine, ran, requested };
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
