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
