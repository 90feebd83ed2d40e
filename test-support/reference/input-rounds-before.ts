import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ClientRelay, RelayRequest } from '../../main/tools/relay.js';

/**
 * InputRounds as it was before wave 3 session 18 (main/gateway/mcp-handlers/input-rounds.ts at
 * 52fe9ca), verbatim but for its name: the reference input-rounds.property.test.ts holds the
 * current one equal to. Test code only.
 */
const ROUND_TTL_MS = 10 * 60_000;

interface Ask {
  req: RelayRequest;
  resolve: (r: Record<string, unknown>) => void;
  reject: (e: Error) => void;
  sent: boolean;
}

interface Round {
  agent: string;
  /** The requestState naming it, made once it first asks (most calls never do). */
  token?: string;
  asks: Map<string, Ask>;
  next: number;
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
  wake?: () => void;
  abort: AbortController;
  timer?: NodeJS.Timeout;
}

type InputRequiredAnswer = {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState: string;
};

export class ReferenceInputRounds {
  private readonly rounds = new Map<string, Round>();

  /**
   * Runs a request that may need the agent's input. `relayFor` builds the
   * relay whose requests join this round; `run` gets the round's signal (the
   * first HTTP request ends with the input_required answer, the call does not).
   */
  async start<T>(
    agent: string,
    signal: AbortSignal,
    relayFor: (ask: (req: RelayRequest) => Promise<Record<string, unknown>>) => ClientRelay,
    run: (relay: ClientRelay, signal: AbortSignal) => Promise<T>,
  ): Promise<T | InputRequiredAnswer> {
    const abort = new AbortController();
    // Most calls never ask for input: the round is registered (and timed) only once it does.
    const round: Round = { agent, asks: new Map(), next: 1, abort };
    const relay = relayFor(
      (req) =>
        new Promise((resolve, reject) => {
          round.asks.set(`r${round.next++}`, { req, resolve, reject, sent: false });
          round.wake?.();
        }),
    );
    run(relay, abort.signal).then(
      (value) => this.finish(round, { ok: true, value }),
      (error: unknown) => this.finish(round, { ok: false, error }),
    );
    return this.settle<T>(round, signal);
  }

  /** The agent's retry: answers for the requests it was given, then the next step. */
  async resume<T>(
    agent: string,
    token: string,
    responses: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<T | InputRequiredAnswer> {
    const round = this.rounds.get(token);
    if (!round || round.agent !== agent)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState');
    for (const [key, ask] of round.asks) {
      if (!ask.sent) continue;
      round.asks.delete(key);
      const answer = responses?.[key];
      if (answer && typeof answer === 'object') ask.resolve(answer as Record<string, unknown>);
      else ask.reject(new Error('the agent retried without answering this request'));
    }
    return this.settle<T>(round, signal);
  }

  /**
   * Waits for the result or the next requests. While the agent's request is
   * open, its cancellation cancels the work; once answered with
   * input_required, that request is over and its end means nothing.
   */
  private async settle<T>(round: Round, signal: AbortSignal): Promise<T | InputRequiredAnswer> {
    const cancel = () => round.abort.abort(signal.reason);
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
    try {
      return await this.next<T>(round);
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  private async next<T>(round: Round): Promise<T | InputRequiredAnswer> {
    await new Promise<void>((resolve) => {
      const ready = () =>
        round.outcome !== undefined || [...round.asks.values()].some((a) => !a.sent);
      if (ready()) return resolve();
      round.wake = () => {
        if (ready()) {
          round.wake = undefined;
          resolve();
        }
      };
    });
    if (round.outcome) {
      if (round.token) this.rounds.delete(round.token);
      if (round.timer) clearTimeout(round.timer);
      if (round.outcome.ok) return round.outcome.value as T;
      throw round.outcome.error;
    }
    const inputRequests: InputRequiredAnswer['inputRequests'] = {};
    for (const [key, ask] of round.asks)
      if (!ask.sent) {
        ask.sent = true;
        inputRequests[key] = { method: ask.req.method, params: ask.req.params };
      }
    if (!round.token) {
      const token = (round.token = randomUUID());
      this.rounds.set(token, round);
      round.timer = setTimeout(() => this.expire(token), ROUND_TTL_MS);
      round.timer.unref();
    }
    return { resultType: 'input_required', inputRequests, requestState: round.token };
  }

  private finish(round: Round, outcome: NonNullable<Round['outcome']>): void {
    round.outcome = outcome;
    for (const ask of round.asks.values()) ask.reject(new Error('the call ended'));
    round.asks.clear();
    round.wake?.();
  }

  /** An agent that never came back: the upstream's requests fail, and the call with them. */
  private expire(token: string): void {
    const round = this.rounds.get(token);
    if (!round) return;
    this.rounds.delete(token);
    for (const ask of round.asks.values())
      ask.reject(new Error('the agent did not answer within 10 minutes'));
    round.abort.abort(new Error('the agent did not come back for its input_required answer'));
  }

  close(): void {
    for (const token of [...this.rounds.keys()]) this.expire(token);
  }
}
