import type { ClientRelay } from '../../tools/relay.js';

/**
 * The URL-mode elicitations one upstream had Airlock show an agent's user, by `elicitationId`
 * (MCP 2025-11-25, client/elicitation, "URL mode"). When the user finishes in the browser, the
 * server MAY send `notifications/elicitation/complete` with that id; Airlock used to drop it, and
 * the agent that showed the link never learned the step was done (a gateway loses nothing). It is
 * told to that agent — only that one, and only for an id this server's own elicitation went to —
 * and to a call waiting to run again after `-32042` (url-required.ts).
 *
 * Bounded: ids are kept for an hour at most and 256 at most per server, the oldest dropped first.
 * A completion for an id not (yet) noted is kept a short while, in case it overtook the agent's
 * answer to the elicitation; an upstream can never reach an agent it did not ask.
 */
export class UrlCompletions {
  private readonly open = new Map<string, Entry>();
  /** Completed ids (recently), and completions that came before their elicitation was noted. */
  private readonly done = new Map<string, number>();
  private readonly early = new Map<string, number>();
  /** The server's `_meta` on an early completion, for as long as `early` keeps its id. */
  private readonly earlyMeta = new Map<string, Record<string, unknown>>();
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly max: number;
  private seen = false;

  constructor(o: { now?: () => number; ttlMs?: number; max?: number } = {}) {
    this.now = o.now ?? Date.now;
    this.ttlMs = o.ttlMs ?? 60 * 60_000;
    this.max = o.max ?? 256;
  }

  /**
   * Whether this server has ever sent a completion. Sending one is optional, so a call waits for
   * completions only from a server known to send them: waiting on one that never does would hold
   * every such call for nothing.
   */
  get announces(): boolean {
    return this.seen;
  }

  /** A URL-mode elicitation with this id went to `relay`'s agent, who accepted to open it. */
  sent(elicitationId: string, relay: ClientRelay): void {
    this.prune();
    if (this.early.delete(elicitationId)) {
      const meta = this.earlyMeta.get(elicitationId);
      this.earlyMeta.delete(elicitationId);
      relay.elicitationComplete?.(elicitationId, meta);
      bounded(this.done, elicitationId, this.now(), this.max);
      return;
    }
    const old = this.open.get(elicitationId);
    this.open.delete(elicitationId); // re-inserted last: the newest
    this.done.delete(elicitationId); // a reused id is a new step, not done yet
    const notify = relay.elicitationComplete;
    this.open.set(elicitationId, { notify, at: this.now(), waiters: old?.waiters ?? new Set() });
    while (this.open.size > this.max) {
      const [oldest, entry] = this.open.entries().next().value as [string, Entry];
      this.open.delete(oldest);
      for (const w of entry.waiters) w(false);
    }
  }

  /**
   * The server says the step is done: the agent is told, with the server's `_meta` (filtered:
   * untrusted.ts noticeMeta), and a call waiting on it goes on.
   */
  complete(elicitationId: string, meta?: Record<string, unknown>): void {
    this.seen = true;
    this.prune();
    const entry = this.open.get(elicitationId);
    if (!entry) {
      if (!this.done.has(elicitationId)) {
        bounded(this.early, elicitationId, this.now(), 64);
        if (meta) this.earlyMeta.set(elicitationId, meta);
        this.sweepEarlyMeta();
      }
      return;
    }
    this.open.delete(elicitationId);
    bounded(this.done, elicitationId, this.now(), this.max);
    entry.notify?.(elicitationId, meta);
    for (const w of entry.waiters) w(true);
  }

  /**
   * Resolves true once every one of `ids` is complete, false when `ms` pass first, the signal
   * aborts, or an id was never noted (or has been dropped).
   */
  waitAll(ids: readonly string[], ms: number, signal: AbortSignal): Promise<boolean> {
    this.prune();
    const pending = new Set(ids.filter((id) => !this.done.has(id)));
    if (pending.size === 0) return Promise.resolve(true);
    if (![...pending].every((id) => this.open.has(id)) || signal.aborted)
      return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const mine = new Map<string, Waiter>();
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        for (const [id, w] of mine) this.open.get(id)?.waiters.delete(w);
        resolve(ok);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), ms);
      signal.addEventListener('abort', onAbort, { once: true });
      for (const id of pending) {
        const w: Waiter = (completed) => {
          if (!completed) return finish(false);
          pending.delete(id);
          if (pending.size === 0) finish(true);
        };
        mine.set(id, w);
        this.open.get(id)!.waiters.add(w);
      }
    });
  }

  private prune(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [id, e] of this.open) {
      if (e.at > cutoff) break; // insertion order is age order
      this.open.delete(id);
      for (const w of e.waiters) w(false);
    }
    for (const map of [this.done, this.early])
      for (const [id, at] of map) {
        if (at > cutoff) break;
        map.delete(id);
      }
    this.sweepEarlyMeta();
  }

  /** An early completion's `_meta` goes with its id (at most 64: `early`'s bound). */
  private sweepEarlyMeta(): void {
    for (const id of this.earlyMeta.keys()) if (!this.early.has(id)) this.earlyMeta.delete(id);
  }
}

/** Adds to an insertion-ordered map, dropping the oldest past `max`. */
function bounded(map: Map<string, number>, key: string, at: number, max: number): void {
  map.delete(key);
  map.set(key, at);
  if (map.size > max) map.delete(map.keys().next().value as string);
}

type Waiter = (completed: boolean) => void;

interface Entry {
  /** Only the agent's notifier: the relay itself holds its call's whole context. */
  notify: ClientRelay['elicitationComplete'];
  at: number;
  waiters: Set<Waiter>;
}
