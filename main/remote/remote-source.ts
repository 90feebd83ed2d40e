import type { Logger } from '../platform/log.js';
import type {
  CallToolResult,
  SourceState,
  ToolCallContext,
  ToolDefinition,
  ToolSource,
} from '../tools/types.js';
import { errorResult } from '../tools/types.js';
import { markUntrusted, toDefinition } from './untrusted.js';
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
  private up: Upstream | null = null;
  private gen = 0;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
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
      const up = this.up;
      if (!up || this.state.state !== 'ready') {
        const why = this.state.state === 'error' ? this.state.detail : 'still connecting';
        return errorResult(
          `The remote server "${this.label}" is unavailable (${why}); nothing was sent.`,
        );
      }
      const lost = new AbortController();
      this.inflight.set(lost, up);
      const hadSession = up.hasSession();
      try {
        const result = await up.client.callTool(
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
          this.trouble(this.gen, up, err as Error);
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
    this.settleFirst();
    for (const [ac] of this.inflight)
      ac.abort(new UpstreamLost('Airlock removed or stopped this server'));
    const all = [this.up, ...this.retiring].filter((u): u is Upstream => u !== null);
    this.up = null;
    this.retiring.clear();
    await Promise.all(all.map((u) => u.close()));
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
      const tools = await listAllTools(up, this.t.listMs);
      if (gen !== this.gen) return void (await up.close());
      const old = this.up;
      this.up = up;
      this.defs = dedupe(tools.map(toDefinition));
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
      const tools = await listAllTools(up, this.t.listMs);
      if (gen !== this.gen || this.up !== up) return;
      this.defs = dedupe(tools.map(toDefinition));
      this.emit();
    } catch (err) {
      this.trouble(gen, up, err as Error);
    }
  }

  /** A stream dropped or a request failed at the network level: ping to tell "restarted" from "down". */
  private trouble(gen: number, up: Upstream, cause: Error): void {
    if (gen !== this.gen || this.up !== up || this.checking || this.stopped) return;
    this.checking = true;
    this.o.logger.debug('remote server stream trouble', {
      server: this.label,
      error: this.redactor.text(cause.message),
    });
    void up.client
      .ping({ timeout: this.t.healthMs })
      .then(
        () => {
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

  /** Swaps in a new session; calls still running on the old one cannot finish there. */
  private async replace(up: Upstream): Promise<void> {
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
    this.state = { state: 'error', detail };
    if (old) {
      this.abortOn(old, detail);
      void old.close();
    }
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
