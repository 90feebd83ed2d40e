import {
  isSpecType,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { levelRank } from '../../tools/features.js';
import type { ClientRelay, RelayedLog, RelayMethod, RelayRequest } from '../../tools/relay.js';
import type { ProgressSink } from '../../tools/types.js';

/** What one open 2026-07-28 agent request offers the call for what the upstream sends during it. */
export interface RequestLine {
  /** Its progress channel, where it carried a progressToken (agent-progress.ts). */
  progress?: ProgressSink | undefined;
  /** Its own log level (SEP-2577) and the way to its stream, where it carried one (requestLog). */
  level?: LoggingLevel | undefined;
  log?: ((line: RelayedLog) => Promise<void>) | undefined;
}

/** What an input round moves from request to request (input-rounds.ts): RoundLine, LoneLine. */
export interface MovingLine {
  /** The request open now; undefined when the last one was answered and no retry is here yet. */
  to(next: RequestLine | undefined): void;
}

/**
 * A 2026-07-28 call's line to the agent request open now (MCP 2026-07-28, basic/patterns/mrtr).
 * A call that asks for input answers its request with input_required; the agent's retry is a new
 * request, with a progressToken and a log level of its own, while the upstream call goes on. What
 * the upstream sends from then on — progress, log lines — belongs on the retry's stream: on the
 * first request's, already answered, it was lost. input-rounds.ts moves the line: to none when a
 * request is answered with input_required, to the retry when it comes.
 *
 * Progress while no request is open (the upstream reporting while the agent answers) is held, the
 * latest only — each value supersedes the one before — and goes first on the retry. A log line
 * then has no request to go on: `level` is unset, so it goes to the agent's listen streams
 * (feature-sessions.ts), as a line outside any call does.
 */
export class RoundLine implements MovingLine {
  private open: RequestLine | undefined;
  /** Names the agent request progress goes to; a new one each time a request is answered. */
  private current: object = {};
  private held: Parameters<ProgressSink> | undefined;

  constructor(first: RequestLine) {
    this.open = first;
  }

  /** The request open now; undefined when the last one was answered and no retry is here yet. */
  to(next: RequestLine | undefined): void {
    // Progress held meanwhile goes to the retry's token, as the first of its values: the value
    // that names the request changes when one is answered, not when the next arrives.
    if (!next) this.current = {};
    this.open = next;
    const held = this.held;
    this.held = undefined;
    if (next && held) next.progress?.(...held);
  }

  readonly progress: ProgressSink = Object.assign(
    (...args: Parameters<ProgressSink>) => {
      const open = this.open;
      if (open) open.progress?.(...args);
      else this.held = args;
    },
    { request: () => this.current },
  );

  get level(): LoggingLevel | undefined {
    return this.open?.level;
  }

  readonly log = (line: RelayedLog): Promise<void> => {
    const log = this.open?.log;
    return log ? log(line) : Promise.reject(new Error('no request of the agent is open'));
  };
}

/** The relay with its log channel on the round's line (feature-sessions.ts reads `level`, `log`). */
export function onLine(relay: ClientRelay, line: RoundLine): ClientRelay {
  return Object.defineProperties(
    { ...relay },
    {
      level: { get: () => line.level, enumerable: true },
      log: { value: line.log, enumerable: true },
      // Set on the relay once it has relayed something (relay.ts): read from it, not copied.
      done: { get: () => relay.done, enumerable: true },
    },
  ) as ClientRelay;
}

/**
 * A 2026-07-28 request's own log level (SEP-2577, `_meta` `io.modelcontextprotocol/logLevel`) and
 * the way to its stream: a line at or above the level goes there, as `notifications/message` with
 * every field of LoggingMessageNotificationParams (its `_meta` too, which the SDK's
 * `ctx.mcpReq.log` would drop). Ranked by levelRank, whose order is the SDK's own
 * (log-levels.test.ts); none asked, no line, as the SDK does.
 */
export function requestLog(ctx: ServerContext): Pick<RequestLine, 'level' | 'log'> | undefined {
  const level = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_META_KEY];
  if (typeof level !== 'string' || !isSpecType.LoggingLevel(level)) return undefined;
  const asked = level as LoggingLevel;
  return {
    level: asked,
    log: (line) =>
      levelRank(line.level) < levelRank(asked)
        ? Promise.resolve()
        : ctx.mcpReq.notify({ method: 'notifications/message', params: line }),
  };
}

/** LoneLine's `open` while the lone call's own request is the one open. */
const OWN = Symbol('own request');

/**
 * The lone path's RoundLine and relay in one (modern-lone-call.ts), for an everyday call whose
 * request named a log level: the relay the call runs with (ClientRelay, the round's relay read
 * through) carrying the request's `level` and `log`, and the line the round moves
 * (input-rounds.ts) — what modernRound's RoundLine and onLine make on the SDK path, as one object
 * with no closure of its own (issue 34, lazy escalation: a call with a level and no log line
 * costs this object only). A line at or above the level goes on the request's stream as
 * `ctx.mcpReq.notify` sends it there: the server's own notification funnel
 * (Protocol._notificationViaCodec, the same codec, capability check and envelope) related to the
 * id the hot transport gave the request, so its transport turns the answer into an event stream
 * (modern-hot.ts send). After an input_required answer, and on the retry, it is the retry's
 * line, as a RoundLine's. modern-lone-call.property.test.ts holds both paths equal.
 *
 * `log` is a method: feature-sessions.ts calls it on the relay (`n.call.log(line)`).
 */
export class LoneLine implements ClientRelay, MovingLine {
  private open: RequestLine | typeof OWN | undefined = OWN;
  /** The round's relay (set by `over`, before the call runs). */
  private inner!: ClientRelay;

  constructor(
    private readonly asked: LoggingLevel,
    private readonly server: Server,
    /** The id the hot transport gave the request (modern-hot.ts), as `ctx.mcpReq.id` is. */
    private readonly key: number,
  ) {}

  /** This line over the round's relay: the relay the call runs with. */
  over(relay: ClientRelay): this {
    this.inner = relay;
    return this;
  }

  to(next: RequestLine | undefined): void {
    // No progress to carry: a lone call had no progressToken, so its pipeline reports none.
    this.open = next;
  }

  get level(): LoggingLevel | undefined {
    const open = this.open;
    return open === OWN ? this.asked : open?.level;
  }

  log(line: RelayedLog): Promise<void> {
    const open = this.open;
    if (open !== OWN) {
      const log = open?.log;
      return log ? log(line) : Promise.reject(new Error('no request of the agent is open'));
    }
    // requestLog's filter, by the same rank.
    if (levelRank(line.level) < levelRank(this.asked)) return Promise.resolve();
    return this.server.notification(
      { method: 'notifications/message', params: line },
      { relatedRequestId: this.key },
    );
  }

  get agent(): string {
    return this.inner.agent;
  }
  refusal(method: RelayMethod, params: Record<string, unknown>): string | null {
    return this.inner.refusal(method, params);
  }
  request(req: RelayRequest): Promise<Record<string, unknown>> {
    return this.inner.request(req);
  }
  get elicitationComplete(): ClientRelay['elicitationComplete'] {
    return this.inner.elicitationComplete;
  }
  get session(): string | undefined {
    return this.inner.session;
  }
  get done(): ClientRelay['done'] {
    return this.inner.done;
  }
  get self(): ClientRelay['self'] {
    return this.inner.self;
  }
}
