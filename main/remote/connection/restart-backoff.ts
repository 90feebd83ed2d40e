import type { Logger } from '../../platform/log.js';
import type { RemoteTimings } from './timings.js';

/** Refused connections retried at the health-check pace this many times before the wait grows. */
const REFUSED_FAST_TRIES = 6;

/**
 * How long to wait before reconnecting after `failures` failed attempts in a row: exponential
 * backoff with jitter, growing to `backoffMaxMs` for every kind of failure (issue 29, item 8: an
 * unreachable URL was retried every 5 s for ever). A credential problem will not fix itself
 * quickly, so it waits the longest at once. A refused connection usually means a restart: a
 * restarted server should be back within about 10 s (issue 14, item 5), so refusals stay at the
 * health-check pace for the first few tries (about 20 s with the defaults) and only then grow.
 */
export function retryDelay(
  t: RemoteTimings,
  failures: number,
  status: number | undefined,
  network?: string,
): number {
  const fast = network === 'ECONNREFUSED' && t.healthIntervalMs > 0;
  let base: number;
  if (status === 401 || status === 403) base = t.backoffMaxMs;
  else if (fast && failures < REFUSED_FAST_TRIES)
    base = Math.min(t.backoffInitialMs * 2 ** failures, t.healthIntervalMs, t.backoffMaxMs);
  else if (fast)
    base = Math.min(t.healthIntervalMs * 2 ** (failures - REFUSED_FAST_TRIES + 1), t.backoffMaxMs);
  else base = Math.min(t.backoffInitialMs * 2 ** failures, t.backoffMaxMs);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * How long a stream the server ended must have stayed open to count as a healthy one, after which
 * the next reopen waits the first wait again. Servers and proxies cut long-lived streams on idle
 * timers of their own — Heroku's router at 55 s, nginx's proxy_read_timeout at 60 s — so a bound
 * of the longest wait (60 s) doubled the wait after each such cut until the watch was shut longer
 * than open. A server that ends every stream sooner than this is still backed off to a minute.
 */
export const HEALTHY_STREAM_MS = 10_000;

/** Whether a stream that lived `ms` was a healthy one (HEALTHY_STREAM_MS, or the longest wait). */
export function livedHealthy(ms: number, t: RemoteTimings): boolean {
  return ms >= Math.min(HEALTHY_STREAM_MS, t.backoffMaxMs);
}

/** The clock a RestartTimer waits by; tests pass a fake one they advance (no clock in tests). */
export interface RetryClock {
  /** Runs `fn` after `ms`; returns what cancels it. */
  after(ms: number, fn: () => void): () => void;
  now(): number;
}

/** Node's timers, unref'd: a pending retry never keeps the process alive. */
export const SYSTEM_CLOCK: RetryClock = {
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
  now: () => Date.now(),
};

/**
 * The reconnect timer of one remote server, and the failed attempts in a row that set its delay:
 * the supervisor's clock. ServerConnection.fail schedules it after every failure; when it fires, a
 * URL server is connected again and a local server's process is started again. RemoteFeatures
 * reopens a shared connection's `subscriptions/listen` stream the server ended by one too.
 */
export class RestartTimer {
  private cancelTimer: (() => void) | undefined;
  private failures = 0;

  constructor(
    private readonly t: RemoteTimings,
    private readonly retry: () => void,
    private readonly clock: RetryClock = SYSTEM_CLOCK,
  ) {}

  /** The next failure starts the backoff afresh (a connection worked, or its settings changed). */
  reset(): void {
    this.failures = 0;
  }

  cancel(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  /** Returns the wait before the next attempt. */
  schedule(status: number | undefined, network?: string): number {
    this.cancel();
    const delay = retryDelay(this.t, this.failures, status, network);
    this.failures++;
    this.cancelTimer = this.clock.after(delay, () => {
      this.cancelTimer = undefined;
      this.retry();
    });
    return delay;
  }
}

/**
 * What the log says about one server's outage (issue 29, item 8): one warning when it goes down
 * or its reason changes, never one per retry (those are debug lines with the next wait); the
 * line "remote server connected" says it is back. While it stays down, a local server's own
 * start/stderr/exit lines (stdio/process-log.ts) are quiet too: its status text has them.
 */
export class OutageLog {
  private last: string | null = null;

  constructor(
    private readonly label: string,
    private readonly logger: Logger,
    private readonly quiet: (on: boolean) => void = () => {},
  ) {}

  /** `retryInMs`: the wait before the next attempt, or null when none follows (a sign-in is needed). */
  failed(detail: string, retryInMs: number | null): void {
    if (detail !== this.last)
      this.logger.warn('remote server unavailable', {
        server: this.label,
        detail,
        ...(retryInMs === null ? {} : { retrying: 'with a growing wait, up to a minute' }),
      });
    this.last = detail;
    this.quiet(true);
    if (retryInMs !== null)
      this.logger.debug('remote server retry', { server: this.label, inMs: retryInMs });
  }

  recovered(): void {
    this.last = null;
    this.quiet(false);
  }
}
