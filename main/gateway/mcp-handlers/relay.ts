import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import {
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { labelRelayed, type RelaySelf } from '../../tools/relay-label.js';
import { RelayLedger } from './relay-ledger.js';
import { relatedTo } from './related-task.js';
import {
  capabilityRefusal,
  type ClientRelay,
  type RelayCapabilities,
  type RelayedLog,
  type RelayRequest,
} from '../../tools/relay.js';
import type { AgentFeatures } from './api.js';

/**
 * A relay to the agent behind one live request (issue 14, item 2): the
 * upstream's sampling, elicitation or roots request goes out on this agent's
 * own request stream (2025 era, related to the request that caused it) and
 * nowhere else. The agent's declared capabilities decide; an agent without
 * them gets the upstream a clear refusal instead.
 */
export function requestRelay(
  agent: string,
  server: Server,
  ctx: ServerContext,
  features: AgentFeatures,
  self?: RelaySelf,
): ClientRelay {
  const session = ctx.sessionId;
  return relayVia(
    agent,
    server,
    features,
    (req, options) => ctx.mcpReq.send({ method: req.method, params: req.params }, options),
    true,
    self,
    'request',
    // Made with the relay, not copied into a second object after it (issue 34: one per call).
    session === undefined
      ? undefined
      : {
          session,
          // A log line the upstream sent while serving this request goes on its stream, before
          // its answer (issue 28, item 2): on the GET stream the agent could read it after the
          // answer.
          log: (params: RelayedLog) =>
            ctx.mcpReq.notify({ method: 'notifications/message', params }),
        },
  );
}

/**
 * A relay for a 2026-07-28 agent: requests join the call's input_required round (input-rounds.ts).
 * Its server lives for one request, so nothing can reach the agent after the call: a URL
 * elicitation's completion is not passed on.
 */
export function roundRelay(
  agent: string,
  server: Server,
  features: AgentFeatures,
  self: RelaySelf | undefined,
  /**
   * The request's own client capabilities (its envelope's), read in place of the server's: the
   * hot path's lone call passes its LoneCall (issue 34: not a view of the shared server made per
   * call, modern-hot.ts clientViewOf, for a check that runs only when something is relayed).
   */
  client: { caps: unknown } | undefined,
  /** Last, so that a lone call's round takes this function bound as its `relayFor` (issue 34). */
  ask: (req: RelayRequest) => Promise<Record<string, unknown>>,
): ClientRelay {
  return relayVia(
    agent,
    server,
    features,
    // `ask` itself: it takes the request alone (issue 34: not a function around it per call).
    ask,
    false,
    self,
    'request',
    undefined,
    client,
  );
}

/**
 * A relay for a 2025 agent's task (tasks.ts): the task outlives the tools/call that created it,
 * answered at once, so what the upstream asks or logs while the task runs goes on the agent's
 * session (its GET stream, where notifications/tasks/status go too), each message tied to the task
 * by Airlock's own task id (related-task.ts), after the upstream's `_meta` was filtered
 * (labelRelayed, noticeMeta).
 */
export function taskRelay(
  agent: string,
  server: Server,
  features: AgentFeatures,
  taskId: string,
  session: string,
  self?: RelaySelf,
): ClientRelay {
  return relayVia(
    agent,
    server,
    features,
    (req, options) =>
      server.request({ method: req.method, params: relatedTo(req.params, taskId) }, options),
    true,
    self,
    'request',
    {
      session,
      log: (params: RelayedLog) =>
        server.notification({ method: 'notifications/message', params: relatedTo(params, taskId) }),
    },
  );
}

/** A relay over a 2025 session's own stream (requests outside any call, e.g. roots/list). */
export function sessionRelay(
  agent: string,
  server: Server,
  features: AgentFeatures,
  self?: RelaySelf,
): ClientRelay {
  return relayVia(
    agent,
    server,
    features,
    (req, options) => server.request({ method: req.method, params: req.params }, options),
    true,
    self,
    'session',
  );
}

type Send = (
  req: RelayRequest,
  options: { signal?: AbortSignal; timeout: number },
) => Promise<unknown>;

function relayVia(
  agent: string,
  server: Server,
  features: AgentFeatures,
  send: Send,
  /** The agent's 2025 session outlives the request: a notification can follow later. */
  session: boolean,
  self: RelaySelf | undefined,
  /** One agent request's relay, or a session's for requests outside any call (relay-ledger.ts). */
  scope: 'request' | 'session',
  /** A 2025 session's request: its session and its own log channel. */
  own?: Pick<ClientRelay, 'session' | 'log'>,
  /** The request's client capabilities, where they are not the server's (roundRelay). */
  client?: { caps: unknown },
): ClientRelay {
  // Made on the first relayed request: most calls relay none, and an unused ledger has nothing to
  // flush (issue 34: two Maps and an object per call, for nothing).
  // `done` (the ledger's flush) is set with the ledger: a call that relayed nothing has none to
  // run (issue 34: not a closure made and called per call). Its wrappers read it when they are
  // done (round-line.ts onLine, LoneLine), never copy it.
  let books: RelayLedger | undefined;
  const ledger = () => {
    if (books) return books;
    const made = (books = new RelayLedger(agent, features, scope));
    (relay as { done?: () => void }).done = () => made.flush();
    return made;
  };
  const relay: ClientRelay = {
    agent,
    // MCP 2025-11-25 client/elicitation: the completion goes to the client that was sent the
    // URL, as a notification outside any request (the session's GET stream).
    elicitationComplete: session ? (COMPLETERS.get(server) ?? completer(server)) : undefined,
    self,
    refusal(method, params) {
      const caps = (client ? client.caps : server.getClientCapabilities()) as
        RelayCapabilities | undefined;
      return capabilityRefusal(caps, method, params, agent);
    },
    done: undefined,
    // Undefined where there is none, which readers take as absent (url-required-error.ts,
    // feature-sessions.ts).
    session: own?.session,
    log: own?.log,
    async request(asked: RelayRequest) {
      const started = Date.now();
      // Issue 27.3: whatever reaches the agent's app names its server, on this one path.
      const labelled = labelRelayed(asked, self);
      const req = 'params' in labelled ? { ...asked, params: labelled.params } : asked;
      const refuse = (code: ProtocolErrorCode, why: string) =>
        new ProtocolError(
          code,
          `Airlock did not relay ${asked.method} from "${asked.server}": ${why}.`,
        );
      let admitted = false;
      try {
        // Issue 27.7: a bounded number per agent request (relay-ledger.ts).
        const over = ledger().admit(asked);
        if (over) throw refuse(ProtocolErrorCode.InvalidRequest, over);
        admitted = true;
        if ('refusal' in labelled) throw refuse(ProtocolErrorCode.InvalidParams, labelled.refusal);
        const result = (await send(req, {
          ...(req.signal ? { signal: req.signal } : {}),
          timeout: 10 * 60_000,
        })) as Record<string, unknown>;
        ledger().record({
          server: req.server,
          method: req.method,
          started,
          outcome: 'ok',
          ...(typeof result.action === 'string' ? { detail: `action: ${result.action}` } : {}),
        });
        return result;
      } catch (err) {
        ledger().record({
          server: req.server,
          method: req.method,
          started,
          outcome: 'error',
          detail: err instanceof Error ? textPrefix(err.message, 200, codeUnits) : String(err),
        });
        throw err;
      } finally {
        if (admitted) ledger().release();
      }
    },
  };
  return relay;
}

type Completer = (elicitationId: string, meta?: Record<string, unknown>) => void;

/** Each server's completer, made on its first relay (issue 34: not a closure per call). */
const COMPLETERS = new WeakMap<Server, Completer>();

/**
 * Made outside relayVia so that the function holds the session's server only: it is kept while
 * the URL step is open (url-completions.ts), and a closure made inside would keep the call's
 * whole context (its request, its arguments) alive with it. One per server (COMPLETERS): it
 * holds nothing of any one call.
 */
function completer(server: Server): Completer {
  const made: Completer = (elicitationId, meta) => completeOn(server, elicitationId, meta);
  COMPLETERS.set(server, made);
  return made;
}

/** ElicitationCompleteNotificationParams: the id and the server's `_meta` (already filtered). */
function completeOn(server: Server, elicitationId: string, meta?: Record<string, unknown>): void {
  const caps = server.getClientCapabilities() as RelayCapabilities | undefined;
  if (!caps?.elicitation?.url) return;
  void server
    .notification({
      method: 'notifications/elicitation/complete',
      params: { elicitationId, ...(meta ? { _meta: meta } : {}) },
    })
    .catch(() => {});
}
