import type { Logger } from '../platform/log.js';
import type {
  CallToolResult,
  SourceState,
  ToolCallContext,
  ToolDefinition,
  ToolSource,
} from '../tools/types.js';
import { errorResult } from '../tools/types.js';
import type {
  CompleteRequestParams,
  CompleteResult,
  FeatureContext,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  SourceNotice,
} from '../tools/features.js';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { markUntrusted, toDefinition } from './untrusted.js';
import { listFeatures, NO_FEATURES, RemoteFeatures, type FeatureLists } from './remote-features.js';
import { inRelayScope, relayHandler } from './relay-scope.js';
import { AgentSessions } from './agent-sessions.js';
import { checkHealth } from './health.js';
import type { Tool } from '@modelcontextprotocol/client';
import type { ClientRelay } from '../tools/relay.js';

/** Bound on agents' own upstream sessions per server; the least recently used idle one closes first. */
const MAX_AGENT_SESSIONS = 16;
import {
  connectUpstream,
  describeFailure,
  httpStatusOf,
  isServerAnswer,
  isStaleSession,
  isTimeout,
  listAllTools,
  networkCode,
  type TransportKind,
  type Upstream,
} from './upstream.js';
import { Redactor } from './redact.js';
import { RefreshUnavailableError } from './oauth/errors.js';
import { DEFAULT_TIMINGS, type RemoteConnection, type RemoteTimings } from './timings.js';

export { DEFAULT_TIMINGS, type RemoteConnection, type RemoteTimings };

export interface RemoteSourceOptions {
  logger: Logger;
  version: string;
  timings?: Partial<RemoteTimings>;
}

class UpstreamLost extends Error {}

/**
 * One remote MCP server as a ToolSource (issue 4). Connects in the
 * background; its tools appear once listed and disappear while it is down,
 * with the reason in status(). A new connection (reconnect, refresh, edited
 * URL or token) is built while the old one keeps serving, then swapped in.
 */
export class RemoteSource implements ToolSource {
  readonly kind = 'remote' as const;
  readonly id: string;
  readonly label: string;
  readonly prefix: string;
  private conn: RemoteConnection;
  private readonly t: RemoteTimings;
  private readonly redactor = new Redactor();
  private state: SourceState = { state: 'loading' };
  private defs: readonly ToolDefinition[] = [];
  private lists: FeatureLists = NO_FEATURES;
  private readonly features: RemoteFeatures;
  private readonly sessions: AgentSessions;
  private sessionRelays: (agent: string) => ClientRelay | undefined = () => undefined;
  private up: Upstream | null = null;
  private gen = 0;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private checking = false;
  private stopped = false;
  private readonly listeners = new Set<() => void>();
  private readonly inflight = new Map<AbortController, Upstream>();
  private readonly retiring = new Set<Upstream>();
  private readonly first: Promise<void>;
  private settleFirst!: () => void;
  private firstDone = false;

  constructor(
    conn: RemoteConnection,
    private readonly o: RemoteSourceOptions,
  ) {
    this.id = `remote:${conn.name}`;
    this.label = conn.name;
    this.prefix = conn.name;
    this.conn = conn;
    this.redactor.set(Object.values(conn.headers));
    this.t = { ...DEFAULT_TIMINGS, ...o.timings };
    this.features = new RemoteFeatures(conn.name, this.t.callIdleMs, o.logger);
    this.sessions = new AgentSessions((agent) => this.connectFor(agent), MAX_AGENT_SESSIONS);
    this.first = new Promise<void>((resolve) => (this.settleFirst = resolve)).then(
      () => void (this.firstDone = true),
    );
  }

  start(): void {
    void this.reconnect();
  }

  /** Applies an edited URL or secret; the old connection serves until the new one is up. */
  reconfigure(conn: RemoteConnection): Promise<void> {
    this.conn = conn;
    this.redactor.set(Object.values(conn.headers));
    this.failures = 0;
    return this.reconnect();
  }

  /** A fresh connection (new session, fresh tool list) now. */
  reconnect(): Promise<void> {
    clearTimeout(this.retryTimer);
    if (this.stopped) return Promise.resolve();
    const gen = ++this.gen;
    const run = this.attempt(gen);
    this.connecting = run;
    void run.finally(() => {
      if (this.connecting === run) this.connecting = null;
    });
    return run;
  }

  /** Bounded wait for the first connection attempt (the registry's readiness gate). */
  ready(): Promise<void> {
    // The registry asks on every call; after the first attempt this is an already-settled promise.
    if (this.firstDone) return this.first;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.t.readyMs);
      timer.unref();
    });
    return Promise.race([this.first, cap]).finally(() => clearTimeout(timer));
  }

  /** Resolves when the first connection attempt has finished, whatever its outcome. */
  settled(): Promise<void> {
    return this.first;
  }
  status(): SourceState {
    return this.state;
  }
  tools(): readonly ToolDefinition[] {
    return this.state.state === 'ready' ? this.defs : [];
  }
  resources(): readonly Resource[] {
    return this.state.state === 'ready' ? this.lists.resources : [];
  }
  resourceTemplates(): readonly ResourceTemplate[] {
    return this.state.state === 'ready' ? this.lists.templates : [];
  }
  prompts(): readonly Prompt[] {
    return this.state.state === 'ready' ? this.lists.prompts : [];
  }
  readResource(uri: string, ctx: FeatureContext): Promise<ReadResourceResult> {
    return this.onUp(ctx.agent, (up) => this.features.readResource(up, uri, ctx));
  }
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    ctx: FeatureContext,
  ): Promise<GetPromptResult> {
    return this.onUp(ctx.agent, (up) => this.features.getPrompt(up, name, args, ctx));
  }
  complete(params: CompleteRequestParams, ctx: FeatureContext): Promise<CompleteResult> {
    return this.onUp(ctx.agent, (up) => this.features.complete(up, params, ctx));
  }
  /** Levels and subscriptions live on the agent's own session; a stateless server has none to keep. */
  async setLogLevel(agent: string, level: LoggingLevel | null): Promise<void> {
    const up = this.up && this.stateful(this.up) ? await this.agentUp(agent, false) : null;
    await this.features.setLogLevel(agent, up, level);
  }
  async setSubscriptions(agent: string, uris: ReadonlySet<string>): Promise<void> {
    const up = this.up && this.stateful(this.up) ? await this.agentUp(agent, uris.size > 0) : null;
    await this.features.setSubscriptions(agent, up, uris);
  }
  async releaseAgent(agent: string): Promise<void> {
    this.features.forget(agent);
    await this.sessions.release(agent);
  }
  /** Agents with their own upstream session open (issue 14, item 4). */
  agentSessions(): string[] {
    return this.sessions.agents();
  }
  setSessionRelays(lookup: (agent: string) => ClientRelay | undefined): void {
    this.sessionRelays = lookup;
  }
  onNotice(listener: (n: SourceNotice) => void): () => void {
    return this.features.onNotice(listener);
  }

  /** Runs a read-only request on the current session; its failures become protocol errors naming the server. */
  private async onUp<T extends object>(
    agent: string,
    run: (up: Upstream) => Promise<T>,
  ): Promise<T> {
    if (this.state.state !== 'ready' && this.connecting) await this.connecting;
    const up = this.state.state === 'ready' ? await this.upFor(agent).catch(() => null) : null;
    if (!up || this.state.state !== 'ready') {
      const why = this.state.state === 'error' ? this.state.detail : 'still connecting';
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        this.redactor.text(
          `The remote server "${this.label}" is unavailable (${why}); nothing was sent.`,
        ),
      );
    }
    try {
      return this.redactor.result(await run(up));
    } catch (err) {
      if (err instanceof ProtocolError)
        throw new ProtocolError(err.code, this.redactor.text(err.message), err.data);
      if (up !== this.up) void this.sessions.drop(up);
      if (networkCode(err) && this.up) this.trouble(this.gen, this.up, err as Error);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        this.redactor.text(`The remote server "${this.label}" failed: ${this.describe(err)}`),
      );
    }
  }

  info(): { transport?: TransportKind; protocolVersion?: string } {
    const up = this.up;
    return up
      ? {
          transport: up.transport,
          ...(up.protocolVersion ? { protocolVersion: up.protocolVersion } : {}),
        }
      : {};
  }
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ): Promise<CallToolResult> {
    if (this.state.state !== 'ready' && this.connecting) await this.connecting;
    for (let attempt = 0; ; attempt++) {
      const up =
        this.state.state === 'ready' ? await this.upFor(ctx.agent).catch(() => null) : null;
      if (!up || this.state.state !== 'ready') {
        const why = this.state.state === 'error' ? this.state.detail : 'still connecting';
        return errorResult(
          this.redactor.text(
            `The remote server "${this.label}" is unavailable (${why}); nothing was sent.`,
          ),
        );
      }
      const lost = new AbortController();
      this.inflight.set(lost, up);
      const hadSession = up.hasSession();
      try {
        const scope = {
          agent: ctx.agent,
          signal: ctx.signal,
          ...(ctx.relay ? { relay: ctx.relay } : {}),
          onStreamLost: (err: unknown) =>
            lost.abort(new UpstreamLost(`its response stream broke: ${describeFailure(err)}`)),
        };
        const result = await inRelayScope(scope, () =>
          up.client.callTool(
            { name: tool, arguments: args },
            {
              // Aborting sends notifications/cancelled upstream (2025) or closes the request stream (2026).
              signal: AbortSignal.any([ctx.signal, lost.signal]),
              timeout: this.t.callIdleMs,
              resetTimeoutOnProgress: true,
              maxTotalTimeout: this.t.callMaxMs,
              ...(ctx.progress
                ? {
                    onprogress: (p: { progress: number; total?: number; message?: string }) =>
                      ctx.progress?.(p.progress, p.total, p.message),
                  }
                : {}),
            },
          ),
        );
        this.syncSecrets();
        return this.redactor.result(markUntrusted(result as CallToolResult, this.label));
      } catch (err) {
        if (lost.signal.aborted)
          return this.lostDuringCall(
            lost.signal.reason instanceof UpstreamLost
              ? lost.signal.reason.message
              : 'connection lost',
          );
        if (ctx.signal.aborted) return this.fault(`The call to "${this.label}" was cancelled.`);
        if (attempt === 0 && isStaleSession(err, hadSession)) {
          // The server forgot our session (it restarted): it refused the request unprocessed, so one retry on a new session is safe.
          await this.replace(up);
          continue;
        }
        if (this.conn.auth?.needsSignIn(err)) {
          // 401/403 from the server, or no usable token: the server did not run the call (issue 10).
          this.fail(err);
          return this.fault(
            `The remote server "${this.label}" refused the call: ${this.describe(err)}. The call was not run. ` +
              `Ask the user to sign in again from Airlock's Servers page or with "airlock remote login ${this.label}".`,
          );
        }
        if (err instanceof RefreshUnavailableError)
          return this.fault(
            `The remote server "${this.label}" is unavailable: ${err.message}; nothing was sent.`,
          );
        if (isTimeout(err))
          return this.fault(
            `The remote server "${this.label}" did not answer in time; it may still be working on the call.`,
          );
        if (isServerAnswer(err))
          return this.fault(
            `The remote server "${this.label}" answered with an error: ${(err as Error).message}`,
          );
        if (networkCode(err)) {
          if (up !== this.up) void this.sessions.drop(up);
          if (this.up) this.trouble(this.gen, this.up, err as Error);
          return this.lostDuringCall(describeFailure(err));
        }
        return this.fault(
          `The remote server "${this.label}" failed: ${describeFailure(err)}. The call may or may not have reached it.`,
        );
      } finally {
        this.inflight.delete(lost);
        this.closeIfRetired(up);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.gen++;
    clearTimeout(this.retryTimer);
    clearTimeout(this.healthTimer);
    this.settleFirst();
    for (const [ac] of this.inflight)
      ac.abort(new UpstreamLost('Airlock removed or stopped this server'));
    const all = [this.up, ...this.retiring].filter((u): u is Upstream => u !== null);
    this.up = null;
    this.retiring.clear();
    await Promise.all([...all.map((u) => u.close()), this.sessions.closeAll()]);
  }

  private async attempt(gen: number): Promise<void> {
    const holder: { up?: Upstream } = {};
    try {
      const up = await connectUpstream({
        url: new URL(this.conn.url),
        headers: this.conn.headers,
        timeoutMs: this.t.connectMs,
        clientVersion: this.o.version,
        onToolsChanged: () => {
          if (holder.up) void this.refreshTools(gen, holder.up);
        },
        onNotice: (n) => {
          if (holder.up) this.upstreamNotice(gen, holder.up, n);
        },
        onRelay: relayHandler(this.label),
        onError: (err) => {
          if (holder.up) this.trouble(gen, holder.up, err);
        },
        onClose: () => {
          if (holder.up && gen === this.gen && this.up === holder.up)
            this.fail(new Error('connection closed'));
        },
        ...(this.conn.auth ? { authProvider: this.conn.auth } : {}),
      });
      holder.up = up;
      const [tools, lists] = await Promise.all([
        listAllTools(up, this.t.listMs),
        listFeatures(up, this.t.listMs),
      ]);
      if (gen !== this.gen) return void (await up.close());
      const old = this.up;
      this.up = up;
      this.defs = dedupe(tools.map(toDefinition));
      this.lists = lists;
      // Agents' sessions belonged to the old connection; they reopen on each agent's next request.
      if (old && old !== up) void this.sessions.closeAll();
      this.state = { state: 'ready' };
      this.failures = 0;
      this.conn.auth?.connected();
      this.o.logger.info('remote server connected', {
        server: this.label,
        transport: up.transport,
        protocolVersion: up.protocolVersion,
        tools: this.defs.length,
      });
      this.emit();
      this.scheduleHealth();
      if (old && old !== up) this.retire(old);
    } catch (err) {
      await holder.up?.close();
      if (gen === this.gen) this.fail(err);
    } finally {
      if (gen === this.gen) this.settleFirst();
    }
  }

  private async refreshTools(gen: number, up: Upstream): Promise<void> {
    if (gen !== this.gen || this.up !== up) return;
    try {
      this.updateTools(gen, up, await listAllTools(up, this.t.listMs));
    } catch (err) {
      this.trouble(gen, up, err as Error);
    }
  }

  /** A stateful server keeps per-session state, so each agent gets its own session (issue 14, item 4). */
  private stateful(up: Upstream): boolean {
    return up.transport === 'sse' || up.hasSession();
  }

  /** The session an agent's request runs on: its own for a stateful server, else the shared one. */
  private async upFor(agent: string): Promise<Upstream> {
    const shared = this.up;
    if (!shared || !this.stateful(shared)) {
      if (!shared) throw new Error('not connected');
      return shared;
    }
    return this.sessions.get(agent);
  }

  /** The agent's own session when one is open (or `open` asks for one). */
  private async agentUp(agent: string, open: boolean): Promise<Upstream | null> {
    if (!open && !this.sessions.agents().includes(agent)) return null;
    return this.sessions.get(agent).catch(() => null);
  }

  /** Opens an agent's own session on the current connection's transport, with the agent's state. */
  private async connectFor(agent: string): Promise<Upstream> {
    const shared = this.up;
    const holder: { up?: Upstream } = {};
    const up = await connectUpstream({
      url: new URL(this.conn.url),
      headers: this.conn.headers,
      timeoutMs: this.t.connectMs,
      clientVersion: this.o.version,
      ...(shared ? { only: shared.transport } : {}),
      onNotice: (n) => {
        if (n.kind === 'log' || n.kind === 'resource-updated')
          this.features.notice({ ...n, agent });
      },
      onRelay: relayHandler(this.label, agent, () => this.sessionRelays(agent)),
      onClose: () => {
        if (holder.up) void this.sessions.drop(holder.up);
      },
      ...(this.conn.auth ? { authProvider: this.conn.auth } : {}),
    });
    holder.up = up;
    await this.features.restore(agent, up);
    return up;
  }

  /** Log lines and updates go to agents; changed lists are re-read first, then announced. */
  private upstreamNotice(gen: number, up: Upstream, n: SourceNotice): void {
    if (gen !== this.gen || this.up !== up) return;
    if (n.kind !== 'resources-changed' && n.kind !== 'prompts-changed')
      return this.features.notice(n);
    void listFeatures(up, this.t.listMs).then(
      (lists) => {
        if (gen !== this.gen || this.up !== up) return;
        this.lists = lists;
        this.features.notice(n);
        this.emit();
      },
      (err: unknown) => this.trouble(gen, up, err as Error),
    );
  }

  /** A stream dropped or a request failed at the network level: ping to tell "restarted" from "down". */
  private trouble(gen: number, up: Upstream, cause: Error): void {
    if (gen !== this.gen || this.up !== up || this.checking || this.stopped) return;
    this.checking = true;
    this.o.logger.debug('remote server stream trouble', {
      server: this.label,
      error: this.redactor.text(cause.message),
    });
    void checkHealth(up, this.t.healthMs)
      .then(
        (tools) => {
          if (tools) this.updateTools(gen, up, tools);
          // Alive. If the transport gave up re-opening its notification stream, a new session restores it.
          if (/Maximum reconnection attempts/i.test(cause.message) && this.up === up)
            void this.replace(up);
        },
        (err: unknown) => {
          if (gen !== this.gen || this.up !== up || isServerAnswer(err)) return;
          if (isStaleSession(err, up.hasSession())) return void this.replace(up);
          this.fail(err);
        },
      )
      .finally(() => (this.checking = false));
  }

  /**
   * A periodic check while connected (issue 14, item 5): a server that died
   * while idle is noticed within one interval plus the health bound even
   * when no stream exists to drop (2026-07-28), and on that era a changed
   * tool list is picked up without `refresh`.
   */
  private scheduleHealth(): void {
    clearTimeout(this.healthTimer);
    if (this.stopped || !this.t.healthIntervalMs) return;
    this.healthTimer = setTimeout(() => {
      const up = this.up;
      if (up && this.state.state === 'ready')
        this.trouble(this.gen, up, new Error('periodic health check'));
      this.scheduleHealth();
    }, this.t.healthIntervalMs);
    this.healthTimer.unref();
  }

  private updateTools(gen: number, up: Upstream, tools: Tool[]): void {
    if (gen !== this.gen || this.up !== up) return;
    const defs = dedupe(tools.map(toDefinition));
    if (JSON.stringify(defs) === JSON.stringify(this.defs)) return;
    this.defs = defs;
    this.emit();
  }

  /** Swaps in a new session; calls still running on the old one cannot finish there. */
  private async replace(up: Upstream): Promise<void> {
    if (this.up !== up && this.up) {
      // An agent's own session went stale; the shared one may have too (the server restarted).
      await this.sessions.drop(up);
      return this.replace(this.up);
    }
    if (this.up === up) {
      this.abortOn(up, 'the server restarted and forgot the session');
      await this.reconnect();
    } else if (this.connecting) {
      await this.connecting;
    }
  }

  private fail(err: unknown): void {
    this.conn.auth?.observe(err);
    this.syncSecrets();
    const detail = this.redactor.text(this.describe(err));
    const old = this.up;
    this.up = null;
    this.defs = [];
    this.lists = NO_FEATURES;
    this.state = { state: 'error', detail };
    if (old) {
      this.abortOn(old, detail);
      void old.close();
    }
    // Every agent's own session goes with the server; they reopen on the next request.
    for (const [ac, u] of this.inflight) if (u !== old) ac.abort(new UpstreamLost(detail));
    void this.sessions.closeAll();
    this.o.logger.warn('remote server unavailable', { server: this.label, detail });
    this.emit();
    // Only a sign-in helps; the sign-in reconnects (RemoteManager.refresh).
    if (this.conn.auth?.needsSignIn(err)) return clearTimeout(this.retryTimer);
    this.scheduleRetry(httpStatusOf(err));
  }

  /** Status text: an OAuth connection's sign-in errors read "sign-in required…". */
  private describe(err: unknown): string {
    return this.conn.auth?.describe(err) ?? describeFailure(err);
  }

  /** Token values change on every refresh; the redactor follows them. */
  private syncSecrets(): void {
    if (this.conn.auth)
      this.redactor.set([...Object.values(this.conn.headers), ...this.conn.auth.secrets()]);
  }

  private scheduleRetry(status: number | undefined): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    // Exponential backoff with jitter; a credential problem will not fix itself quickly.
    const base =
      status === 401 || status === 403
        ? this.t.backoffMaxMs
        : Math.min(this.t.backoffInitialMs * 2 ** this.failures, this.t.backoffMaxMs);
    this.failures++;
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.retryTimer = setTimeout(() => void this.reconnect(), delay);
    this.retryTimer.unref();
  }

  private abortOn(up: Upstream, why: string): void {
    for (const [ac, u] of this.inflight) if (u === up) ac.abort(new UpstreamLost(why));
  }

  private retire(old: Upstream): void {
    this.retiring.add(old);
    this.closeIfRetired(old);
  }

  private closeIfRetired(up: Upstream): void {
    if (!this.retiring.has(up) || [...this.inflight.values()].includes(up)) return;
    this.retiring.delete(up);
    void up.close();
  }

  private lostDuringCall(why: string): CallToolResult {
    return this.fault(
      `The remote server "${this.label}" became unreachable during the call (${why}). It may or may not have completed the call; check before trying again.`,
    );
  }

  private fault(text: string): CallToolResult {
    this.syncSecrets();
    return errorResult(this.redactor.text(text));
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

/** Tool names must be unique within a source; a server listing one twice keeps the first. */
function dedupe(defs: ToolDefinition[]): ToolDefinition[] {
  const seen = new Set<string>();
  return defs.filter((d) => !seen.has(d.name) && seen.add(d.name));
}
