import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ObservedQueue } from './observed-queue.js';

/**
 * Issue 34, wave 3 session 19: the provenance service's queue of observed results is two pairs of
 * arrays written in place instead of new arrays at every drain. Over generated schedules it must
 * hand out what the replaced code did (a pair of arrays swapped for `[]` at each drain): the same
 * items with their times, in the same order, the same size after each step, `push` telling when
 * the queue was empty — also when items are pushed, or the queue drained again, while a drain is
 * handing items out, or when a handler throws — and it must not keep what it handed out.
 */
class Replaced<T> {
  queue: T[] = [];
  times: number[] = [];
  get size(): number {
    return this.queue.length;
  }
  push(item: T, at: number): boolean {
    this.queue.push(item);
    this.times.push(at);
    return this.queue.length === 1;
  }
  take(each: (item: T, at: number) => void): void {
    if (this.queue.length === 0) return;
    const queued = this.queue;
    const times = this.times;
    this.queue = [];
    this.times = [];
    for (let i = 0; i < queued.length; i++) each(queued[i]!, times[i]!);
  }
}

type Step =
  | { op: 'push'; n: number }
  | { op: 'take'; during: { push: number; take: boolean; nestedPush: number; throws: boolean }[] };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  // Now and then a burst past the length a pair is kept at (KEEP_SLOTS, 64): it is emptied.
  fc.record({
    op: fc.constant('push' as const),
    n: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 4 }) }, fc.constant(70)),
  }),
  fc.record({
    op: fc.constant('take' as const),
    during: fc.array(
      fc.record({
        push: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 2 }) }, fc.constant(70)),
        take: fc.boolean(),
        nestedPush: fc.integer({ min: 0, max: 2 }),
        throws: fc.boolean(),
      }),
      { maxLength: 6 },
    ),
  }),
);

function run(
  q: {
    size: number;
    push(i: number, at: number): boolean;
    take(e: (i: number, at: number) => void): void;
  },
  steps: Step[],
): unknown[] {
  const log: unknown[] = [];
  let next = 0;
  const push = () => {
    const id = next++;
    log.push(['push', id, q.push(id, 1000 + id)]);
  };
  for (const s of steps) {
    if (s.op === 'push') for (let k = 0; k < s.n; k++) push();
    else {
      let handed = 0;
      try {
        q.take((item, at) => {
          log.push(['item', item, at]);
          // What happens while this item is handled: more observed, a nested drain, a failure.
          const d = s.during[handed++];
          if (!d) return;
          for (let k = 0; k < d.push; k++) push();
          // A drain from inside a drain, itself seeing more observed while it hands out.
          if (d.take)
            q.take((i, a) => {
              log.push(['nested', i, a]);
              for (let k = 0; k < d.nestedPush; k++) push();
            });
          if (d.throws) throw new Error('handler');
        });
      } catch (err) {
        log.push(['threw', (err as Error).message]);
      }
    }
    log.push(['size', q.size]);
  }
  return log;
}

describe('ObservedQueue', () => {
  it('hands out what the replaced arrays did, over generated schedules', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 12 }), (steps) => {
        expect(run(new ObservedQueue<number>(), steps)).toEqual(run(new Replaced<number>(), steps));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps nothing it handed out, a throwing handler's included", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 12 }), (steps) => {
        const q = new ObservedQueue<number>();
        run(q, steps);
        // Whatever was pushed after the last take is still queued; a take empties it.
        q.take(() => {});
        expect(q.size).toBe(0);
        const held = q as unknown as { items: unknown[]; spareItems?: unknown[] };
        expect(held.items.every((x) => x === undefined)).toBe(true);
        expect((held.spareItems ?? []).every((x) => x === undefined)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps no length a burst gave it: a long pair is emptied when handed back', () => {
    const q = new ObservedQueue<object>();
    for (let i = 0; i < 1000; i++) q.push({ i }, i);
    q.take(() => {});
    // The next cycle runs on the other pair, then hands it back too.
    q.push({}, 0);
    q.take(() => {});
    const held = q as unknown as {
      items: unknown[];
      times: number[];
      spareItems: unknown[];
      spareTimes: number[];
    };
    for (const a of [held.items, held.times, held.spareItems, held.spareTimes])
      expect(a.length).toBeLessThanOrEqual(64);
  });
});
