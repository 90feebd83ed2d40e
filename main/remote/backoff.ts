import type { RemoteTimings } from './timings.js';

/**
 * How long to wait before reconnecting after `failures` failed attempts in a row.
 * Exponential backoff with jitter; a credential problem will not fix itself quickly. A refused
 * connection costs the server nothing, and a restarted server should be back within about
 * 10 s (issue 14, item 5), so those retries stay at the health-check pace.
 */
export function retryDelay(
  t: RemoteTimings,
  failures: number,
  status: number | undefined,
  network?: string,
): number {
  const refused = network === 'ECONNREFUSED' && t.healthIntervalMs > 0;
  const cap = refused ? Math.min(t.backoffMaxMs, t.healthIntervalMs) : t.backoffMaxMs;
  const base =
    status === 401 || status === 403
      ? t.backoffMaxMs
      : Math.min(t.backoffInitialMs * 2 ** failures, cap);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** The reconnect timer of one remote server, and the failed attempts in a row that set its delay. */
export class RetryTimer {
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;

  constructor(
    private readonly t: RemoteTimings,
    private readonly retry: () => void,
  ) {}

  /** The next failure starts the backoff afresh (a connection worked, or its settings changed). */
  reset(): void {
    this.failures = 0;
  }

  cancel(): void {
    clearTimeout(this.timer);
  }

  schedule(status: number | undefined, network?: string): void {
    clearTimeout(this.timer);
    const delay = retryDelay(this.t, this.failures, status, network);
    this.failures++;
    this.timer = setTimeout(this.retry, delay);
    this.timer.unref();
  }
}
