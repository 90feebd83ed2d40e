import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallAbortController, offAbort, onAbort } from './abort-hooks.js';

/**
 * abort-hooks.ts against the thing it replaces: the same steps (hooks added, taken off, added
 * again, the controller aborted once or twice, hooks added after) on a CallAbortController with
 * onAbort/offAbort and on a plain AbortController with `addEventListener('abort', h, { once:
 * true })` / `removeEventListener` must run the same hooks, in the same order, each seeing the
 * signal aborted with the same reason. Tuned on the first seeds; a held-out run with its own seed
 * and a different step mix is reported apart.
 */
type Step =
  { op: 'on'; hook: number } | { op: 'off'; hook: number } | { op: 'abort'; reason: string };

function steps(hooks: number, abortWeight: number): fc.Arbitrary<Step[]> {
  const hook = fc.integer({ min: 0, max: hooks - 1 });
  return fc.array(
    fc.oneof(
      { weight: 4, arbitrary: hook.map((h): Step => ({ op: 'on', hook: h })) },
      { weight: 2, arbitrary: hook.map((h): Step => ({ op: 'off', hook: h })) },
      {
        weight: abortWeight,
        arbitrary: fc.string({ maxLength: 4 }).map((r): Step => ({ op: 'abort', reason: r })),
      },
    ),
    { maxLength: 30 },
  );
}

/** What the hooks saw: which ran, in order, with the signal's state then. */
function run(steps: Step[], hooked: boolean): string[] {
  const seen: string[] = [];
  const ac = hooked ? new CallAbortController() : new AbortController();
  const { signal } = ac;
  const hooks = Array.from(
    { length: 8 },
    (_, i) => () => seen.push(`${i}:${signal.aborted}:${String(signal.reason)}`),
  );
  for (const s of steps) {
    if (s.op === 'abort') ac.abort(s.reason);
    else if (s.op === 'on') {
      // Callers join an aborted signal by running the hook themselves (remote-calls.ts): here
      // both sides are asked to add it anyway, which neither may run.
      if (hooked) onAbort(signal, hooks[s.hook]!);
      else signal.addEventListener('abort', hooks[s.hook]!, { once: true });
    } else if (hooked) offAbort(signal, hooks[s.hook]!);
    else signal.removeEventListener('abort', hooks[s.hook]!);
  }
  seen.push(`end:${signal.aborted}:${String(signal.reason)}`);
  return seen;
}

describe('abort hooks run as `once` abort listeners would', () => {
  afterEach(() => vi.restoreAllMocks());

  it('over generated steps (tuning seeds)', () => {
    fc.assert(
      fc.property(steps(4, 1), (s) => {
        expect(run(s, true)).toEqual(run(s, false));
      }),
      { seed: 34, numRuns: 400 },
    );
  });

  it('held out: its own seed, more hooks, aborts more often', () => {
    fc.assert(
      fc.property(steps(8, 3), (s) => {
        expect(run(s, true)).toEqual(run(s, false));
      }),
      { seed: 20261206, numRuns: 400 },
    );
  });

  it('a hook runs once, after the signal is aborted with its reason; offAbort keeps it from running', () => {
    const ac = new CallAbortController();
    const ran: unknown[] = [];
    const kept = () => ran.push(['kept', ac.signal.aborted, ac.signal.reason]);
    const gone = () => ran.push('gone');
    onAbort(ac.signal, kept);
    onAbort(ac.signal, gone);
    offAbort(ac.signal, gone);
    ac.abort('stop');
    ac.abort('again');
    expect(ran).toEqual([['kept', true, 'stop']]);
  });

  it("adds no listener to a CallAbortController's signal; any other signal gets one", () => {
    const hooked = new CallAbortController();
    const plain = new AbortController();
    const added = vi.spyOn(EventTarget.prototype, 'addEventListener');
    const hook = () => undefined;
    onAbort(hooked.signal, hook);
    expect(added).not.toHaveBeenCalled();
    onAbort(plain.signal, hook);
    expect(added).toHaveBeenCalledWith('abort', hook, { once: true });
  });

  it('a hook that throws is reported as a throwing listener is (next tick), and the rest still run', () => {
    const ac = new CallAbortController();
    const ticks: (() => void)[] = [];
    vi.spyOn(process, 'nextTick').mockImplementation(((fn: () => void) => {
      ticks.push(fn);
    }) as never);
    const ran: string[] = [];
    onAbort(ac.signal, () => {
      throw new Error('hook failed');
    });
    onAbort(ac.signal, () => ran.push('second'));
    expect(() => ac.abort()).not.toThrow();
    expect(ran).toEqual(['second']);
    expect(ticks).toHaveLength(1);
    expect(ticks[0]).toThrow('hook failed');
  });
});
