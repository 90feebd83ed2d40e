import { AsyncLocalStorage } from 'node:async_hooks';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { SourceNotice } from '../../tools/features.js';
import type { ClientRelay, RelayMethod } from '../../tools/relay.js';
import type { UrlCompletions } from './url-completions.js';

/**
 * Which agent a server→client request belongs to (issue 14, item 2). The
 * upstream asks for sampling, elicitation or roots while serving one of our
 * requests: on the 2025 era over that request's own response stream, on
 * 2026-07-28 as an `input_required` result the SDK client answers inside
 * the same call. Either way the handler runs in the async context of the
 * call that caused it, so an AsyncLocalStorage set around the call names the
 * agent — and only that agent's relay is ever used. A request outside any
 * call (the 2025 standalone GET stream) has no agent and is refused.
 */
interface Scope {
  agent: string;
  relay?: ClientRelay;
  signal: AbortSignal;
  /**
   * The call's response stream broke (a cut connection, not a graceful end):
   * the call fails at once, alone (issue 14, item 5). The SDK would otherwise
   * wait for a response that can no longer come until the idle timeout.
   */
  onStreamLost?: (err: unknown) => void;
}

const scope = new AsyncLocalStorage<Scope>();

export function inRelayScope<A extends unknown[], T>(
  s: Scope,
  run: (...args: A) => Promise<T>,
  // Handed to `run` as AsyncLocalStorage.run hands them: a call needs no closure (issue 34).
  ...args: A
): Promise<T> {
  return scope.run(s, run, ...args);
}

/**
 * Runs functions later in this async context's relay scope: a stream reader hands a
 * server→client request over in the scope of the call that opened the stream. Node already runs
 * a response's callbacks in its request's context, kept-alive socket or not (the test in
 * lean-transport.test.ts holds both to it); this keeps it so without an AsyncResource per
 * stream (issue 20).
 */
export function relayScopeRunner(): <T>(run: () => T) => T {
  const s = scope.getStore();
  // Already in that scope (the usual case, see above): run as it is, without entering it again.
  return (run) =>
    scope.getStore() === s ? run() : s === undefined ? scope.exit(run) : scope.run(s, run);
}

/** The agent whose call is running in this async context, if any. */
export function callingAgent(): string | undefined {
  return scope.getStore()?.agent;
}

/**
 * A notice of an agent's: a log line sent while serving one of its calls also names that call's
 * relay, so it can go on the call's own stream, before its answer (issue 28, item 2). The SDK
 * client runs notification handlers in the async context of the stream they came on.
 */
export function inCall(n: AgentNotice, agent: string): AgentNotice {
  const relay = scope.getStore()?.relay;
  return n.kind === 'log' && relay?.agent === agent
    ? { ...n, agent, call: relay }
    : { ...n, agent };
}

type AgentNotice = Extract<SourceNotice, { kind: 'log' | 'resource-updated' }>;

/** The stream-lost callback of the call whose request is being sent now, if any. */
export function streamLostHandler(): ((err: unknown) => void) | undefined {
  return scope.getStore()?.onStreamLost;
}

/**
 * The upstream client's handler for server→client requests of one server.
 * On an agent's own session (`agent` given) a request outside any call goes
 * to that agent's open Airlock session (`outOfCall`), and a call of another
 * agent can never be the scope. A URL-mode elicitation the agent accepted is
 * noted in `completions`, so the server's completion reaches that agent.
 */
export function relayHandler(
  server: string,
  o: {
    agent?: string;
    outOfCall?: () => ClientRelay | undefined;
    completions?: UrlCompletions;
    /** The user's per-server switch (settings `remotes[].relay`), read as each request arrives. */
    allowed?: () => boolean;
    /**
     * The connection's redactor (connection/redact.ts): the request's words are the server's,
     * and a credential it echoes in them must not reach the agent (issue 10).
     */
    redact?: <T extends object>(x: T) => T;
  } = {},
): (method: RelayMethod, params: Record<string, unknown>) => Promise<Record<string, unknown>> {
  const { agent, outOfCall, completions, allowed, redact } = o;
  return async (method, params) => {
    // Issue 27.3: the user turned this server's requests off; the server is told so, as an
    // unsupported method (-32601), before anything reaches an agent.
    if (allowed && !allowed())
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `Airlock did not relay ${method} from "${server}": relaying this server's requests is disabled by the user.`,
      );
    const found = scope.getStore();
    const fallback = agent !== undefined && !found ? outOfCall?.() : undefined;
    const s: Scope | undefined =
      found ??
      (fallback && {
        agent: fallback.agent,
        relay: fallback,
        signal: new AbortController().signal,
      });
    if (agent !== undefined && s && s.agent !== agent)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Airlock did not relay ${method} from "${server}": the request did not come from the agent's own session.`,
      );
    const refuse = (why: string) =>
      new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Airlock did not relay ${method} from "${server}": ${why}.`,
      );
    if (!s)
      throw refuse(
        'it arrived outside any call, and Airlock relays such requests only to the agent whose call caused them',
      );
    if (!s.relay)
      throw refuse(`the request of the agent "${s.agent}" that caused it is no longer open`);
    const why = s.relay.refusal(method, params);
    if (why) throw refuse(why);
    const shown = redact ? redact(params) : params;
    const answer = await s.relay.request({ method, params: shown, server, signal: s.signal });
    if (completions) noteUrlStep(completions, s.relay, method, params, answer);
    return answer;
  };
}

/** Notes a URL-mode elicitation the agent accepted to open, by the server's id for it. */
export function noteUrlStep(
  completions: UrlCompletions,
  relay: ClientRelay,
  method: RelayMethod,
  params: Record<string, unknown>,
  answer: Record<string, unknown>,
): void {
  if (
    method === 'elicitation/create' &&
    params.mode === 'url' &&
    typeof params.elicitationId === 'string' &&
    answer.action === 'accept'
  )
    completions.sent(params.elicitationId, relay);
}
