import type { RetryClock } from '../main/remote/connection/restart-backoff.js';

/**
 * A RetryClock (restart-backoff.ts) that moves only when the test says so: each wait asked for is
 * recorded, and `fire()` runs the earliest one due, moving the time to it.
 */
export class FakeRetryClock implements RetryClock {
  private time = 0;
  private readonly waits: { at: number; fn: () => void }[] = [];
  /** Every wait asked for, in order (ms). */
  readonly asked: number[] = [];
  private readonly askers: { n: number; resolve: () => void }[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): () => void {
    const wait = { at: this.time + ms, fn };
    this.waits.push(wait);
    this.asked.push(ms);
    for (const a of this.askers.filter((x) => x.n <= this.asked.length)) {
      this.askers.splice(this.askers.indexOf(a), 1);
      a.resolve();
    }
    return () => {
      const i = this.waits.indexOf(wait);
      if (i >= 0) this.waits.splice(i, 1);
    };
  }

  /** Resolves once `n` waits in all have been asked for (an event, not a time). */
  whenAsked(n: number): Promise<void> {
    if (this.asked.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.askers.push({ n, resolve }));
  }

  /** The waits not yet run or cancelled. */
  pending(): number {
    return this.waits.length;
  }

  /** Moves the time on without running anything (a stream that stays open this long). */
  advance(ms: number): void {
    this.time += ms;
  }

  /** Runs the earliest pending wait. */
  fire(): void {
    const next = this.waits.sort((a, b) => a.at - b.at).shift();
    if (!next) throw new Error('no wait is pending');
    this.time = Math.max(this.time, next.at);
    next.fn();
  }
}
