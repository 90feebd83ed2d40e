import type { Tool } from '@modelcontextprotocol/client';
import type { Logger } from '../../platform/log.js';
import type { RemoteTimings } from './timings.js';
import {
  isServerAnswer,
  isStaleSession,
  listAllTools,
  type Upstream,
} from '../upstream/upstream.js';

/**
 * Is the server alive? (issue 14, item 5). The 2025 era has `ping`; the
 * 2026-07-28 era has none (and no session or standing stream that would
 * drop), so there a cheap `tools/list` answers — and its answer doubles as
 * change detection: a restarted server's new tools show up with it.
 * Resolves with the tool list when one was fetched; rejects as the request did.
 */
export async function checkHealth(up: Upstream, timeoutMs: number): Promise<Tool[] | null> {
  if (up.client.getProtocolEra() === 'modern') return listAllTools(up, timeoutMs);
  await up.client.ping({ timeout: timeoutMs });
  return null;
}

/** The connection a HealthWatch looks after, read when used. */
export interface WatchedConnection {
  label: string;
  /** The current connection attempt's generation. */
  gen: () => number;
  /** The shared connection, when up. */
  up: () => Upstream | null;
  ready: () => boolean;
  stopped: () => boolean;
  updateTools: (gen: number, up: Upstream, tools: Tool[]) => void;
  replace: (up: Upstream) => Promise<void>;
  fail: (err: unknown) => void;
  redact: (text: string) => string;
}

/**
 * Health checking of one remote server's shared connection (issue 14, item 5): after stream
 * trouble, and periodically while connected.
 */
export class HealthWatch {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(
    private readonly c: WatchedConnection,
    private readonly t: RemoteTimings,
    private readonly logger: Logger,
  ) {}

  /** A stream dropped or a request failed at the network level: ping to tell "restarted" from "down". */
  trouble(gen: number, up: Upstream, cause: Error): void {
    if (gen !== this.c.gen() || this.c.up() !== up || this.checking || this.c.stopped()) return;
    this.checking = true;
    this.logger.debug('remote server stream trouble', {
      server: this.c.label,
      error: this.c.redact(cause.message),
    });
    void checkHealth(up, this.t.healthMs)
      .then(
        (tools) => {
          if (tools) this.c.updateTools(gen, up, tools);
          // Alive. If the transport gave up re-opening its notification stream, a new session restores it.
          if (/Maximum reconnection attempts/i.test(cause.message) && this.c.up() === up)
            void this.c.replace(up);
        },
        (err: unknown) => {
          if (gen !== this.c.gen() || this.c.up() !== up || isServerAnswer(err)) return;
          if (isStaleSession(err, up.hasSession())) return void this.c.replace(up);
          this.c.fail(err);
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
  schedule(): void {
    clearTimeout(this.timer);
    if (this.c.stopped() || !this.t.healthIntervalMs) return;
    this.timer = setTimeout(() => {
      const up = this.c.up();
      if (up && this.c.ready()) this.trouble(this.c.gen(), up, new Error('periodic health check'));
      this.schedule();
    }, this.t.healthIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
