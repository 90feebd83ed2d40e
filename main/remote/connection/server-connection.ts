import type { ClientRelay } from '../../tools/relay.js';
import type { SourceState } from '../../tools/types.js';
import type { AgentSessions } from './agent-sessions.js';
import { AgentUpstreams } from './agent-upstreams.js';
import { OutageLog, RestartTimer } from './restart-backoff.js';
import { connectAndList, connectionInfo, type Opening } from './connect-attempt.js';
import { FirstAttempt } from './first-attempt.js';
import { HealthWatch } from './health.js';
import { InflightCalls } from './inflight.js';
import { ConnectionRedactor } from './redact.js';
import { TASK_TTL_MS } from '../tasks/upstream-task.js';
import { RemoteFeatures } from '../catalog/remote-features.js';
import { ServerCatalog } from '../catalog/server-catalog.js';
import { DEFAULT_TIMINGS } from './timings.js';
import type { RemoteConnection, RemoteSourceOptions, RemoteTimings } from './timings.js';
import { UrlCompletions } from '../relay/url-completions.js';
import {
  describeFailure,
  httpStatusOf,
  networkCode,
  type TransportKind,
  type Upstream,
} from '../upstream/upstream.js';

/**
 * The connection side of one remote MCP server (issue 4, issue 14): connect
 * in the background, health checks, failure and backoff, swapping in a new
 * connection while the old one serves, and each agent's own upstream session
 * for stateful servers (agents, agent-upstreams.ts). RemoteSource
 * (remote-source.ts) holds one and puts the ToolSource face on it: tools,
 * resources, prompts, calls (remote-calls.ts).
 */
export class ServerConnection {
  readonly label: string;
  private conn: RemoteConnection;
  readonly t: RemoteTimings;
  readonly redactor: ConnectionRedactor;
  /** URL-mode elicitations of this server shown to agents, for its completions (url-completions.ts). */
  readonly completions = new UrlCompletions();
  private state: SourceState = { state: 'loading' };
  readonly features: RemoteFeatures;
  readonly catalog: ServerCatalog;
  readonly agents: AgentUpstreams;
  readonly sessions: AgentSessions;
  private readonly health: HealthWatch;
  /** Each agent's client, for server→client requests on its own session (RemoteSource sets it). */
  sessionRelays: (agent: string) => ClientRelay | undefined = () => undefined;
  /** Read as each server request arrives, so the user's switch applies without a reconnect. */
  readonly relayAllowed = (): boolean => this.o.relayAllowed?.() ?? true;
  private shared: Upstream | null = null;
  private gen = 0;
  private connecting: Promise<void> | null = null;
  /** The attempts under way, each with what ends its local server's start (UpstreamOptions.signal). */
  private readonly underway = new Map<AbortController, Promise<void>>();
  private readonly retry: RestartTimer;
  private readonly outage: OutageLog;
  private stopped = false;
  private readonly listeners = new Set<() => void>();
  readonly inflight = new InflightCalls();
  private readonly first = new FirstAttempt();

  constructor(
    conn: RemoteConnection,
    private readonly o: RemoteSourceOptions,
  ) {
    this.label = conn.name;
    this.conn = conn;
    this.t = { ...DEFAULT_TIMINGS, ...o.timings };
    // A value that leaves the list stays redacted while a call sent with it may answer (tasks: ttl).
    const keepMs = Math.max(this.t.callMaxMs, TASK_TTL_MS);
    this.redactor = new ConnectionRedactor(() => this.conn, { keepMs, now: o.now });
    this.redactor.follow(conn);
    this.retry = new RestartTimer(this.t, () => void this.reconnect());
    const quiet = (on: boolean) => this.conn.stdio?.processLog.quiet(on);
    this.outage = new OutageLog(this.label, o.logger, quiet);
    this.features = new RemoteFeatures(conn.name, this.t.callIdleMs, o.logger, this.redactor, {
      shared: (up) => this.shared === up && !this.stopped,
      t: this.t,
    });
    this.catalog = new ServerCatalog({
      current: (gen, up) => gen === this.gen && this.shared === up,
      features: this.features,
      listMs: this.t.listMs,
      emit: () => this.emit(),
      listsChanged: () => this.agents.relistOwn(),
      trouble: (gen, up, cause) => this.trouble(gen, up, cause),
    });
    this.agents = new AgentUpstreams({
      label: this.label,
      version: o.version,
      t: this.t,
      features: this.features,
      conn: () => this.conn,
      shared: () => this.shared,
      sharedLists: () => this.catalog.lists,
      relays: (agent) => this.sessionRelays(agent),
      completions: this.completions,
      relayAllowed: this.relayAllowed,
      redact: (x) => this.redactor.result(x),
      ...(o.resolve ? { resolve: o.resolve } : {}),
    });
    this.sessions = this.agents.sessions;
    this.health = new HealthWatch(
      {
        label: this.label,
        gen: () => this.gen,
        up: () => this.shared,
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
    this.redactor.follow(conn);
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

  /** The connection everyone shares, while one is up. */
  get up(): Upstream | null {
    return this.shared;
  }

  /** What this server is reached by (URL or launch, headers, sign-in). */
  settings(): RemoteConnection {
    return this.conn;
  }

  /** The attempt under way while the server is not ready: a request made meanwhile waits for it. */
  pendingAttempt(): Promise<void> | null {
    return this.state.state !== 'ready' ? this.connecting : null;
  }

  /** Network trouble seen on a request: check the shared connection (trouble, below). */
  troubleNow(cause: Error): void {
    if (this.shared) this.trouble(this.gen, this.shared, cause);
  }

  info(): { transport?: TransportKind; protocolVersion?: string; warning?: string } {
    // A cut resource list is said where the user looks (the Servers page, `airlock remote
    // list`), not only in the log: agents see fewer resources than the server has.
    const cut = this.state.state === 'ready' ? this.catalog.lists.cut : undefined;
    return { ...connectionInfo(this.shared), ...(cut ? { warning: cut } : {}) };
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
    const all = [this.shared, ...this.inflight.takeRetiring()].filter(
      (u): u is Upstream => u !== null,
    );
    this.shared = null;
    // An attempt still starting a local server ends it the normal way and is waited for, as the
    // shared connection is closed: the stop-everything safety net after this (stdio-config.ts end)
    // only SIGKILLs, and met every server still starting — all of them when `airlock serve` found
    // its port taken right after starting them. A URL attempt ends by its own bound.
    const starting = this.conn.stdio ? [...this.underway.values()] : [];
    for (const abort of this.underway.keys()) abort.abort();
    await Promise.all([
      ...all.map((u) => u.close()),
      this.sessions.closeAll(),
      ...starting.map((a) => a.catch(() => {})),
    ]);
  }

  private attempt(gen: number): Promise<void> {
    const abort = new AbortController();
    const run = this.attemptWith(gen, abort.signal);
    this.underway.set(abort, run);
    void run.finally(() => this.underway.delete(abort));
    return run;
  }

  private async attemptWith(gen: number, signal: AbortSignal): Promise<void> {
    const holder: Opening = {};
    // Connected but still reading its lists: closed now (gracefully), not when the lists are read.
    signal.addEventListener('abort', () => void holder.up?.close().catch(() => {}), { once: true });
    try {
      const opts = {
        conn: this.conn,
        t: this.t,
        version: this.o.version,
        label: this.label,
        completions: this.completions,
        relayAllowed: this.relayAllowed,
        redact: <T extends object>(x: T) => this.redactor.result(x),
        ...(this.o.resolve ? { resolve: this.o.resolve } : {}),
        signal,
      };
      const { up, tools, lists } = await connectAndList(opts, holder, {
        toolsChanged: (u) => void this.catalog.refreshTools(gen, u),
        notice: (u, n) => this.catalog.notice(gen, u, n),
        error: (u, err) => this.trouble(gen, u, err),
        closed: (u) => {
          if (gen === this.gen && this.shared === u) this.fail(new Error('connection closed'));
        },
      });
      if (gen !== this.gen) return void (await up.close());
      const old = this.shared;
      this.shared = up;
      this.catalog.set(tools, lists);
      // Agents' sessions belonged to the old connection; they reopen on each agent's next request.
      if (old && old !== up) void this.sessions.closeAll();
      // A shared connection watches what every agent watches; a new one starts with nothing.
      if (!this.agents.stateful(up)) void this.features.applyShared(up);
      // Its list-change stream (2026-07-28) is reopened if the server ends it; then the lists
      // are read again, for a change made while it was shut.
      this.features.followListChanges(up, (missed) => {
        if (missed.toolsListChanged) void this.catalog.refreshTools(gen, up);
        if (missed.resourcesListChanged)
          this.catalog.notice(gen, up, { kind: 'resources-changed' });
        if (missed.promptsListChanged) this.catalog.notice(gen, up, { kind: 'prompts-changed' });
      });
      this.state = { state: 'ready' };
      this.retry.reset();
      this.outage.recovered();
      this.conn.auth?.connected();
      // The class of the address it was reached at, kept for the next connections (address-pin.ts).
      this.conn.pin?.connected();
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

  /** A stream dropped or a request failed at the network level: ping to tell "restarted" from "down" (health.ts). */
  trouble(gen: number, up: Upstream, cause: Error): void {
    this.health.trouble(gen, up, cause);
  }

  /** Swaps in a new session; calls still running on the old one cannot finish there. */
  async replace(up: Upstream): Promise<void> {
    if (this.shared !== up && this.shared) {
      // An agent's own session went stale; the shared one may have too (the server restarted).
      await this.sessions.drop(up);
      return this.replace(this.shared);
    }
    if (this.shared === up) {
      this.inflight.abortOn(up, 'the server restarted and forgot the session');
      await this.reconnect();
    } else if (this.connecting) {
      await this.connecting;
    }
  }

  /** Every failure lands here (a local server's crash too) and schedules the restart. */
  fail(err: unknown): void {
    this.conn.auth?.observe(err);
    const detail = this.redactor.text(this.describe(err));
    const old = this.shared;
    this.shared = null;
    this.catalog.clear();
    this.state = { state: 'error', detail };
    if (old) {
      this.inflight.abortOn(old, detail);
      void old.close();
    }
    // Every agent's own session goes with the server; they reopen on the next request.
    this.inflight.abortAll(detail, old);
    void this.sessions.closeAll();
    this.emit();
    // Only a sign-in helps; the sign-in reconnects (RemoteManager.refresh).
    if (this.conn.auth?.needsSignIn(err)) {
      this.retry.cancel();
      return this.outage.failed(detail, null);
    }
    if (this.stopped) return;
    this.outage.failed(detail, this.retry.schedule(httpStatusOf(err), networkCode(err)));
  }

  /** Status text: an OAuth connection's sign-in errors read "sign-in required…". */
  describe(err: unknown): string {
    return this.conn.auth?.describe(err) ?? describeFailure(err);
  }

  /** Token values change on every refresh; the redactor follows them. */
  syncSecrets(): void {
    this.redactor.sync(this.conn);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}
