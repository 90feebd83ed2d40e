import {
  createMcpHandler,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type McpHttpHandler,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ClientRelay } from '../tools/relay.js';
import { BoundedJsonSchemaValidator } from '../tools/sdk-schema-validators.js';
import type { AgentFeatures, SessionSink } from './mcp-handlers/api.js';
import type { AgentToolCalls, McpEndpointOptions } from './endpoint-options.js';
import { LegacySessions } from './legacy-sessions.js';
import { ListenStreams } from './listen-streams.js';
import { ListenGate, PASSED } from './listen-gate.js';
import { registerFeatureHandlers } from './mcp-handlers/features.js';
import { InputRounds } from './mcp-handlers/input-rounds.js';
import { requestRelay, roundRelay, taskRelay } from './mcp-handlers/relay.js';
import { LoneLine, onLine, requestLog, RoundLine } from './mcp-handlers/round-line.js';
import type { CallOptions, CallToolResult, ProgressSink } from '../tools/types.js';
import { registerToolHandlers } from './mcp-handlers/tools.js';
import { registerTaskHandlers, TASKS_CAPABILITY } from './mcp-handlers/tasks.js';
import { LoneCallServer } from './mcp-handlers/lone-call.js';
import { AnswerableServer } from './mcp-handlers/answerable-server.js';
import { PlainCallServer } from './mcp-handlers/call-server.js';
import { TaskBoard } from './task-board.js';
import type { WithRelay } from './mcp-handlers/api.js';
import type { McpExchange } from './http-server.js';
import { serveWeb } from './web-bridge.js';
import { classify } from './inbound-route.js';
import { throwIfUrlRequired } from './mcp-handlers/url-required-error.js';
import { Escalated, type LoneCall, type LoneSteps } from './mcp-handlers/modern-lone-call.js';
import {
  clientView,
  hotModernRequest,
  ModernHotPath,
  MODERN_REVISION,
  ModernHotTransport,
} from './modern-hot.js';
import { RenewingSet } from '../platform/renewing-map.js';

export type { AgentFeatures, SessionSink };

/** Shared by every Server (per session, per request): it keeps only compiled schemas, per object. */
const SCHEMAS = new BoundedJsonSchemaValidator();

export type { AgentToolCalls, McpEndpointOptions };

/**
 * /mcp for both protocol eras (MCP spec, "Versioning" and "Transports"):
 * 2026-07-28 requests go to the SDK's per-request `createMcpHandler`; 2025
 * traffic keeps real sessions (initialize, Mcp-Session-Id, GET stream) on
 * SessionTransport, Node's own request and response (issue 20; the table is
 * legacy-sessions.ts), routed by the SDK's `classifyInboundRequest` — the
 * step behind its `isLegacyRequest` — as the SDK documents for sessionful
 * legacy serving.
 */
export class McpEndpoint {
  private readonly sessions: LegacySessions;
  private readonly modern: McpHttpHandler;
  private readonly listens: ListenStreams;
  private readonly hot: ModernHotPath;
  private readonly gate = new ListenGate();

  constructor(private readonly o: McpEndpointOptions) {
    this.listens = new ListenStreams(o.features, (err) =>
      o.logger.debug('mcp listen stream', { error: err.message }),
    );
    this.hot = new ModernHotPath(
      (agent, transport) => this.buildServer(agent, null, transport),
      (err) => o.logger.debug('mcp modern hot path', { error: err.message }),
      o.loneCalls !== false ? (agent, server) => this.loneSteps(agent, server) : undefined,
    );
    this.modern = createMcpHandler(
      (ctx) => {
        if (this.gate.stop(ctx.requestInfo)) throw PASSED;
        return this.buildServer(agentOf(ctx.authInfo), null);
      },
      {
        legacy: 'reject',
        maxRequestBodySize: o.maxBodyBytes,
        onerror: (err) => {
          if (err !== PASSED) o.logger.debug('mcp modern leg', { error: err.message });
        },
      },
    );
    this.sessions = new LegacySessions({
      features: o.features,
      buildServer: (agent, session) => this.buildServer(agent, session),
      ...(o.sessionIdleMs !== undefined ? { idleMs: o.sessionIdleMs } : {}),
      ...(o.budgets ? { budgets: o.budgets } : {}),
      ...(o.self ? { self: o.self } : {}),
      ...(o.loneCalls !== undefined ? { loneCalls: o.loneCalls } : {}),
    });
  }

  /** Agents with an open 2025-era session. */
  connectedAgents(): Set<string> {
    return this.sessions.agents();
  }

  /**
   * Not async (issue 34): a 2025 session's request and a connected agent's hot request are
   * dispatched in the caller's turn, without a promise per layer; what waits returns its promise.
   */
  handle(x: McpExchange): Promise<void> | void {
    // The agent's AuthInfo looked up in place; made by authOf on its first request.
    const authInfo = this.auth.get(x.agent) ?? this.authOf(x.agent);
    const outcome = classify(x.req, x.parsedBody);
    if (outcome.kind === 'legacy') return this.sessions.handle(x, authInfo);
    // Issue 34: an agent's everyday requests skip the per-request Server, Request and Response.
    if (this.o.hotPath !== false && hotModernRequest(x.req, outcome))
      return this.hot.serve(x.agent, outcome.message, outcome.classification, x.res, authInfo);
    // subscriptions/listen is served per agent (listen-streams.ts); the SDK's router is shared.
    const listen = x.req.method === 'POST' && ListenStreams.isListen(x.parsedBody);
    const entry = (request: Request) =>
      this.modern.fetch(request, { authInfo, parsedBody: x.parsedBody });
    return serveWeb(x.req, x.res, x.raw, x.parsedBody, (request) =>
      listen
        ? // The SDK's entry makes its checks first (listen-gate.ts).
          this.gate.check(request, entry, () =>
            this.listens.serve(x.agent, x.parsedBody, request.signal),
          )
        : entry(request),
    );
  }

  /**
   * The agent's AuthInfo, made once per agent and frozen, so no request can change what the next
   * one gets (issue 34: not three objects per request; nothing writes to it, and a write would
   * throw). Agents are few; revoking one drops its entry (closeSessionsOf).
   */
  private authOf(agent: string): AuthInfo {
    const auth: AuthInfo = Object.freeze({
      token: 'redacted',
      clientId: agent,
      scopes: Object.freeze([]) as unknown as string[],
      extra: Object.freeze({ agent }),
    });
    this.auth.set(agent, auth);
    return auth;
  }

  private readonly auth = new Map<string, AuthInfo>();

  /** Tells every connected client the tool set changed (some ignore it; names stay stable anyway). */
  toolsChanged(): void {
    this.listens.listChanged('toolsListChanged');
    for (const s of this.sessions.servers()) void s.sendToolListChanged().catch(() => {});
  }

  resourcesChanged(): void {
    this.listens.listChanged('resourcesListChanged');
    for (const s of this.sessions.servers()) void s.sendResourceListChanged().catch(() => {});
  }

  promptsChanged(): void {
    this.listens.listChanged('promptsListChanged');
    for (const s of this.sessions.servers()) void s.sendPromptListChanged().catch(() => {});
  }

  /**
   * A relay to the agent's most recent open tools/call, for calls the approval
   * engine runs after the user approved (their own request may still be open).
   */
  relayFor(agent: string): ClientRelay | undefined {
    const live = this.live.get(agent);
    return live ? [...live].at(-1) : undefined;
  }

  // Each agent's set renews itself every 64 calls: a long-lived Set's rehashes pinned the calls in
  // flight (issue 34, renewing-map.ts).
  private readonly live = new Map<string, RenewingSet<ClientRelay>>();

  /** The agents' task-augmented calls (2025 era), bound to the agent that made each. */
  private readonly tasks = new TaskBoard();

  async close(): Promise<void> {
    this.tasks.close();
    this.rounds.close();
    this.listens.close();
    await this.sessions.close();
    await this.hot.close();
    await this.modern.close();
  }

  /** Issue 17.8: revoking an agent ends its 2025-era sessions (legacy-sessions.ts) and its tasks. */
  closeSessionsOf(agent: string, graceMs = 2000): void {
    this.sessions.closeSessionsOf(agent, graceMs);
    this.listens.closeOf(agent);
    this.tasks.closeAgent(agent);
    this.hot.forget(agent);
    this.auth.delete(agent);
    // Its calls still open are no longer findable by relayFor: a new agent given the same name
    // (another token) must never have an approved call's relayed requests sent to the revoked
    // one's client (relay-revoke.review.test.ts). Each open call keeps its own relay and set, and
    // the revoked agent's approvals are withdrawn, so nothing of its own needs the lookup.
    this.live.delete(agent);
  }

  /**
   * One low-level server per session (2025, `session` gives its id) or per
   * request (2026, `session` null), or one per agent for its hot 2026 requests (`hot`,
   * modern-hot.ts); tools are dynamic, so no McpServer helpers. Handlers live in
   * mcp-handlers/, one file per concern.
   */
  private buildServer(
    agent: string,
    session: (() => string | undefined) | null,
    hot?: ModernHotTransport,
  ): Server {
    // Only 2025-era sessions take task-augmented calls (mcp-handlers/tasks.ts) and lone calls
    // (mcp-handlers/lone-call.ts); they and the hot path's server leave out the tools/call checks
    // that surely pass (mcp-handlers/call-server.ts).
    // Every one answers a handler's rejection with null or undefined (answerable-server.ts).
    const server = new (
      session !== null ? LoneCallServer : hot ? PlainCallServer : AnswerableServer
    )(
      { name: 'airlock', title: 'Airlock', version: this.o.version },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { listChanged: true, subscribe: true },
          prompts: { listChanged: true },
          completions: {},
          logging: {},
          // Tasks are a 2025-era core feature; 2026-07-28 moved them to an extension (tasks.ts).
          ...(session === null ? {} : { tasks: TASKS_CAPABILITY }),
        },
        // The hot path's server is bound to the modern revision when it connects (modern-hot.ts).
        ...(hot
          ? { supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION] }
          : {}),
        // Never the SDK's default (Ajv with backtracking RegExp) on a schema an upstream wrote: the
        // one it would check, an elicitation's requestedSchema in elicitInput, which Airlock does
        // not call today (relay.ts sends the upstream's request as is), gets Airlock's bounded one.
        jsonSchemaValidator: SCHEMAS,
        instructions:
          'Airlock gives you Gmail, Google Calendar and remote MCP tools, resources and prompts. Calls that send, create, change or delete ' +
          "wait for the user's approval; if a call answers that it is waiting, call it again with the same arguments.",
      },
    );
    const features = this.o.features;
    const withRelay: WithRelay =
      session === null
        ? (ctx, run, progress) => {
            // An everyday call the hot transport ran itself and escalated (modern-lone-call.ts).
            const preset = hot?.presetOf(ctx.mcpReq.id);
            if (preset) return preset as Promise<never>;
            const own = hot?.controllerOf(ctx.mcpReq.id);
            return this.modernRound(
              agent,
              hot ? clientView(server, ctx) : server,
              ctx,
              own?.signal ?? ctx.mcpReq.signal,
              run,
              own,
              progress,
            );
          }
        : (ctx, run, progress) =>
            this.tracked(agent, requestRelay(agent, server, ctx, features, this.o.self), (relay) =>
              run(relay, ctx.mcpReq.signal, progress),
            );
    const startTask =
      session === null
        ? undefined
        : registerTaskHandlers(server, agent, this.tasks, this.o.pipeline, (id, taskId, run) =>
            // Not findable by relayFor: every message on it names this task, so another call of
            // the agent's, approved with no call waiting on it, must not borrow it (its server's
            // elicitation would claim to be this task's). The task's own call gets it as it waits
            // (approvals/engine.ts).
            this.tracked(
              agent,
              taskRelay(agent, server, features, taskId, id, this.o.self),
              run,
              false,
            ),
          );
    registerToolHandlers(server, agent, this.o.pipeline, withRelay, startTask);
    // A 2025 session's lone call without URL elicitation: tools.ts's steps in one frame
    // (trackedCall), its relay made first, as withRelay above makes it before `tracked`.
    if (session !== null && server instanceof PlainCallServer)
      server.plainCall = (params, ctx) =>
        this.trackedCall(
          agent,
          requestRelay(agent, server, ctx, features, this.o.self),
          params.name,
          params.arguments,
          ctx.mcpReq.signal,
          false,
        );
    registerFeatureHandlers(
      server,
      agent,
      this.o.features,
      session ?? (() => undefined),
      withRelay,
    );
    return server;
  }

  /**
   * A 2026-07-28 request: a fresh one starts an input round, a retry that
   * echoes a requestState resumes it with the agent's inputResponses.
   */
  private modernRound<T>(
    agent: string,
    server: Server,
    ctx: ServerContext,
    signal: AbortSignal,
    run: (relay: ClientRelay, signal: AbortSignal, progress?: ProgressSink) => Promise<T>,
    /** The hot path's controller of `signal` (modern-hot.ts controllerOf), for the call's own. */
    own?: AbortController,
    /** This request's progress channel, where it carried a progressToken (agent-progress.ts). */
    progress?: ProgressSink,
  ): Promise<T> {
    const state = ctx.mcpReq.requestState<unknown>();
    // This request's own channels: the call's line to the agent (round-line.ts), moved to each
    // retry. Made only where there is something to carry (issue 34: most calls have neither).
    const log = requestLog(ctx);
    const here = progress || log ? { progress, ...log } : undefined;
    if (typeof state === 'string')
      return this.rounds.resume<T>(
        agent,
        state,
        ctx.mcpReq.inputResponses,
        signal,
        here,
      ) as Promise<T>;
    const line = here && new RoundLine(here);
    const answer = this.rounds.start<T>(
      agent,
      signal,
      (ask) => roundRelay(agent, server, this.o.features, this.o.self, undefined, ask),
      (relay, signal) =>
        this.tracked(agent, line ? onLine(relay, line) : relay, (r) =>
          run(r, signal, line && progress ? line.progress : undefined),
        ),
      own,
      line,
    );
    // input_required is a valid answer to tools/call, prompts/get and resources/read on this era.
    return answer as Promise<T>;
  }

  private readonly rounds = new InputRounds();

  /**
   * The steps an everyday 2026-07-28 tools/call runs on the hot path's lone path
   * (modern-lone-call.ts): what tools.ts's `call` and withRelay above run for a call without a
   * progress token or task — modernRound's fresh input round (its RoundLine and onLine, for a
   * request that named a log level, one LoneLine) on the request's own
   * controller, the relay tracked, `pipeline.call`, `throwIfUrlRequired`; for a client that
   * declared URL elicitation, inside approval-url.ts's choice (loneRound).
   */
  private loneSteps(agent: string, server: Server): LoneSteps {
    const waiting = (value: unknown) =>
      this.o.pipeline.waitingApproval?.(value as CallToolResult) ? new Escalated(value) : value;
    // The steps are loneRound itself, bound (issue 34: not a function more per call around it).
    return this.loneRound.bind(this, agent, server, waiting);
  }

  /*
   * loneSteps' round. For a client that declared URL elicitation (`noWait`): approval-url.ts's
   * choice as tools.ts's `call` makes it for a request without inputResponses (hotModernRequest
   * leaves a retry to the SDK): tried with noWait, and a "waiting for approval" answer — which
   * that choice would turn into an input_required one — escalated (Escalated) with that answer
   * preset, so the SDK's handler meets it in withRelay above, inside its own
   * callWithApprovalUrl, which makes the input_required answer itself. Every other value settles
   * as without it.
   */
  private loneRound(
    agent: string,
    server: Server,
    /** loneSteps' turn of a "waiting for approval" answer into an Escalated one (`noWait`). */
    waiting: (value: unknown) => unknown,
    call: LoneCall,
    own: AbortController,
    key: number,
  ): Promise<unknown> {
    const { features, self } = this.o;
    const noWait = call.url;
    // A request that named a log level: its relay and line are one LoneLine (round-line.ts).
    const line = call.level && new LoneLine(call.level, server, key);
    const answer = this.rounds.start(
      agent,
      own.signal,
      // The request's capabilities are its envelope's (`call.caps`), as clientView gives them.
      // Without a line, roundRelay itself, bound (issue 34: no function around it per call).
      line
        ? (ask) => line.over(roundRelay(agent, server, features, self, call, ask))
        : roundRelay.bind(undefined, agent, server, features, self, call),
      (relay, signal) => this.trackedCall(agent, relay, call.name, call.args, signal, noWait),
      own,
      line || undefined,
    );
    return noWait ? answer.then(waiting) : answer;
  }

  /**
   * The lone paths' steps of both eras (a 2025 session's plainCall, set in buildServer; the
   * 2026-07-28 loneRound): what tools.ts's `steps` runs for a call without a progress token —
   * the relay kept findable while the call is open (`tracked`), pipeline.call with tools.ts's
   * options for a first try, in its order, throwIfUrlRequired, the relay's done — in one async
   * frame (issue 34: not `tracked`, its callback and withRelay's closures per call).
   * lone-call.property.test.ts and modern-lone-call.property.test.ts hold both lone paths to
   * the SDK's.
   */
  private async trackedCall(
    agent: string,
    relay: ClientRelay,
    name: string,
    args: Record<string, unknown> | undefined,
    signal: AbortSignal,
    noWait: boolean,
  ): Promise<unknown> {
    let set = this.live.get(agent);
    if (!set) this.live.set(agent, (set = new RenewingSet()));
    set.add(relay);
    try {
      const opts: CallOptions = noWait ? { signal, relay, noWait } : { signal, relay };
      return throwIfUrlRequired(await this.o.pipeline.call(agent, name, args, opts), relay);
    } finally {
      relay.done?.();
      set.delete(relay);
    }
  }

  /** Keeps a request's relay findable (relayFor) while the request is open. */
  private async tracked<T>(
    agent: string,
    relay: ClientRelay,
    run: (relay: ClientRelay) => Promise<T>,
    /** Findable by relayFor while open; a task's relay is not (buildServer). */
    findable = true,
  ): Promise<T> {
    if (!findable)
      try {
        return await run(relay);
      } finally {
        relay.done?.();
      }
    // An agent's set stays once empty (issue 34: not a new Set and two map writes per call, one
    // after another); agents are few. Revoking one drops its set (closeSessionsOf): a call still
    // open then ends on the set it took here, which no lookup reaches any more.
    let set = this.live.get(agent);
    if (!set) this.live.set(agent, (set = new RenewingSet()));
    set.add(relay);
    try {
      return await run(relay);
    } finally {
      relay.done?.();
      set.delete(relay);
    }
  }
}

function agentOf(auth: AuthInfo | undefined): string {
  const agent = auth?.extra?.agent;
  if (typeof agent !== 'string') throw new Error('unauthenticated request reached the MCP handler');
  return agent;
}
