import type { RelayMethod, RelayRequest } from '../../tools/relay.js';
import type { AgentFeatures } from './api.js';

/**
 * How much one agent request may carry of servers' own requests (issue 27, item 7): 1,000
 * sampling requests relayed during one call went to the agent's app one by one, wrote 999
 * Activity rows and slowed another agent's tools/list to 1.9 s. A tool that asks the user or
 * the model a few times, or a few dozen, is normal; past `perRequest` the server is refused,
 * with the reason. A session's own relay (requests outside any call) lives as long as the
 * session, so there the bound is on requests waiting for the agent at once (`perRequest`
 * too). Activity keeps the first `recordEach` of each server and method as rows of their own
 * and the rest as one row with their count, written when the request ends (for a session's
 * relay, every `recordEach * 100`).
 */
export const RELAY_LIMITS = { perRequest: 100, recordEach: 3 };

interface Tally {
  server: string;
  method: RelayMethod;
  started: number;
  ok: number;
  error: number;
  lastError?: string;
}

export class RelayLedger {
  private sent = 0;
  private waiting = 0;
  private readonly counts = new Map<string, number>();
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly agent: string,
    private readonly features: AgentFeatures,
    /** 'request': bounded in all; 'session': bounded at once. */
    private readonly scope: 'request' | 'session',
    private readonly limits = RELAY_LIMITS,
  ) {}

  /** Null when this request may go on to the agent (call `release` when it is over); otherwise why not. */
  admit(_req: RelayRequest): string | null {
    const max = this.limits.perRequest;
    if (this.scope === 'request' && this.sent >= max)
      return (
        `it has already sent ${this.sent} requests during this one request of the agent, ` +
        `Airlock's limit (${max}); the rest are refused until the agent's next request`
      );
    if (this.scope === 'session' && this.waiting >= max)
      return `${this.waiting} of its requests already wait for the agent, Airlock's limit (${max})`;
    this.sent++;
    this.waiting++;
    return null;
  }

  release(): void {
    this.waiting--;
  }

  record(e: {
    server: string;
    method: RelayMethod;
    started: number;
    outcome: 'ok' | 'error';
    detail?: string;
  }): void {
    const key = `${e.server}\u0000${e.method}`;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (n <= this.limits.recordEach) {
      this.features.recordRelay({ agent: this.agent, ...e });
      return;
    }
    const t = this.tallies.get(key) ?? {
      server: e.server,
      method: e.method,
      started: e.started,
      ok: 0,
      error: 0,
    };
    t[e.outcome]++;
    if (e.outcome === 'error' && e.detail) t.lastError = e.detail;
    this.tallies.set(key, t);
    if (t.ok + t.error >= this.limits.recordEach * 100) this.flushOne(key, t);
  }

  /** Writes the counted rest: one Activity row per server and method. */
  flush(): void {
    for (const [key, t] of this.tallies) this.flushOne(key, t);
  }

  private flushOne(key: string, t: Tally): void {
    this.tallies.delete(key);
    const n = t.ok + t.error;
    this.features.recordRelay({
      agent: this.agent,
      server: t.server,
      method: t.method,
      started: t.started,
      outcome: t.error > 0 ? 'error' : 'ok',
      detail:
        `${n} more in this request (${t.ok} answered, ${t.error} failed or refused)` +
        (t.lastError ? `; last error: ${t.lastError}` : ''),
    });
  }
}
