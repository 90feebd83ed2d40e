import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputRounds } from './mcp-handlers/input-rounds.js';
import type { ClientRelay, RelayRequest } from '../tools/relay.js';

/**
 * Retries of a 2026-07-28 input round that the differential test (input-rounds.property.test.ts)
 * does not play, because the implementation it compares with got them wrong: two retries open at
 * once, an answer smuggled in as a prototype, and the round's time limit counted while the agent's
 * retry waits on a long call. Time is a fake clock; each step runs to rest (setImmediate).
 */
const rest = async () => {
  for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
};

/** An answer's state once the schedule has run to rest. */
function watch(p: Promise<unknown>): { state: unknown } {
  const w: { state: unknown } = { state: 'pending' };
  p.then(
    (v) => (w.state = { ok: v }),
    (e: unknown) => (w.state = { error: String(e) }),
  );
  return w;
}

/**
 * A call that asks the agent once, reports what it got, then waits until `finish` (as a long
 * upstream call does) or its signal.
 */
function askingCall() {
  const seen: { got?: unknown; signal?: AbortSignal } = {};
  let finish!: (v: string) => void;
  const relayFor = (ask: (r: RelayRequest) => Promise<Record<string, unknown>>): ClientRelay => ({
    agent: 'a',
    refusal: () => null,
    request: ask,
  });
  const run = async (relay: ClientRelay, signal: AbortSignal) => {
    seen.signal = signal;
    seen.got = await relay
      .request({ method: 'roots/list', params: {}, server: 's' })
      .catch((e: unknown) => `rejected: ${String(e)}`);
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      signal.addEventListener('abort', () => reject(signal.reason as Error));
    });
  };
  return { seen, relayFor, run, finish: (v: string) => finish(v) };
}

async function firstRound(rounds: InputRounds, call: ReturnType<typeof askingCall>) {
  const answer = watch(rounds.start('a', new AbortController().signal, call.relayFor, call.run));
  await rest();
  const { ok } = answer.state as { ok: { resultType: string; requestState: string } };
  expect(ok.resultType).toBe('input_required');
  return ok.requestState;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('input round retries', () => {
  it('a second retry while one is open is refused, changes nothing, and the first is answered', async () => {
    const rounds = new InputRounds();
    const call = askingCall();
    const token = await firstRound(rounds, call);
    const first = new AbortController();
    const one = watch(rounds.resume('a', token, { r1: { roots: ['first'] } }, first.signal));
    await rest();
    const two = watch(rounds.resume('a', token, { r1: { roots: ['second'] } }, first.signal));
    await rest();
    expect(two.state).toEqual({
      error: expect.stringMatching(/A retry with this requestState is already open/) as unknown,
    });
    expect(call.seen.got).toEqual({ roots: ['first'] });
    call.finish('value');
    await rest();
    expect(one.state).toEqual({ ok: 'value' });
    expect(call.seen.signal!.aborted).toBe(false);
    rounds.close();
  });

  it('an answer held by a prototype (an inputResponses entry named __proto__) answers nothing', async () => {
    const rounds = new InputRounds();
    const call = askingCall();
    const token = await firstRound(rounds, call);
    // What the SDK's copy of `{"__proto__": {"r1": …}}` makes (partitionInputResponses).
    const responses: Record<string, unknown> = {};
    responses['__proto__'] = { r1: { roots: ['smuggled'] } };
    void rounds.resume('a', token, responses, new AbortController().signal);
    await rest();
    expect(call.seen.got).toBe('rejected: Error: the agent retried without answering this request');
    call.finish('value');
    rounds.close();
  });

  it('the time limit runs while the agent is away, not while its retry waits on a long call', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const rounds = new InputRounds();
    const call = askingCall();
    const token = await firstRound(rounds, call);
    vi.advanceTimersByTime(9 * 60_000);
    const retry = watch(
      rounds.resume('a', token, { r1: { roots: [] } }, new AbortController().signal),
    );
    await rest();
    expect(call.seen.got).toEqual({ roots: [] });
    // The upstream call runs on for an hour; the agent's retry is open all along.
    vi.advanceTimersByTime(60 * 60_000);
    await rest();
    expect(call.seen.signal!.aborted).toBe(false);
    call.finish('value');
    await rest();
    expect(retry.state).toEqual({ ok: 'value' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an agent that does not come back within 10 minutes of its answer ends the call; close leaves no timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const rounds = new InputRounds();
    const away = askingCall();
    await firstRound(rounds, away);
    vi.advanceTimersByTime(10 * 60_000);
    await rest();
    expect(away.seen.got).toBe('rejected: Error: the agent did not answer within 10 minutes');
    expect(String(away.seen.signal!.reason)).toMatch(/did not come back/);

    const closed = askingCall();
    await firstRound(rounds, closed);
    expect(vi.getTimerCount()).toBe(1);
    rounds.close();
    await rest();
    expect(closed.seen.signal!.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
