/**
 * RenewingMap and RenewingSet against Map and Set (renewing-map.ts, issue 34): the same answers
 * to every get/has/size and the same members in the same order (mcp-endpoint's relayFor takes
 * the last) over generated sequences of adds and deletes, renewed every 1–5 new keys so that
 * renewals fall everywhere. And the container a renewal leaves is emptied, so its table keeps no
 * call. Tuned on the first seed; a held-out run with its own seed, more keys and a larger `every`.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RenewingMap, RenewingSet } from './renewing-map.js';

type Op = { add: boolean; key: number; clear: boolean };
const ops = (keys: number) =>
  fc.array(
    fc.record({
      add: fc.boolean(),
      key: fc.integer({ min: 0, max: keys }),
      // A clear, one step in 30 (lean-fetch's watchers are cleared when their signal aborts).
      clear: fc.integer({ min: 0, max: 29 }).map((n) => n === 0),
    }),
    { maxLength: 200 },
  );

function sameAsMap(every: number, steps: Op[]): void {
  const model = new Map<number, string>();
  const map = new RenewingMap<number, string>(every);
  steps.forEach(({ add, key, clear }, i) => {
    if (clear) {
      model.clear();
      map.clear();
    } else if (add) {
      model.set(key, `v${i}`);
      expect(map.set(key, `v${i}`)).toBe(map);
    } else expect(map.delete(key)).toBe(model.delete(key));
    expect(map.size).toBe(model.size);
    expect(map.get(key)).toBe(model.get(key));
    expect(map.has(key)).toBe(model.has(key));
    expect(map.values()).toEqual([...model.values()]);
    expect(map.entries()).toEqual([...model.entries()]);
  });
}

function sameAsSet(every: number, steps: Op[]): void {
  const model = new Set<number>();
  const set = new RenewingSet<number>(every);
  for (const { add, key, clear } of steps) {
    if (clear) {
      model.clear();
      set.clear();
    } else if (add) {
      model.add(key);
      expect(set.add(key)).toBe(set);
    } else expect(set.delete(key)).toBe(model.delete(key));
    expect(set.size).toBe(model.size);
    expect(set.has(key)).toBe(model.has(key));
    expect([...set]).toEqual([...model]);
  }
}

describe('RenewingMap and RenewingSet behave as Map and Set', () => {
  it('over generated steps (tuning seed)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), ops(12), (every, steps) => {
        sameAsMap(every, steps);
        sameAsSet(every, steps);
      }),
      { seed: 34, numRuns: 300 },
    );
  });

  it('held out: its own seed, more keys, a larger every', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), ops(100), (every, steps) => {
        sameAsMap(every, steps);
        sameAsSet(every, steps);
      }),
      { seed: 20261207, numRuns: 300 },
    );
  });
});

describe('a renewal', () => {
  afterEach(() => vi.restoreAllMocks());

  it('empties the Map and Set it leaves, entry by entry, last first', () => {
    // What the left container's hash table still points at is what a scavenge keeps (the
    // remembered set): every entry live at the renewal must be deleted from it, last first (a
    // first-to-last delete's shrink left an old-space table pinning the rest, review of h-surv).
    const mapDeletes: unknown[] = [];
    const setDeletes: unknown[] = [];
    const mapDelete = Map.prototype.delete;
    const setDelete = Set.prototype.delete;
    vi.spyOn(Map.prototype, 'delete').mockImplementation(function (this: Map<unknown, unknown>, k) {
      mapDeletes.push(k);
      return mapDelete.call(this, k);
    });
    vi.spyOn(Set.prototype, 'delete').mockImplementation(function (this: Set<unknown>, v) {
      setDeletes.push(v);
      return setDelete.call(this, v);
    });
    const map = new RenewingMap<number, string>(3);
    const set = new RenewingSet<number>(3);
    map.set(1, 'a').set(2, 'b');
    set.add(1).add(2);
    expect(mapDeletes).toEqual([]);
    map.set(3, 'c'); // the third new key renews: 1 and 2 move, and leave the old Map
    set.add(3);
    expect(mapDeletes).toEqual([2, 1]);
    expect(setDeletes).toEqual([2, 1]);
    expect(map.values()).toEqual(['a', 'b', 'c']);
    expect([...set]).toEqual([1, 2, 3]);
  });
});
