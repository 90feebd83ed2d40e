import type { Logger } from '../platform/log.js';
import type { ClientRelay } from '../tools/relay.js';
import type { SourceState } from '../tools/types.js';
import type { AgentSessions } from './agent-sessions.js';
import { AgentUpstreams } from './agent-upstreams.js';
import { RetryTimer } from './backoff.js';
import { connectAndList, type Opening } from './connect-attempt.js';
import { FirstAttempt } from './first-attempt.js';
import { HealthWatch } from './health.js';
import { InflightCalls } from './inflight.js';
import { Redactor } from './redact.js';
import { RemoteFeatures } from './remote-features.js';
import { ServerCatalog } from './server-catalog.js';
import { DEFAULT_TIMINGS, type RemoteConnection, type RemoteTimings } from './timings.js';
import { UrlCompletions } from './url-completions.js';
import {
  describeFailure,
  httpStatusOf,
  networkCode,
  type TransportKind,
  type Upstream,
} from './upstream.js';

export { DEFAULT_TIMINGS, type RemoteConnection, type RemoteTimings };

export interface RemoteSourceOptions {
  logger: Logger;
  version: string;
  timings?: Partial<RemoteTimings>;
  /** The user's switch for this server's sampling/elicitation/roots requests (default: on). */
  relayAllowed?: () => boolean;
}

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
  protected readonly features: RemoteFeatures;
  protected readonly catalog: ServerCatalog;
  protected readonly sessions: AgentSessions;
  private readonly agentUps: AgentUpstreams;
  private readonly health: HealthWatch;
  protected sessionRelays: (agent: string) => ClientRelay | undefined = () => undefined;
  /** Read as each server request arrives, so the user's switch applies without a reconnect. */
  protected readonly relayAllowed = (): boolean => this.o.relayAllowed?.() ?? true;
  protected up: Upstream | null = null;
  protected gen = 0;
  protected connecting: Promise<void> | null = null;
  protected readonly retry: RetryTimer;
  protected stopped = false;
  protected readonly listeners = new Set<() => void>();
  protected readonly inflight = new InflightCalls();
  protected readonly first = new FirstAttempt();

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
    this.retry = new RetryTimer(this.t, () => void this.reconnect());
    this.features = new RemoteFeatures(conn.name, this.t.callIdleMs, o.logger);
    this.catalog = new ServerCatalog({
      current: (gen, up) => gen === this.gen && this.up === up,
      features: this.features,
      listMs: this.t.listMs,
      emit: () => this.emit(),
      trouble: (gen, up, cause) => this.trouble(gen, up, cause),
    });
    this.agentUps = new AgentUpstreams({
      label: this.label,
      version: o.version,
      t: this.t,
      features: this.features,
      conn: () => this.conn,
      shared: () => this.up,
      relays: (agent) => this.sessionRelays(agent),
      completions: this.completions,
      relayAllowed: this.relayAllowed,
    });
    this.sessions = this.agentUps.sessions;
    this.health = new HealthWatch(
      {
        label: this.label,
        gen: () => this.gen,
        up: () => this.up,
        ready: () => this.state.state === 'ready',
        stopped: () => this.stopped,
        updateTools: (gen, up, tools) => this.catalog.updateTools(gen, up, tools),
        replace: (up) => this.replace(up),
        fail: (err) => this.fail(err),
        redact: (text) => this.redactor.text(text),
      },
      this.t,
      o.logger,
    );
  }

  start(): void {
    void this.reconnect();
  }

  /** Applies an edited URL or secret; the old connection serves until the new one is up. */
  reconfigure(conn: RemoteConnection): Promise<void> {
    this.conn = conn;
    this.redactor.set(Object.values(conn.headers));
    this.retry.reset();
    return this.reconnect();
  }

  /** A fresh connection (new session, fresh tool list) now. */
  reconnect(): Promise<void> {
    this.retry.cancel();
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
    return this.first.ready(this.t.readyMs);
  }

  /** Resolves when the first connection attempt has finished, whatever its outcome. */
  settled(): Promise<void> {
    return this.first.settled();
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
    this.retry.cancel();
    this.health.stop();
    this.first.settle();
    this.inflight.abortAll('Airlock removed or stopped this server');
    const all = [this.up, ...this.inflight.takeRetiring()].filter((u): u is Upstream => u !== null);
    this.up = null;
    await Promise.all([...all.map((u) => u.close()), this.sessions.closeAll()]);
  }

  protected async attempt(gen: number): Promise<void> {
    const holder: Opening = {};
    try {
      const opts = {
        conn: this.conn,
        t: this.t,
        version: this.o.version,
        label: this.label,
        completions: this.completions,
        relayAllowed: this.relayAllowed,
      };
      const { up, tools, lists } = await connectAndList(opts, holder, {
        toolsChanged: (u) => void this.catalog.refreshTools(gen, u),
        notice: (u, n) => this.catalog.notice(gen, u, n),
        error: (u, err) => this.trouble(gen, u, err),
        closed: (u) => {
          if (gen === this.gen && this.up === u) this.fail(new Error('connection closed'));
        },
      });
      if (gen !== this.gen) return void (await up.close());
      const old = this.up;
      this.up = up;
      this.catalog.set(tools, lists);
      // Agents' sessions belonged to the old connection; they reopen on each agent's next request.
      if (old && old !== up) void this.sessions.closeAll();
      this.state = { state: 'ready' };
      this.retry.reset();
      this.conn.auth?.connected();
      this.o.logger.info('remote server connected', {
        server: this.label,
        transport: up.transport,
        protocolVersion: up.protocolVersion,
        tools: this.catalog.defs.length,
      });
      this.emit();
      this.health.schedule();
      if (old && old !== up) this.inflight.retire(old);
    } catch (err) {
      await holder.up?.close();
      if (gen === this.gen) this.fail(err);
    } finally {
      if (gen === this.gen) this.first.settle();
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

  /** A stream dropped or a request failed at the network level: ping to tell "restarted" from "down" (health.ts). */
  protected trouble(gen: number, up: Upstream, cause: Error): void {
    this.health.trouble(gen, up, cause);
  }

  /** Swaps in a new session; calls still running on the old one cannot finish there. */
  protected async replace(up: Upstream): Promise<void> {
    if (this.up !== up && this.up) {
      // An agent's own session went stale; the shared one may have too (the server restarted).
      await this.sessions.drop(up);
      return this.replace(this.up);
    }
    if (this.up === up) {
      this.inflight.abortOn(up, 'the server restarted and forgot the session');
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
    this.catalog.clear();
    this.state = { state: 'error', detail };
    if (old) {
      this.inflight.abortOn(old, detail);
      void old.close();
    }
    // Every agent's own session goes with the server; they reopen on the next request.
    this.inflight.abortAll(detail, old);
    void this.sessions.closeAll();
    this.o.logger.warn('remote server unavailable', { server: this.label, detail });
    this.emit();
    // Only a sign-in helps; the sign-in reconnects (RemoteManager.refresh).
    if (this.conn.auth?.needsSignIn(err)) return this.retry.cancel();
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
    this.retry.schedule(status, network);
  }

  protected emit(): void {
    for (const l of this.listeners) l();
  }
}
