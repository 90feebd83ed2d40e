import type { ToolCallContext } from '../tools/types.js';
import type { AskOutcome } from './engine.js';

export interface Waiter {
  settle: (outcome: AskOutcome) => void;
  progress?: ToolCallContext['progress'];
  /** The waiting call's relay to its agent (engine-types.ts AskRequest.relay). */
  relay?: ToolCallContext['relay'];
}

export interface AttachOptions {
  signal: AbortSignal;
  progress?: ToolCallContext['progress'];
  relay?: ToolCallContext['relay'];
  waitMs: number;
  progressIntervalMs: number;
  progressMessage: string;
  /** No periodic "waiting" progress, only what the approved call reports (a task's: AskRequest.quiet). */
  quiet?: boolean;
  /** This call is the only one waiting on the request now. */
  onFirst: () => void;
  /** The bounded wait is over; `last`: no other call is waiting. */
  onTimeout: (last: boolean) => AskOutcome;
  /** The client cancelled; `last`: no other call is waiting. */
  onAbort: (last: boolean) => AskOutcome;
}

/**
 * The agents' calls waiting on each request, and the grace given to a request
 * whose last waiting call was cancelled (issue 16 item 6): a client whose own
 * timeout is shorter than Airlock's cancels and retries; the retry must find
 * the same request, not a withdrawn one and a new card.
 */
export class Waiters {
  private readonly sets = new Map<string, Set<Waiter>>();
  private readonly graces = new Map<string, NodeJS.Timeout>();

  /**
   * One call waiting on a request: settled by the decision (`all(id)[i].settle`), by the
   * bounded wait running out, or by the client cancelling; progress ticks meanwhile.
   */
  attach(id: string, o: AttachOptions): Promise<AskOutcome> {
    return new Promise<AskOutcome>((resolve) => {
      let last = false;
      const cleanup = () => {
        clearTimeout(timer);
        clearInterval(ticker);
        o.signal.removeEventListener('abort', onAbort);
        last = this.remove(id, waiter);
      };
      const waiter: Waiter = {
        settle: (outcome) => (cleanup(), resolve(outcome)),
        ...(o.progress ? { progress: o.progress } : {}),
        ...(o.relay ? { relay: o.relay } : {}),
      };
      const onAbort = () => {
        cleanup();
        resolve(o.onAbort(last));
      };
      const timer = setTimeout(() => {
        cleanup();
        resolve(o.onTimeout(last));
      }, o.waitMs);
      let ticks = 0;
      const ticker = o.quiet
        ? undefined
        : setInterval(
            () => o.progress?.(++ticks, undefined, o.progressMessage),
            o.progressIntervalMs,
          );
      const first = !this.has(id);
      this.add(id, waiter);
      if (first) o.onFirst();
      if (o.signal.aborted) onAbort();
      else o.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  add(id: string, w: Waiter): void {
    const set = this.sets.get(id) ?? new Set<Waiter>();
    this.sets.set(id, set);
    set.add(w);
    this.cancelGrace(id);
  }

  /** Removes a waiter; true when it was the last one on the request. */
  remove(id: string, w: Waiter): boolean {
    const set = this.sets.get(id);
    if (!set) return true;
    set.delete(w);
    if (set.size > 0) return false;
    this.sets.delete(id);
    return true;
  }

  has(id: string): boolean {
    return (this.sets.get(id)?.size ?? 0) > 0;
  }

  all(id: string): Waiter[] {
    return [...(this.sets.get(id) ?? [])];
  }

  /** Calls `expire` after `ms` unless a call attaches to the request first. */
  startGrace(id: string, ms: number, expire: () => void): void {
    this.cancelGrace(id);
    const t = setTimeout(() => {
      this.graces.delete(id);
      if (!this.has(id)) expire();
    }, ms);
    t.unref();
    this.graces.set(id, t);
  }

  cancelGrace(id: string): void {
    clearTimeout(this.graces.get(id));
    this.graces.delete(id);
  }

  stop(): void {
    for (const t of this.graces.values()) clearTimeout(t);
    this.graces.clear();
  }
}
