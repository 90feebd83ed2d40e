/** The longest pair kept for reuse: past it, a burst's length would be held for good. */
const KEEP_SLOTS = 64;

/**
 * Results observed and not indexed yet, each with when it was observed (provenance-service.ts).
 * Two pairs of arrays taken in turn and written in place: a queue that fills and empties on every
 * call made two new arrays and their backing stores per call when it was replaced by `[]` at each
 * drain (≈ 0.3 KiB a call, issue 34). A taken slot is cleared, so nothing indexed stays held, and
 * a pair a burst made long (a tools list of hundreds of tools) is emptied, not kept at that length.
 */
export class ObservedQueue<T> {
  private items: (T | undefined)[] = [];
  private times: number[] = [];
  private n = 0;
  /** The pair not in use; undefined while a take is reading it. */
  private spareItems: (T | undefined)[] | undefined = [];
  private spareTimes: number[] = [];

  get size(): number {
    return this.n;
  }

  /** Adds one; true when the queue was empty before. */
  push(item: T, at: number): boolean {
    const i = this.n++;
    if (i < this.items.length) {
      this.items[i] = item;
      this.times[i] = at;
    } else {
      this.items.push(item);
      this.times.push(at);
    }
    return i === 0;
  }

  /**
   * Hands over everything queued, oldest first, and empties the queue first: what is pushed
   * meanwhile waits for the next take, and a take from inside `each` takes only that.
   */
  take(each: (item: T, at: number) => void): void {
    const n = this.n;
    if (n === 0) return;
    const { items, times } = this;
    if (this.spareItems) {
      this.items = this.spareItems;
      this.times = this.spareTimes;
    } else {
      this.items = [];
      this.times = [];
    }
    this.spareItems = undefined;
    this.n = 0;
    try {
      for (let i = 0; i < n; i++) {
        each(items[i] as T, times[i]!);
      }
    } finally {
      if (items.length > KEEP_SLOTS) {
        items.length = 0;
        times.length = 0;
      } else for (let i = 0; i < n; i++) items[i] = undefined;
      this.spareItems = items;
      this.spareTimes = times;
    }
  }
}
