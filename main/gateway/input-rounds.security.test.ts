import { describe, expect, it } from 'vitest';
import { InputRounds } from './mcp-handlers/input-rounds.js';
import type { ClientRelay, RelayRequest } from '../tools/relay.js';

/**
 * Issue 14: a 2026-07-28 agent's pending input round (the upstream's
 * sampling or elicitation waiting for that agent's answer) cannot be
 * answered or read by another agent, even one that learned the requestState.
 */
const relayFor = (agent: string) => (ask: (r: RelayRequest) => Promise<Record<string, unknown>>) =>
  ({
    agent,
    refusal: () => null,
    request: ask,
  }) satisfies ClientRelay;

describe('input rounds', () => {
  it("another agent replaying a round's requestState is refused, and its answer never reaches the upstream", async () => {
    const rounds = new InputRounds();
    let answered: unknown;
    const live = new AbortController().signal;
    const first = await rounds.start('alice', live, relayFor('alice'), async (relay) => {
      answered = await relay.request({
        method: 'sampling/createMessage',
        params: { messages: [] },
        server: 'up',
      });
      return 'done';
    });
    expect(first).toMatchObject({ resultType: 'input_required' });
    const { requestState, inputRequests } = first as {
      requestState: string;
      inputRequests: Record<string, unknown>;
    };
    const key = Object.keys(inputRequests)[0]!;

    await expect(
      rounds.resume('mallory', requestState, { [key]: { role: 'assistant', forged: true } }, live),
    ).rejects.toThrow(/Invalid or expired requestState/);
    expect(answered).toBeUndefined();

    const done = await rounds.resume('alice', requestState, { [key]: { role: 'assistant' } }, live);
    expect(done).toBe('done');
    expect(answered).toEqual({ role: 'assistant' });
    // The round is gone once finished: a replay by its own agent fails too.
    await expect(rounds.resume('alice', requestState, {}, live)).rejects.toThrow(
      /Invalid or expired/,
    );
    rounds.close();
  });

  it('an unknown or guessed requestState is refused', async () => {
    const rounds = new InputRounds();
    await expect(
      rounds.resume('alice', 'not-a-round', {}, new AbortController().signal),
    ).rejects.toThrow(/Invalid or expired requestState/);
    rounds.close();
  });
});
