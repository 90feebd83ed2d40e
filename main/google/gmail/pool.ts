/**
 * Runs `fn` over `items` with at most `limit` in flight, keeping order. The
 * limit halves (down to `floor`) each time `throttle()` is called, so a
 * burst that trips Gmail's "too many concurrent requests" backs off instead
 * of hammering (Gmail API "Usage limits").
 */
export class AdaptivePool {
  private limit: number;

  constructor(
    limit: number,
    private readonly floor = 2,
  ) {
    this.limit = Math.max(1, limit);
  }

  get current(): number {
    return this.limit;
  }

  throttle(): void {
    this.limit = Math.max(this.floor, Math.floor(this.limit / 2));
  }

  async map<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
    const out = new Array<R>(items.length);
    let next = 0;
    let active = 0;
    return new Promise<R[]>((resolve, reject) => {
      let failed = false;
      const pump = () => {
        if (failed) return;
        if (next >= items.length && active === 0) return resolve(out);
        while (active < this.limit && next < items.length) {
          const i = next++;
          active++;
          fn(items[i]!, i).then(
            (r) => {
              out[i] = r;
              active--;
              pump();
            },
            (err: unknown) => {
              failed = true;
              reject(err);
            },
          );
        }
      };
      pump();
    });
  }
}
