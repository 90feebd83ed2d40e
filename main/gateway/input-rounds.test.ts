import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { InputRounds } from './mcp-handlers/input-rounds.js';
import type { ClientRelay, RelayRequest } from '../tools/relay.js';

const relayFor = (agent: string) => (ask: (r: RelayRequest) => Promise<Record<string, unknown>>) =>
  ({ agent, refusal: () => null, request: ask }) satisfies ClientRelay;

describe('input rounds (2026-07-28 agents)', () => {
  it("a call that asks nothing answers directly; the agent's cancellation reaches the work", async () => {
    const rounds = new InputRounds();
    expect(
      await rounds.start('a', new AbortController().signal, relayFor('a'), async () => 'plain'),
    ).toBe('plain');

    const cancel = new AbortController();
    const seen = rounds.start(
      'a',
      cancel.signal,
      relayFor('a'),
      (_relay, signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    cancel.abort(new Error('agent cancelled'));
    await expect(seen).rejects.toThrow('agent cancelled');
    rounds.close();
  });

  it('asks in several rounds, one input_required per round, then answers', async () => {
    const rounds = new InputRounds();
    const live = new AbortController().signal;
    const first = (await rounds.start('a', live, relayFor('a'), async (relay) => {
      const one = await relay.request({ method: 'roots/list', params: {}, server: 's' });
      const two = await relay.request({ method: 'roots/list', params: {}, server: 's' });
      return [one, two];
    })) as { requestState: string; inputRequests: Record<string, unknown> };
    const k1 = Object.keys(first.inputRequests)[0]!;
    const second = (await rounds.resume(
      'a',
      first.requestState,
      { [k1]: { roots: [1] } },
      live,
    )) as {
      requestState: string;
      inputRequests: Record<string, unknown>;
    };
    expect(second.requestState).toBe(first.requestState);
    const k2 = Object.keys(second.inputRequests)[0]!;
    expect(k2).not.toBe(k1);
    expect(await rounds.resume('a', first.requestState, { [k2]: { roots: [2] } }, live)).toEqual([
      { roots: [1] },
      { roots: [2] },
    ]);
    rounds.close();
  });
  // Issue 34 (docs/performance.md, wave 3 session 26): the round's decision is one promise
  // reaction, not queueMicrotask, which makes an AsyncResource ('Microtask') per call and runs the
  // decision through runInAsyncScope — a cost only the 2026-07-28 path had. Ordering is held by
  // input-rounds.property.test.ts; this holds the cost.
  it('decides without a Microtask AsyncResource', async () => {
    const rounds = new InputRounds();
    const types: string[] = [];
    const hook = createHook({ init: (_id, type) => void types.push(type) }).enable();
    let answer: unknown;
    let done!: () => void;
    const ran = new Promise<void>((resolve) => (done = resolve));
    try {
      const settled = rounds.start('a', new AbortController().signal, relayFor('a'), async () => {
        done();
        return 'plain';
      });
      void settled.then((v) => (answer = v));
      await ran;
      await settled;
    } finally {
      hook.disable();
    }
    expect(answer).toBe('plain');
    expect(types).not.toContain('Microtask');
    rounds.close();
  });
});
