import type { Tool } from '@modelcontextprotocol/client';
import type { Logger } from '../platform/log.js';
import type { SourceNotice } from '../tools/features.js';
import type { ClientRelay } from '../tools/relay.js';
import type { SourceState, ToolDefinition } from '../tools/types.js';
import type { AgentSessions } from './agent-sessions.js';
import { AgentUpstreams } from './agent-upstreams.js';
import { retryDelay } from './backoff.js';
import { HealthWatch } from './health.js';
import { Redactor } from './redact.js';
import { callingAgent, relayHandler } from './relay-scope.js';
import { listFeatures, NO_FEATURES, RemoteFeatures, type FeatureLists } from './remote-features.js';
import { DEFAULT_TIMINGS, type RemoteConnection, type RemoteTimings } from './timings.js';
import { toDefinition } from './untrusted.js';
import { UrlCompletions } from './url-completions.js';
import {
  connectUpstream,
  describeFailure,
  httpStatusOf,
  listAllTools,
  networkCode,
  type TransportKind,
  type Upstream,
} from './upstream.js';

export { DEFAULT_TIMINGS, type RemoteConnection, type RemoteTimings };

export interface RemoteSourceOptions {
  logger: Logger;
  version: string;
  timings?: Partial<RemoteTimings>;
}

/** Why a call was cut off by Airlock (server down, session forgotten, stream broken). */
export class UpstreamLost extends Error {}

/**
 * The connection side of one remote MCP server (issue 4, issue 14): connect
 * in the background, health checks, failure and backoff, swapping in a new
 * connection while the old one serves, and each agent's own upstream session
 * for stateful servers. RemoteSource (remote-source.ts) puts the ToolSource
 * face on it: tools, resources, prompts, calls.
 */
export abstract class RemoteConnectionBase {
  readonly kind = 'remote' as const;
  readonly id: string;
  readonly label: string;
  readonly prefix: string;
  protected conn: RemoteConnection;
  protected readonly t: RemoteTimings;
  protected readonly redactor = new Redactor();
  /** URL-mode elicitations of this server shown to agents, for its completions (url-completions.ts). */
  protected readonly completions = new UrlCompletions();
  protected state: SourceState = { state: 'loading' };
  protected defs: readonly ToolDefinition[] = [];
  protected lists: FeatureLists = NO_FEATURES;
  protected readonly features: RemoteFeatures;
  protected readonly sessions: AgentSessions;
  private readonly agentUps: AgentUpstreams;
  private readonly health: HealthWatch;
  protected sessionRelays: (agent: string) => ClientRelay | undefined = () => undefined;
  protected up: Upstream | null = null;
  protected gen = 0;
  protected connecting: Promise<void> | null = null;
  protected retryTimer: NodeJS.Timeout | undefined;
  protected failures = 0;
  protected stopped = false;
  protected readonly listeners = new Set<() => void>();
  protected readonly inflight = new Map<AbortController, Upstream>();
  protected readonly retiring = new Set<Upstream>();
  protected readonly first: Promise<void>;
  protected settleFirst!: () => void;
  protected firstDone = false;

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
    this.agentUps = new AgentUpstreams({
      label: this.label,
      version: o.version,
      t: this.t,
      features: this.features,
      conn: () => this.conn,
      shared: () => this.up,
      relays: (agent) => this.sessionRelays(agent),
      completions: this.completions,
    });
    this.sessions = this.agentUps.sessions;
    this.health = new HealthWatch(
      {
        label: this.label,
        gen: () => this.gen,
        up: () => this.up,
        ready: () => this.state.state === 'ready',
        stopped: () => this.stopped,
        updateTools: (gen, up, tools) => this.updateTools(gen, up, tools),
        replace: (up) => this.replace(up),
        fail: (err) => this.fail(err),
        redact: (text) => this.redactor.text(text),
      },
      this.t,
      o.logger,
    );
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

  async stop(): Promise<void> {
    this.stopped = true;
    this.gen++;
    clearTimeout(this.retryTimer);
    this.health.stop();
    this.settleFirst();
    for (const [ac] of this.inflight)
      ac.abort(new UpstreamLost('Airlock removed or stopped this server'));
    const all = [this.up, ...this.retiring].filter((u): u is Upstream => u !== null);
    this.up = null;
    this.retiring.clear();
    await Promise.all([...all.map((u) => u.close()), this.sessions.closeAll()]);
  }

  protected async attempt(gen: number): Promise<void> {
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
        onRelay: relayHandler(this.label, { completions: this.completions }),
        onElicitationComplete: (id) => this.completions.complete(id),
        onError: (err) => {
          if (holder.up) this.trouble(gen, holder.up, err);
        },
        onClose: () => {
          if (holder.up && gen === this.gen && this.up === holder.up)
            this.fail(new Error('connection closed'));
        },
        ...(this.conn.auth ? { authProvider: this.conn.auth } : {}),
        ...(this.conn.stdio ? { stdio: this.conn.stdio } : {}),
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
      this.health.schedule();
      if (old && old !== up) this.retire(old);
    } catch (err) {
      await holder.up?.close();
      if (gen === this.gen) this.fail(err);
    } finally {
      if (gen === this.gen) this.settleFirst();
    }
  }

  protected async refreshTools(gen: number, up: Upstream): Promise<void> {
    if (gen !== this.gen || this.up !== up) return;
    try {
      this.updateTools(gen, up, await listAllTools(up, this.t.listMs));
    } catch (err) {
      this.trouble(gen, up, err as Error);
    }
  }

  /** A stateful server keeps per-session state, so each agent gets its own session (agent-upstreams.ts). */
  protected stateful(up: Upstream): boolean {
    return this.agentUps.stateful(up);
  }

  /** The session an agent's request runs on: its own for a stateful server, else the shared one. */
  protected upFor(agent: string): Promise<Upstream> {
    return this.agentUps.upFor(agent);
  }

  /** The agent's own session when one is open (or `open` asks for one). */
  protected agentUp(agent: string, open: boolean): Promise<Upstream | null> {
    return this.agentUps.agentUp(agent, open);
  }

  /** Log lines and updates go to agents; changed lists are re-read first, then announced. */
  protected upstreamNotice(gen: number, up: Upstream, n: SourceNotice): void {
    if (gen !== this.gen || this.up !== up) return;
    if (n.kind !== 'resources-changed' && n.kind !== 'prompts-changed') {
      // A log line sent on one call's stream of the shared connection belongs to that call's
      // agent alone; only lines outside any call (server-wide) go to every agent that asked.
      const agent = callingAgent();
      return this.features.notice(agent === undefined ? n : { ...n, agent });
    }
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

  /** A stream dropped or a request failed at the network level: ping to tell "restarted" from "down" (health.ts). */
  protected trouble(gen: number, up: Upstream, cause: Error): void {
    this.health.trouble(gen, up, cause);
  }

  protected updateTools(gen: number, up: Upstream, tools: Tool[]): void {
    if (gen !== this.gen || this.up !== up) return;
    const defs = dedupe(tools.map(toDefinition));
    if (JSON.stringify(defs) === JSON.stringify(this.defs)) return;
    this.defs = defs;
    this.emit();
  }

  /** Swaps in a new session; calls still running on the old one cannot finish there. */
  protected async replace(up: Upstream): Promise<void> {
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

  protected fail(err: unknown): void {
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
    this.scheduleRetry(httpStatusOf(err), networkCode(err));
  }

  /** Status text: an OAuth connection's sign-in errors read "sign-in required…". */
  protected describe(err: unknown): string {
    return this.conn.auth?.describe(err) ?? describeFailure(err);
  }

  /** Token values change on every refresh; the redactor follows them. */
  protected syncSecrets(): void {
    if (this.conn.auth)
      this.redactor.set([...Object.values(this.conn.headers), ...this.conn.auth.secrets()]);
  }

  protected scheduleRetry(status: number | undefined, network?: string): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const delay = retryDelay(this.t, this.failures, status, network);
    this.failures++;
    this.retryTimer = setTimeout(() => void this.reconnect(), delay);
    this.retryTimer.unref();
  }

  protected abortOn(up: Upstream, why: string): void {
    for (const [ac, u] of this.inflight) if (u === up) ac.abort(new UpstreamLost(why));
  }

  protected retire(old: Upstream): void {
    this.retiring.add(old);
    this.closeIfRetired(old);
  }

  protected closeIfRetired(up: Upstream): void {
    if (!this.retiring.has(up) || [...this.inflight.values()].includes(up)) return;
    this.retiring.delete(up);
    void up.close();
  }

  protected emit(): void {
    for (const l of this.listeners) l();
  }
}

/** Tool names must be unique within a source; a server listing one twice keeps the first. */
function dedupe(defs: ToolDefinition[]): ToolDefinition[] {
  const seen = new Set<string>();
  return defs.filter((d) => !seen.has(d.name) && seen.add(d.name));
}
