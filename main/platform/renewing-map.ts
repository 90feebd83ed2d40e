/**
 * A Map and a Set for per-call entries kept by a long-lived owner, renewed every `every` new keys
 * (issue 34, docs/performance.md "What keeps a finished call's objects alive at a scavenge").
 *
 * V8's OrderedHashTable::Rehash (src/objects/ordered-hash-table.cc) allocates a Map's or Set's new
 * hash table in the generation of the old one and leaves the old table, with the entries it held
 * when rehashed, as garbage. A long-lived owner's table is in old space, so that garbage is too, and
 * a scavenge takes its slots as roots (the remembered set) until the next mark-sweep: with calls
 * interleaved, each rehash kept the calls then in flight alive and got them promoted. A renewed
 * container starts on a young table, and the old one's entries are deleted one by one (a deleted
 * entry's key and value become holes), last first. Order matters: a delete that leaves fewer than
 * a quarter of the capacity shrinks the table (MapPrototypeDelete → OrderedHashTable::Shrink, a
 * Rehash), which in old space leaves one more abandoned table; first-to-last, an old-space Map's
 * renewal pinned as many calls as no renewal at all, last-first none beyond what its adds had
 * (review of h-surv, scripts/experiments/surv-renew-empty.mjs; why the order counts: not found).
 *
 * Iteration hands out a copy, so a loop that adds entries never sees a renewal under it.
 */
export class RenewingMap<K, V> {
  private map = new Map<K, V>();
  private adds = 0;

  constructor(private readonly every = 64) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    if (!this.map.has(key) && ++this.adds >= this.every) {
      this.adds = 0;
      this.map = renewedMap(this.map);
    }
    this.map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map = new Map();
  }

  values(): V[] {
    return [...this.map.values()];
  }

  /** The entries, a copy (as `values`). */
  entries(): [K, V][] {
    return [...this.map.entries()];
  }
}

/** RenewingMap's Set: the same renewal, for members with no value. */
export class RenewingSet<T> implements Iterable<T> {
  private set = new Set<T>();
  private adds = 0;

  constructor(private readonly every = 64) {}

  get size(): number {
    return this.set.size;
  }

  has(value: T): boolean {
    return this.set.has(value);
  }

  add(value: T): this {
    if (!this.set.has(value) && ++this.adds >= this.every) {
      this.adds = 0;
      const old = this.set;
      this.set = new Set(old);
      for (const v of [...old].reverse()) old.delete(v);
    }
    this.set.add(value);
    return this;
  }

  delete(value: T): boolean {
    return this.set.delete(value);
  }

  clear(): void {
    this.set = new Set();
  }

  [Symbol.iterator](): Iterator<T> {
    return [...this.set][Symbol.iterator]();
  }
}

/**
 * A new Map (on a young table) with `old`'s entries in their order, and `old` emptied entry by
 * entry, last first (above): the renewal itself, for a Map that a long-lived owner of someone
 * else's keeps (the SDK Protocol's books, renew-books.ts) as for RenewingMap. (A declaration:
 * hoisted, so RenewingMap above may call it.)
 */
export function renewedMap<K, V>(old: Map<K, V>): Map<K, V> {
  const map = new Map(old);
  for (const k of [...old.keys()].reverse()) old.delete(k);
  return map;
}
