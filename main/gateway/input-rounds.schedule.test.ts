import { AsyncLocalStorage } from 'node:async_hooks';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputRounds } from './mcp-handlers/input-rounds.js';
import type { ClientRelay, RelayRequest } from '../tools/relay.js';
import type { MovingLine } from './mcp-handlers/round-line.js';

/**
 * When a round's decision runs (input-rounds.ts `wake`), against the `queueMicrotask(decide)` it
 * replaced (issue 34, wave 3 session 26): queued at the moment of the wake-up, in the wake-up's
 * async context, whatever runs the wake-up — an async function after an await, a then-callback,
 * a stream's 'data' handler, process.nextTick, a timer, an immediate. The model below is the old
 * code's schedule written out with `queueMicrotask`; each case runs both, with chains of other
 * jobs queued around the wake-up, and their logs must be equal job for job.
 */

type Hop = 'then' | 'microtask' | 'tick' | 'await';
type Chain = { hop: Hop; depth: number };
type Where = 'sync' | 'await' | 'then' | 'data' | 'tick' | 'timeout' | 'immediate';
type Wake = 'ask' | 'finish' | 'fail' | 'resume';
type Case = { where: Where; wake: Wake; before: Chain[]; after: Chain[] };

const relayFor = (ask: (r: RelayRequest) => Promise<Record<string, unknown>>) =>
  ({ agent: 'a', refusal: () => null, request: ask }) satisfies ClientRelay;
const REQ: RelayRequest = { method: 'roots/list', params: {}, server: 's' };
const live = () => new AbortController().signal;
/** One macrotask later: every job queued before it (microtasks, ticks) has run. */
const drained = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `body` from inside `where`. */
function from(where: Where, body: () => void): void {
  switch (where) {
    case 'sync':
      return body();
    case 'await':
      return void (async () => {
        await null;
        body();
      })();
    case 'then':
      return void Promise.resolve().then(body);
    case 'data': {
      const s = new PassThrough();
      s.on('data', () => body());
      return void s.end('x');
    }
    case 'tick':
      return process.nextTick(body);
    case 'timeout':
      return void setTimeout(body, 0);
    case 'immediate':
      return void setImmediate(body);
  }
}

/** A chain of `depth` jobs, each queued by the one before, each logged. */
function chain(log: string[], label: string, { hop, depth }: Chain, done: () => void): void {
  const step = (i: number) => {
    log.push(`${label}.${i}`);
    if (i === depth) return done();
    const next = () => step(i + 1);
    if (hop === 'then') void Promise.resolve().then(next);
    else if (hop === 'microtask') queueMicrotask(next);
    else if (hop === 'tick') process.nextTick(next);
    else
      void (async () => {
        await null;
        next();
      })();
  };
  const first = () => step(1);
  if (hop === 'then') void Promise.resolve().then(first);
  else if (hop === 'microtask') queueMicrotask(first);
  else if (hop === 'tick') process.nextTick(first);
  else
    void (async () => {
      await null;
      first();
    })();
}

/** What the two sides do: set a round up, then wake it (from `from`'s context). */
interface Side {
  setUp(answered: (v: unknown) => void): Promise<void>;
  wake(answered: (v: unknown) => void): void;
  close(): void;
}

/** The real InputRounds. */
function real(wake: Wake): Side {
  const rounds = new InputRounds();
  let ask!: () => void;
  let settle!: { resolve: (v: unknown) => void; reject: (e: Error) => void };
  let token = '';
  const run = (relay: ClientRelay) => {
    ask = () => void relay.request(REQ).catch(() => {});
    if (wake === 'resume') ask();
    return new Promise<unknown>((resolve, reject) => (settle = { resolve, reject }));
  };
  return {
    async setUp(answered) {
      const started = rounds.start('a', live(), relayFor, run);
      if (wake !== 'resume') return void started.then(answered, answered);
      token = ((await started) as { requestState: string }).requestState;
      // The call ends while the agent is away: the retry finds the outcome there.
      settle.resolve('done');
      await drained();
    },
    wake(answered) {
      if (wake === 'ask') ask();
      else if (wake === 'finish') settle.resolve('done');
      else if (wake === 'fail') settle.reject(new Error('failed'));
      else rounds.resume('a', token, {}, live()).then(answered, answered);
    },
    close: () => rounds.close(),
  };
}

/** The replaced code's schedule: `run().then(finish)`, and the decision by `queueMicrotask`. */
function model(wake: Wake): Side {
  let answer!: { resolve: (v: unknown) => void; reject: (e: Error) => void };
  let settle!: { resolve: (v: unknown) => void; reject: (e: Error) => void };
  return {
    async setUp(answered) {
      if (wake === 'resume') return;
      new Promise((resolve, reject) => (answer = { resolve, reject })).then(answered, answered);
      new Promise((resolve, reject) => (settle = { resolve, reject })).then(
        (v) => queueMicrotask(() => answer.resolve(v)),
        (e: Error) => queueMicrotask(() => answer.reject(e)),
      );
    },
    wake(answered) {
      if (wake === 'ask') queueMicrotask(() => answer.resolve({}));
      else if (wake === 'finish') settle.resolve('done');
      else if (wake === 'fail') settle.reject(new Error('failed'));
      else new Promise((resolve) => queueMicrotask(() => resolve('done'))).then(answered, answered);
    },
    close: () => {},
  };
}

/** The jobs' order, one label per job, with the round's answer among them. */
async function schedule(side: Side, c: Case): Promise<string[]> {
  const log: string[] = [];
  let left = c.before.length + c.after.length + 1;
  let finished!: () => void;
  const all = new Promise<void>((resolve) => (finished = resolve));
  const one = () => void (--left === 0 && finished());
  const answered = () => {
    log.push('answer');
    one();
  };
  await side.setUp(answered);
  from(c.where, () => {
    c.before.forEach((ch, i) => chain(log, `b${i}`, ch, one));
    side.wake(answered);
    c.after.forEach((ch, i) => chain(log, `a${i}`, ch, one));
  });
  await all;
  side.close();
  return log;
}

const chains = fc.array(
  fc.record({
    hop: fc.constantFrom<Hop>('then', 'microtask', 'tick', 'await'),
    depth: fc.integer({ min: 1, max: 5 }),
  }),
  { maxLength: 3 },
);
const WHERE: Where[] = ['sync', 'await', 'then', 'data', 'tick', 'timeout', 'immediate'];
const WAKE: Wake[] = ['ask', 'finish', 'fail', 'resume'];

describe("an input round's decision is scheduled as queueMicrotask scheduled it", () => {
  // Held out from the property (not tuned on): one microtask chain either side, deep enough that
  // a decision one job early or one job late moves the answer past one of them.
  it.each(WHERE.flatMap((where) => WAKE.map((wake) => ({ where, wake }))))(
    'a $wake woken from $where',
    async ({ where, wake }) => {
      const c: Case = {
        where,
        wake,
        before: [{ hop: 'microtask', depth: 4 }],
        after: [{ hop: 'then', depth: 4 }],
      };
      expect(await schedule(real(wake), c)).toEqual(await schedule(model(wake), c));
    },
  );

  it('over generated contexts, wake-ups and chains of other jobs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          where: fc.constantFrom(...WHERE),
          wake: fc.constantFrom(...WAKE),
          before: chains,
          after: chains,
        }),
        async (c) => {
          expect(await schedule(real(c.wake), c)).toEqual(await schedule(model(c.wake), c));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("an input round's decision runs in its wake-up's async context", () => {
  const als = new AsyncLocalStorage<string>();
  afterEach(() => void vi.restoreAllMocks());

  // The decision arms the round's time limit (input-rounds.ts `ask`); a Timeout keeps the async
  // context it was made in, and the expiry's aborts run there. queueMicrotask ran the decision in
  // the context of the ask that woke the round, not that of the call's start.
  it.each(WHERE)('an ask from %s', async (where) => {
    const seen: (string | undefined)[] = [];
    const setTimeoutReal = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      ...args: Parameters<typeof setTimeout>
    ) => {
      // The round's own timer only (10 minutes), not the test's `from('timeout')`.
      if (args[1] === 10 * 60_000) seen.push(als.getStore());
      return setTimeoutReal(...args);
    }) as typeof setTimeout);
    const rounds = new InputRounds();
    let ask!: () => void;
    const answer = als.run('start', () =>
      rounds.start('a', live(), relayFor, (relay) => {
        ask = () => void relay.request(REQ).catch(() => {});
        return new Promise(() => {});
      }),
    );
    from(where, () => als.run('the ask', ask));
    await answer;
    rounds.close();
    expect(seen).toEqual(['the ask']);
  });
});

describe('a decision that throws', () => {
  // queueMicrotask made such a throw an uncaught exception (`airlock serve` ends); a promise
  // reaction makes it an unhandled rejection, which `airlock serve` logs and keeps serving past
  // (cli/kept-serving.ts): the agent's request must then be answered with the error, and the call
  // must not run on for nobody.
  it('answers the request with the error and ends the call', async () => {
    const rounds = new InputRounds();
    const boom = new Error('line broke');
    // The decision's one call out that is not the round's own: the request's line (round-line.ts).
    const line: MovingLine = {
      to: () => {
        throw boom;
      },
    };
    let callSignal!: AbortSignal;
    let settled: { ok: unknown } | { error: unknown } | undefined;
    rounds
      .start(
        'a',
        live(),
        relayFor,
        (relay, signal) => {
          callSignal = signal;
          void relay.request(REQ).catch(() => {});
          return new Promise(() => {});
        },
        undefined,
        line,
      )
      .then(
        (ok) => (settled = { ok }),
        (error: unknown) => (settled = { error }),
      );
    await drained();
    rounds.close();
    expect(settled).toEqual({ error: boom });
    expect(callSignal.aborted).toBe(true);
  });
});
