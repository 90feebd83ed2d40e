import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoneArm, settled, type RunningCall } from '../../test-support/lone-sessions.js';
import { FIRST_EVENT_WAIT_MS } from './event-stream.js';
import { LoneCallServer } from './mcp-handlers/lone-call.js';

/**
 * Review of the lone call (mcp-handlers/lone-call.ts, SessionTransport.postLone): calls that
 * OVERLAP in one session. lone-call.property.test.ts runs each scenario's calls one after
 * another (each settled before the next is posted); here several are open at once and the
 * generated steps interleave between them — answers in any order, cancellations, hang-ups, log
 * lines and relayed requests for one call while another is answered, the held head's time
 * passing for some, an id posted again while open or after, the session's DELETE — and both
 * arms (`loneCalls` on and off) must show the agent the same bytes in the same order, report
 * the same errors, keep `busy()` the same at each step and give the pipeline the same signals.
 */

type Step =
  | { kind: 'settle'; call: number; outcome: 'ok' | 'throw' | 'isError' }
  | { kind: 'cancel'; call: number }
  | { kind: 'hangup'; call: number }
  | { kind: 'flush' }
  | { kind: 'log'; call: number }
  | { kind: 'relay'; call: number; answer: boolean }
  | { kind: 'repost'; call: number }
  | { kind: 'delete' };

const idArb = fc.constantFrom<number | string>(0, 1, 2, -1, 'a', '__proto__', '');
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('settle' as const),
    call: fc.nat(5),
    outcome: fc.constantFrom<'ok' | 'throw' | 'isError'>('ok', 'ok', 'throw', 'isError'),
  }),
  fc.record({ kind: fc.constant('cancel' as const), call: fc.nat(5) }),
  fc.record({ kind: fc.constant('hangup' as const), call: fc.nat(5) }),
  fc.constant({ kind: 'flush' as const }),
  fc.record({ kind: fc.constant('log' as const), call: fc.nat(5) }),
  fc.record({ kind: fc.constant('relay' as const), call: fc.nat(5), answer: fc.boolean() }),
  fc.record({ kind: fc.constant('repost' as const), call: fc.nat(5) }),
  fc.constant({ kind: 'delete' as const }),
);
const scenario = fc.record({
  ids: fc.array(idArb, { minLength: 2, maxLength: 4 }),
  steps: fc.array(stepArb, { maxLength: 12 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const call = (id: number | string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 't', arguments: { id } },
});

function reasonOf(signal: AbortSignal | undefined): unknown {
  if (!signal?.aborted) return 'running';
  const r: unknown = signal.reason;
  return r instanceof Error ? `${r.name}: ${r.message}` : r;
}

async function run(lone: boolean, s: Scenario) {
  const arm = new LoneArm(lone);
  try {
    await arm.open({ elicitation: {}, sampling: {} });
    const busy: (boolean | undefined)[] = [];
    /** Per posted call: its response and the pipeline call it became (if it reached it). */
    const posted: { id: number | string; res: ReturnType<LoneArm['post']>; run?: RunningCall }[] =
      [];
    const post = (id: number | string) => {
      const before = arm.calls.running.length;
      const res = arm.post(call(id));
      posted.push({ id, res });
      return before;
    };
    for (const id of s.ids) post(id);
    await settled();
    // Calls posted together reach the pipeline in order; a refused one (reused id) does not.
    for (const r of arm.calls.running) {
      const p = posted.find((x) => x.run === undefined && (r.args as { id: unknown }).id === x.id);
      if (p) p.run = r;
    }
    busy.push(arm.busy());
    for (const step of s.steps) {
      const target = 'call' in step ? posted[step.call % posted.length] : undefined;
      switch (step.kind) {
        case 'settle':
          target?.run?.settle(() => {
            if (step.outcome === 'throw') throw new Error('boom');
            return {
              content: [{ type: 'text', text: `r ${String(target.id)}` }],
              ...(step.outcome === 'isError' ? { isError: true } : {}),
            };
          });
          break;
        case 'cancel':
          arm.post({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: target!.id, reason: 'r' },
          });
          break;
        case 'hangup':
          target!.res.destroy();
          break;
        case 'flush':
          vi.advanceTimersByTime(FIRST_EVENT_WAIT_MS);
          break;
        case 'log':
          void target?.run?.opts.relay?.log?.({ level: 'info', data: 'line' })?.catch(() => {});
          break;
        case 'relay': {
          const relay = target?.run?.opts.relay;
          if (!relay) break;
          const mark = arm.seen.length;
          relay
            .request({
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'm',
                requestedSchema: { type: 'object', properties: {} },
              },
              server: 'up',
            } as never)
            .then(
              (r) => arm.calls.log.push({ relay: target.id, ok: r }),
              (e: Error) => arm.calls.log.push({ relay: target.id, error: e.message }),
            );
          await settled();
          const asked = arm.seen
            .slice(mark)
            .map((x) => ('message' in x ? (x.message as Record<string, unknown>) : undefined))
            .find((m) => m?.['method'] === 'elicitation/create');
          if (asked && step.answer)
            arm.post({ jsonrpc: '2.0', id: asked['id'], result: { action: 'decline' } });
          break;
        }
        case 'repost': {
          const before = post(target!.id);
          await settled();
          if (arm.calls.running.length > before) posted.at(-1)!.run = arm.calls.running[before];
          break;
        }
        case 'delete':
          arm.delete();
          break;
      }
      await settled();
      busy.push(arm.busy());
    }
    // Whatever is still open ends now, in order.
    for (const p of posted) p.run?.settle(() => ({ content: [{ type: 'text', text: 'late' }] }));
    await settled();
    vi.advanceTimersByTime(FIRST_EVENT_WAIT_MS);
    await settled();
    busy.push(arm.busy());
    // Nothing of a lone call outlives it: no held head's timer, no controller (the session may
    // have been deleted: then its transport is gone from the map with everything in it).
    const sessions = (
      arm.endpoint as unknown as {
        sessions: {
          sessions: Map<string, { transport: { held: Map<unknown, unknown> }; server: unknown }>;
        };
      }
    ).sessions.sessions;
    const live = arm.sid === undefined ? undefined : sessions.get(arm.sid);
    const leftover = {
      held: live?.transport.held.size ?? 0,
      controllers:
        (live?.server as { loneCalls?: Map<unknown, unknown> } | undefined)?.loneCalls?.size ?? 0,
      timers: vi.getTimerCount(),
    };
    expect(leftover.held).toBe(0);
    if (!arm.busy()) expect(leftover.controllers).toBe(0);
    return {
      leftover,
      seen: arm.seen,
      wire: arm.wire,
      errors: arm.errors,
      pipeline: arm.calls.log,
      signals: arm.calls.running.map((c) => reasonOf(c.opts.signal)),
      busy,
    };
  } finally {
    await arm.close();
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

async function compare(seed: number, numRuns: number): Promise<number> {
  const runLone = vi.spyOn(LoneCallServer.prototype, 'runLone');
  let overlapping = 0;
  try {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const sdk = await run(false, s);
        const taken = runLone.mock.calls.length;
        const lone = await run(true, s);
        expect(lone).toEqual(sdk);
        expect(JSON.stringify(lone)).toBe(JSON.stringify(sdk));
        if (runLone.mock.calls.length - taken >= 2) overlapping++;
      }),
      { numRuns, seed },
    );
  } finally {
    runLone.mockRestore();
  }
  return overlapping;
}

describe('overlapping lone calls and the SDK path', () => {
  it('show the agent and the pipeline the same', async () => {
    const overlapping = await compare(20261206, 300);
    console.log('overlapping runs with two or more lone calls', overlapping);
    expect(overlapping).toBeGreaterThan(100);
  });

  it.each([5150, 8675309])('held out: seed %i shows the same', async (seed) => {
    expect(await compare(seed, 150)).toBeGreaterThan(40);
  });
});

describe('the held head and the answer at the same moment', () => {
  const edges = [
    'settle, then timer',
    'timer, then settle',
    'answer on a timer due with the head',
    'answer on a timer due with the head, set before it',
  ];
  it.each(edges)('%s: both paths write the same bytes', async (order) => {
    const wires: string[][] = [];
    for (const lone of [false, true]) {
      const arm = new LoneArm(lone);
      try {
        await arm.open({});
        const answer = () => ({ content: [{ type: 'text' as const, text: 'ok' }] });
        if (order.endsWith('set before it'))
          setTimeout(() => arm.calls.running[0]!.settle(answer), FIRST_EVENT_WAIT_MS);
        arm.post(call(1));
        await settled();
        const running = arm.calls.running[0]!;
        if (order === 'settle, then timer') {
          running.settle(answer);
          vi.advanceTimersByTime(FIRST_EVENT_WAIT_MS);
        } else if (order === 'timer, then settle') {
          vi.advanceTimersByTime(FIRST_EVENT_WAIT_MS);
          running.settle(answer);
        } else if (order.endsWith('set before it')) {
          await vi.advanceTimersByTimeAsync(FIRST_EVENT_WAIT_MS);
        } else {
          // The pipeline's own timer, set after the head's and due at the same time.
          setTimeout(() => running.settle(answer), FIRST_EVENT_WAIT_MS);
          await vi.advanceTimersByTimeAsync(FIRST_EVENT_WAIT_MS);
        }
        await settled();
        expect(arm.busy()).toBe(false);
        wires.push(arm.wire.filter((w) => w.startsWith('2 ')));
      } finally {
        await arm.close();
      }
    }
    expect(wires[1]).toEqual(wires[0]);
    // Once, whole: a head, the answer, the end.
    expect(wires[1]!.filter((w) => w.includes('"id":1'))).toHaveLength(1);
  });
});
