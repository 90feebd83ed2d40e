import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputRounds } from './mcp-handlers/input-rounds.js';
import { ReferenceInputRounds } from '../../test-support/reference/input-rounds-before.js';
import { abortion, rest, roundAnswers } from '../../test-support/round-answers.js';
import { RELAY_METHODS, type ClientRelay, type RelayRequest } from '../tools/relay.js';

/**
 * The input rounds of 2026-07-28 calls (input-rounds.ts) against the implementation they replaced
 * (test-support/reference/input-rounds-before.ts), over generated schedules: calls that ask the
 * agent in rounds of one or more requests, or not at all, and end with a value or an error; an
 * agent that answers all, some or none of a round, retries with another agent's token, cancels
 * its request before or while the call waits, or never comes back. What each side shows — every
 * answer or refusal the agent gets, what the call's requests receive, when the call's signal
 * fires — must be the same, step for step. Each step runs to rest (setImmediate) before the next.
 */
type Rounds = Pick<InputRounds, 'start' | 'resume' | 'close'>;

interface Script {
  /**
   * Per step: how many requests the call asks at once (0: it just yields a turn; -1: it waits
   * until its signal fires, as an upstream call does; -2: it asks one and goes on without waiting
   * for the answer, so that as the last step its outcome follows the ask within the same job).
   */
  steps: number[];
  fails: boolean;
  /** What the agent does at each input_required answer, in order; past the end it stops. */
  actions: ('all' | 'none' | 'first' | 'extra' | 'intruder' | 'cancel' | 'cancel-late')[];
  /**
   * The agent's first request is cancelled before the call starts, or once the call has run to
   * rest. (Not in between: a request's signal fires from an I/O event, never in the microtasks
   * of the call's own start, where the two implementations decide at different jobs.)
   */
  cancelFirst: 'no' | 'before' | 'after';
}

/**
 * `shared`: the call takes the first request's own controller (start's `request`, as the hot path
 * gives it: modern-hot.ts controllerOf). Nothing aborts that controller once its request is
 * answered, so there the first request is cancelled 'after' only while its answer is still to come.
 */
async function play(
  rounds: Rounds,
  s: Script,
  shared = false,
  /** Give the call a line (start's `line`) whose moves are logged: the current rounds only. */
  lined = false,
): Promise<unknown[]> {
  const log: unknown[] = [];
  const line = lined
    ? { to: (next: unknown) => log.push(['line', next === undefined ? 'answered' : 'moved']) }
    : undefined;
  const relayFor = (ask: (r: RelayRequest) => Promise<Record<string, unknown>>): ClientRelay => ({
    agent: 'a',
    refusal: () => null,
    request: ask,
  });
  let asked = 0;
  const run = async (relay: ClientRelay, signal: AbortSignal) => {
    const aborted = abortion(signal, log);
    for (const n of s.steps) {
      if (n === -1) {
        await aborted;
        continue;
      }
      if (n === -2) {
        const i = ++asked;
        relay.request({ method: RELAY_METHODS[i % 3]!, params: { i }, server: 's' }).then(
          (v) => log.push(['unawaited', i, v]),
          (e: unknown) => log.push(['unawaited', i, `rejected: ${String(e)}`]),
        );
        continue;
      }
      const asks = Array.from({ length: n }, () => {
        const i = ++asked;
        return relay.request({ method: RELAY_METHODS[i % 3]!, params: { i }, server: 's' });
      });
      const got = await Promise.race([Promise.allSettled(asks), aborted]);
      log.push([
        'got',
        got.map((g) => (g.status === 'fulfilled' ? g.value : `rejected: ${String(g.reason)}`)),
      ]);
    }
    if (s.fails) throw new Error('the call failed');
    return 'value';
  };
  const { watch, token: realToken } = roundAnswers();
  const settle = (p: Promise<unknown>) => watch(p)();
  const first = new AbortController();
  if (s.cancelFirst === 'before') first.abort(new Error('agent cancelled'));
  const started = line
    ? (rounds as InputRounds).start(
        'a',
        first.signal,
        relayFor,
        run,
        shared ? first : undefined,
        line,
      )
    : rounds.start('a', first.signal, relayFor, run, shared ? first : undefined);
  let answered = false;
  started.then(
    () => (answered = true),
    () => (answered = true),
  );
  const p = watch(started);
  if (s.cancelFirst === 'after') {
    await rest();
    if (!shared || !answered) first.abort(new Error('agent cancelled'));
  }
  let answer = await p();
  log.push(['answer', answer]);
  for (const action of s.actions) {
    const a = (answer as { ok?: { requestState?: string; inputRequests?: object } }).ok;
    if (!a?.requestState) break;
    const token = realToken(a.requestState);
    const keys = Object.keys(a.inputRequests ?? {});
    const answers = (ks: string[]) => Object.fromEntries(ks.map((k) => [k, { answered: k }]));
    const live = new AbortController();
    if (action === 'intruder') {
      log.push(['intruder', await settle(rounds.resume('b', token, answers(keys), live.signal))]);
      continue;
    }
    if (action === 'cancel') live.abort(new Error('retry cancelled'));
    const responses =
      action === 'all' || action === 'cancel' || action === 'cancel-late'
        ? answers(keys)
        : action === 'first'
          ? answers(keys.slice(0, 1))
          : action === 'extra'
            ? // Keys never asked, Object.prototype's names, and `__proto__` as the wire's own key.
              {
                ...(JSON.parse(
                  '{"__proto__": {"r1": {"smuggled": true}}, "constructor": {}, "toString": {}, "r99": {}}',
                ) as Record<string, unknown>),
                ...answers(keys.slice(1)),
              }
            : {};
    const q = watch(rounds.resume('a', token, responses, live.signal));
    if (action === 'cancel-late') {
      await rest();
      live.abort(new Error('retry cancelled late'));
    }
    answer = await q();
    log.push(['answer', action, answer]);
  }
  rounds.close();
  await rest();
  log.push(['closed']);
  return log;
}

const script = fc.record({
  steps: fc.array(fc.integer({ min: -2, max: 3 }), { maxLength: 5 }),
  fails: fc.boolean(),
  actions: fc.array(
    fc.constantFrom('all', 'none', 'first', 'extra', 'intruder', 'cancel', 'cancel-late' as const),
    { maxLength: 6 },
  ),
  cancelFirst: fc.constantFrom('no', 'before', 'after' as const),
});

describe('input rounds, against the implementation they replaced', () => {
  it('every generated schedule plays out the same', async () => {
    await fc.assert(
      fc.asyncProperty(script, async (s) => {
        const now = await play(new InputRounds(), s);
        const before = await play(new ReferenceInputRounds(), s);
        expect(now).toEqual(before);
      }),
      { numRuns: 1000 },
    );
  });

  it("with the request's own controller as the call's, every schedule plays out the same", async () => {
    await fc.assert(
      fc.asyncProperty(script, async (s) => {
        const now = await play(new InputRounds(), s, true);
        const before = await play(new ReferenceInputRounds(), s, true);
        expect(now).toEqual(before);
      }),
      { numRuns: 1000 },
    );
  });

  /**
   * The lazy round (input-rounds.ts startLazily, wave 3 session 30) was written against the two
   * properties above on the suite's seed; these draws it never saw: another seed, and a second
   * generator that asks early (in the call's synchronous part, before `run` returns) and late.
   */
  it("with the request's own controller, held out: another seed, every schedule plays out the same", async () => {
    await fc.assert(
      fc.asyncProperty(script, async (s) => {
        const now = await play(new InputRounds(), s, true);
        const before = await play(new ReferenceInputRounds(), s, true);
        expect(now).toEqual(before);
      }),
      { numRuns: 1000, seed: 3430 },
    );
  });

  it("with the request's own controller, held out: schedules that ask first and last play out the same", async () => {
    const edges = fc.record({
      steps: fc
        .tuple(
          fc.constantFrom(-2, 1, 2, 3),
          fc.array(fc.integer({ min: -2, max: 3 }), { maxLength: 3 }),
          fc.constantFrom(-2, 0, 1),
        )
        .map(([a, mid, z]) => [a, ...mid, z]),
      fails: fc.boolean(),
      actions: fc.array(
        fc.constantFrom('all', 'none', 'first', 'extra', 'cancel', 'cancel-late' as const),
        { maxLength: 5 },
      ),
      cancelFirst: fc.constantFrom('no', 'before', 'after' as const),
    });
    await fc.assert(
      fc.asyncProperty(edges, async (s) => {
        const now = await play(new InputRounds(), s, true);
        const before = await play(new ReferenceInputRounds(), s, true);
        expect(now).toEqual(before);
      }),
      { numRuns: 1000, seed: 3431 },
    );
  });

  it("the lazy round moves the call's line as start's own round does", async () => {
    // The reference takes no line: the two ways of the current `start` (its own controller or
    // the request's) against each other, where nothing cancels the first request (there the
    // two differ by design: only a joined signal's abort outlives its answer).
    await fc.assert(
      fc.asyncProperty(
        script.filter((s) => s.cancelFirst === 'no'),
        async (s) => {
          const lazy = await play(new InputRounds(), s, true, true);
          const eager = await play(new InputRounds(), s, false, true);
          expect(lazy).toEqual(eager);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a schedule that asks, is answered in part, then cancelled, is played as described', async () => {
    // The generator's shape, checked once by hand so the property cannot pass on empty logs.
    const log = await play(new InputRounds(), {
      steps: [2],
      fails: false,
      actions: ['first', 'all'],
      cancelFirst: 'no',
    });
    expect(log[0]).toEqual([
      'answer',
      {
        ok: {
          resultType: 'input_required',
          inputRequests: {
            r1: { method: 'elicitation/create', params: { i: 1 } },
            r2: { method: 'roots/list', params: { i: 2 } },
          },
          requestState: 'token0',
        },
      },
    ]);
    expect(log).toContainEqual([
      'got',
      [{ answered: 'r1' }, 'rejected: Error: the agent retried without answering this request'],
    ]);
    expect(log).toContainEqual(['answer', 'first', { ok: 'value' }]);
  });
});
