import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ClientRelay, RelayRequest } from '../../tools/relay.js';
import type { MovingLine, RequestLine } from './round-line.js';

/**
 * Server→client requests to a 2026-07-28 agent (issue 14, item 2). That era
 * has no server-initiated requests: the server answers the call with
 * `input_required` (the requests embedded), and the client retries the same
 * call with `inputResponses` and the `requestState` it was given (MCP
 * 2026-07-28, basic/patterns/mrtr). Airlock's upstream call keeps running
 * meanwhile; its pending sampling/elicitation/roots requests wait here until
 * the agent's retry brings the answers.
 *
 * `requestState` is a random id of server-side state, bound to the agent: it
 * carries nothing to trust, and another agent's token never finds it.
 */
const ROUND_TTL_MS = 10 * 60_000;

/**
 * Settled once: a round's decision is queued as a reaction to it (settle's `wake`). A promise
 * reaction, not `queueMicrotask`, which builds an AsyncResource per call and runs the callback
 * through `runInAsyncScope` and `emitDestroy` (issue 34: once per 2026-07-28 call, a cost the
 * 2025 path has no counterpart of; as upstream-client.ts's `_onresponse`). Either is one job on
 * the same microtask queue, queued at the same moment, so the order holds.
 */
const QUEUED = Promise.resolve();

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
  /** Made on the first ask (most calls never ask: issue 34, a Map less per call). */
  asks?: Map<string, Ask>;
  next: number;
  /** How many of `asks` have not gone to the agent yet. */
  unsent: number;
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
  /** The open request's delivery: answers it once there is an outcome or something to ask. */
  wake?: () => void;
  abort: AbortController;
  /** Armed from each input_required answer until the agent's retry (expire). */
  timer?: NodeJS.Timeout;
  /** The call's line to the agent request open now (round-line.ts), where it has one. */
  line?: MovingLine | undefined;
}

export type InputRequiredAnswer = {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState: string;
};

/**
 * Every 2026-07-28 tools/call, prompts/get and resources/read runs through `start`, and nearly
 * none ever asks: so an open request waits on one promise of its own, answered straight from
 * the round (issue 34: the era's extra cost per call; before, three async functions, an inner
 * promise and a copy of the asks per wake-up, ≈ 4.5 KiB allocated a call).
 * input-rounds.property.test.ts holds it equal to that implementation over generated schedules.
 */
export class InputRounds {
  private readonly rounds = new Map<string, Round>();

  /**
   * Runs a request that may need the agent's input. `relayFor` builds the
   * relay whose requests join this round; `run` gets the round's signal (the
   * first HTTP request ends with the input_required answer, the call does not).
   *
   * `request`, when given, is the controller whose signal `signal` is, and nothing aborts it once
   * its request has been answered (the hot path's, modern-hot.ts `controllerOf`): the round then
   * uses it as the call's own instead of making a second one and joining the two by a listener
   * (issue 34: an AbortController, its signal's listener map and a listener added and removed per
   * call). Whatever aborts the request while it is open then aborts the call as before, and the
   * round aborts it from a retry's cancellation or its time limit, after its answer.
   * input-rounds.property.test.ts holds both ways to the replaced implementation.
   */
  start<T>(
    agent: string,
    signal: AbortSignal,
    relayFor: (ask: (req: RelayRequest) => Promise<Record<string, unknown>>) => ClientRelay,
    run: (relay: ClientRelay, signal: AbortSignal) => Promise<T>,
    request?: AbortController,
    /** Where what the upstream sends during the call goes: moved to each retry (round-line.ts). */
    line?: MovingLine,
  ): Promise<T | InputRequiredAnswer> {
    // The request's own controller, not aborted yet: the call needs no round until it asks.
    if (request?.signal === signal && !signal.aborted)
      return this.startLazily(agent, request, relayFor, run, line);
    try {
      // Most calls never ask for input: the round is registered (and timed) only once it does.
      const round: Round = {
        agent,
        line,
        next: 1,
        unsent: 0,
        abort: new AbortController(),
      };
      const relay = relayFor((req) => this.add(round, req));
      // The outcome recorded by the reaction itself (issue 34: not a `finish` call per call more).
      this.follow(round, run(relay, round.abort.signal));
      return this.settle<T>(round, signal);
    } catch (err) {
      // As an async function would: a throw before the wait is the answer's rejection.
      return Promise.reject(err as Error);
    }
  }

  /**
   * `start` for a call whose signal is its request's own (the hot path's): the round — its
   * record, its outcome's reactions, its wake-up and decision — is made on the call's first ask,
   * not for every call (issue 34: most calls never ask, and at 8 clients every open call's round
   * lived through a scavenge). Until then the call's outcome answers the request straight from
   * its own reaction. The relay can ask at any time: its first ask makes the round as `start`
   * would have made it, waiting on this same request, and from then on the round decides as
   * before (an outcome that comes after the ask answers nothing twice: the request's promise is
   * settled once). No cancellation to join: the request's signal is the call's.
   * input-rounds.property.test.ts holds this path to the replaced implementation (on held-out
   * seeds too), and its moves of the call's line to `start`'s eager path, over generated schedules.
   */
  private startLazily<T>(
    agent: string,
    request: AbortController,
    relayFor: (ask: (req: RelayRequest) => Promise<Record<string, unknown>>) => ClientRelay,
    run: (relay: ClientRelay, signal: AbortSignal) => Promise<T>,
    line: MovingLine | undefined,
  ): Promise<T | InputRequiredAnswer> {
    const { promise, resolve, reject } = Promise.withResolvers<T | InputRequiredAnswer>();
    let round: Round | undefined;
    let running: Promise<T> | undefined;
    try {
      const relay = relayFor((req) => {
        if (!round) {
          round = { agent, line, next: 1, unsent: 0, abort: request };
          // Its outcome's reactions go after the request's own (below): whichever settles the
          // request first wins, and a decision already queued comes first (settle's wake).
          // Asked in `run`'s synchronous part: the round waits from when `run` has returned, as
          // `start`'s does (settle after run).
          if (running) this.open(round, running, resolve, reject);
        }
        return this.add(round, req);
      });
      running = run(relay, request.signal);
      running.then(resolve, reject);
      if (round) this.open(round, running, resolve, reject);
    } catch (err) {
      // As `start`'s throw: the answer's rejection (a round an ask made meanwhile waits on
      // nothing, as `start`'s never reached its settle).
      reject(err);
    }
    return promise;
  }

  /** A lazily made round: follows the call's outcome and waits on the first request. */
  private open<T>(
    round: Round,
    running: Promise<T>,
    resolve: (answer: T | InputRequiredAnswer) => void,
    reject: (err: unknown) => void,
  ): void {
    this.follow(round, running);
    this.wait(round, round.abort.signal, resolve, reject);
  }

  /**
   * An ask of the call's: waits for the agent's answer, on the round's next input_required. One
   * made after the call's outcome (an upstream that asks after it answered) is refused at once,
   * as endAsks refuses the ones still open then: no request of the agent's is left to carry it,
   * and waiting would leave the upstream's request open until its own timeout.
   */
  private add(round: Round, req: RelayRequest): Promise<Record<string, unknown>> {
    if (round.outcome) return Promise.reject(new Error('the call ended'));
    return new Promise((resolve, reject) => {
      (round.asks ??= new Map()).set(`r${round.next++}`, { req, resolve, reject, sent: false });
      round.unsent++;
      round.wake?.();
    });
  }

  /** Records the call's outcome on its round and wakes the open request, if any. */
  private follow(round: Round, running: Promise<unknown>): void {
    running.then(
      (value) => {
        round.outcome = { ok: true, value };
        if (round.asks) this.endAsks(round);
        round.wake?.();
      },
      (error: unknown) => {
        round.outcome = { ok: false, error };
        if (round.asks) this.endAsks(round);
        round.wake?.();
      },
    );
  }

  /** The agent's retry: answers for the requests it was given, then the next step. */
  resume<T>(
    agent: string,
    token: string,
    responses: Record<string, unknown> | undefined,
    signal: AbortSignal,
    /** The retry's own progress and log channel, for the rest of the call (round-line.ts). */
    next?: RequestLine,
  ): Promise<T | InputRequiredAnswer> {
    const round = this.rounds.get(token);
    if (!round || round.agent !== agent)
      return Promise.reject(
        new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState'),
      );
    // One request at a time carries a round: a second retry while one is open is refused and
    // changes nothing (taking over the wake-up would leave the first request open for ever, and
    // its cancellation would still cancel the call).
    if (round.wake)
      return Promise.reject(
        new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          'A retry with this requestState is already open',
        ),
      );
    // The agent came back: the round's time limit counts again only from its next answer.
    clearTimeout(round.timer);
    // Before the answers: the upstream call goes on once it has them, and what it sends from
    // then on belongs on this request's stream.
    round.line?.to(next ?? {});
    for (const [key, ask] of round.asks ?? []) {
      if (!ask.sent) continue;
      round.asks!.delete(key);
      // Own keys only: the SDK copies inputResponses key by key, so an entry named `__proto__`
      // becomes the object's prototype, and what it holds is no answer the agent gave.
      const answer = responses && Object.hasOwn(responses, key) ? responses[key] : undefined;
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
  private settle<T>(round: Round, signal: AbortSignal): Promise<T | InputRequiredAnswer> {
    // Its resolvers without an executor function (issue 34: one function less per call; ES2024).
    const { promise, resolve, reject } = Promise.withResolvers<T | InputRequiredAnswer>();
    this.wait(round, signal, resolve, reject);
    return promise;
  }

  /** settle's wait, answering through `resolve` and `reject` (startLazily's are the request's). */
  private wait<T>(
    round: Round,
    signal: AbortSignal,
    resolve: (answer: T | InputRequiredAnswer) => void,
    reject: (err: unknown) => void,
  ): void {
    // What an executor's throw did: the promise's rejection.
    try {
      // The request's own signal is the call's (start's `request`): nothing to join.
      const joined = signal !== round.abort.signal;
      const cancel = () => round.abort.abort(signal.reason);
      // No `once`: an abort fires once, and the listener goes when the request is answered.
      if (joined) {
        if (signal.aborted) cancel();
        else signal.addEventListener('abort', cancel);
      }
      let queued = false;
      // Decided one job after the wake-up, as before: requests the call asks together (in one
      // synchronous stretch) go to the agent in one input_required answer.
      const decide = () => {
        queued = false;
        if (round.outcome === undefined && round.unsent === 0) return;
        round.wake = undefined;
        if (joined) signal.removeEventListener('abort', cancel);
        const { outcome } = round;
        if (!outcome) {
          try {
            // This request is answered: nothing more goes on its stream (round-line.ts).
            round.line?.to(undefined);
            return resolve(this.ask(round));
          } catch (err) {
            // A throw here (the line is the caller's) was an uncaught exception under
            // queueMicrotask, which ends `airlock serve`; in a promise reaction it is an
            // unhandled rejection, which the process logs and serves on past (kept-serving.ts),
            // and the request would stay open for ever. It is the request's answer instead, and
            // the call, which nobody can give its input any more, ends.
            if (round.token) this.rounds.delete(round.token);
            clearTimeout(round.timer);
            round.abort.abort(err);
            return reject(err as Error);
          }
        }
        if (round.token) this.rounds.delete(round.token);
        if (round.timer) clearTimeout(round.timer);
        if (outcome.ok) resolve(outcome.value as T);
        else reject(outcome.error as Error);
      };
      const wake = () => {
        if (queued || (round.outcome === undefined && round.unsent === 0)) return;
        queued = true;
        void QUEUED.then(decide);
      };
      round.wake = wake;
      wake();
    } catch (err) {
      reject(err);
    }
  }

  /** The requests not yet sent, as this request's input_required answer. */
  private ask(round: Round): InputRequiredAnswer {
    const inputRequests: InputRequiredAnswer['inputRequests'] = {};
    for (const [key, ask] of round.asks ?? [])
      if (!ask.sent) {
        ask.sent = true;
        inputRequests[key] = { method: ask.req.method, params: ask.req.params };
      }
    round.unsent = 0;
    if (!round.token) this.rounds.set((round.token = randomUUID()), round);
    const token = round.token;
    // Timed while the agent is away (from each input_required answer to its retry), not while a
    // retry waits on a long call: that agent did come back.
    round.timer = setTimeout(() => this.expire(token), ROUND_TTL_MS);
    round.timer.unref();
    return { resultType: 'input_required', inputRequests, requestState: token };
  }

  /** The call ended (its outcome set): what it still asks fails. */
  private endAsks(round: Round): void {
    for (const ask of round.asks!.values()) ask.reject(new Error('the call ended'));
    round.asks!.clear();
  }

  /** An agent that never came back: the upstream's requests fail, and the call with them. */
  private expire(token: string): void {
    const round = this.rounds.get(token);
    if (!round) return;
    this.rounds.delete(token);
    clearTimeout(round.timer);
    for (const ask of round.asks?.values() ?? [])
      ask.reject(new Error('the agent did not answer within 10 minutes'));
    round.abort.abort(new Error('the agent did not come back for its input_required answer'));
  }

  close(): void {
    for (const token of [...this.rounds.keys()]) this.expire(token);
  }
}
