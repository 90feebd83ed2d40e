import type { ContentItem } from './content-index.js';
import type { SignificantValue } from './values.js';

/**
 * The destinations strangers gave an agent — the addresses, links, hosts and numbers in content
 * from outside the user's circle — kept apart from the phrase index (content-index.ts), for rule
 * 1 of the taint check: "this destination came from a stranger's words".
 *
 * The phrase index rotates its two generations when one fills, and the agent decides how much it
 * reads: about 25 large results of distinct prose filled both, the stranger's mail fell out, and
 * the user's own copy of its address read back afterwards was all that was left — a forwarding
 * filter to the address passed (docs/provenance.md, "Laundering through the user's own places").
 * An index whose eviction reads can drive is a budget the attacker sets. So this record ages by
 * time alone: a generation begins every TTL/2 and is dropped once everything in it is older than
 * the TTL, never because something else was read. Only stranger-side destinations enter it; the
 * user's own mail, phrases and the rest cannot touch it.
 *
 * Bounded all the same. A generation names at most `keysPerGeneration` values and items; past
 * that, what strangers give goes into the generation's Bloom filter of fixed size (a digest:
 * which values, not which item). A value found only there is reported as content from outside
 * the user's circle that Airlock kept as a digest. A Bloom filter answers "maybe" for values never
 * added, never "no" for one that was: a flood of a stranger's values can only make more calls ask
 * (each new destination is then flagged with some probability), never let one through.
 * At most three generations are alive (each spans at least TTL/2, and one is dropped when the
 * next began more than a TTL ago), so memory is at most three times the budget plus three filters.
 */

export interface StrangerLimits {
  /** Distinct values + items named exactly per generation. */
  keysPerGeneration: number;
  /** Bits of each generation's Bloom filter (a power of two), allocated at its first overflow. */
  bloomBits: number;
  ttlMs: number;
}

/** Destinations: what rule 1 looks up (parties.ts itemsNaming). Keys and codes are rule 2's, on private items. */
const DESTINATION_KINDS = new Set<SignificantValue['kind']>(['email', 'url', 'domain', 'phone']);

/** A value's newest items kept per generation, as in the phrase index (content-index.ts). */
const ITEMS_PER_VALUE = 4;
/** Generations alive at once: see the class comment. */
const MAX_GENERATIONS = 3;
/** Hashes per value in a Bloom filter: near-optimal for ~10 bits per value. */
const BLOOM_HASHES = 6;

interface Generation {
  /** Value key → the newest stranger items naming it, oldest first. */
  values: Map<string, ContentItem[]>;
  items: Set<number>;
  keys: number;
  startedAt: number;
  bloom?: Uint32Array;
  /** Stands for whatever went into the bloom: one object, so `includes` finds it again. */
  digest?: ContentItem;
  /** The first item (ids grow with time) that went into the digest: it holds none before it. */
  digestedFrom?: number;
}

/**
 * Whether the caller still names, exactly, every stranger item from this id on that named the
 * value looked up: then a digest that began at that item stands for nothing the caller does not
 * already name.
 */
export type NamedSince = (id: number) => boolean;

export class StrangerDestinations {
  /** Newest first. */
  private gens: Generation[] = [];
  private digests = 0;
  /** 32-bit words per filter: a power of two, so a hash is reduced with a mask. */
  private readonly words: number;

  constructor(
    private readonly limits: StrangerLimits,
    private readonly now: () => number,
  ) {
    this.words = 2 ** Math.floor(Math.log2(Math.max(32, limits.bloomBits) / 32));
  }

  /** Records the destinations of a stranger's item (other values and other items are ignored). */
  add(item: ContentItem, values: readonly Pick<SignificantValue, 'kind' | 'value'>[]): void {
    if (!item.untrusted) return;
    let g: Generation | undefined;
    for (const v of values) {
      if (!DESTINATION_KINDS.has(v.kind)) continue;
      g ??= this.generationAt(item.at);
      const key = `${v.kind}:${v.value}`;
      let list = g.values.get(key);
      const cost = (list ? 0 : 1) + (g.items.has(item.id) ? 0 : 1);
      if (g.keys + cost > this.limits.keysPerGeneration) {
        const digest = this.digest(g, key, item);
        // A value already named here: its list stands for every item of this generation that
        // named it, so the digest takes the new item's place in it (and is never looked for in
        // the filter of a generation that names the value: that answer may be a false positive).
        if (list && !list.includes(digest)) push(list, digest);
        continue;
      }
      g.keys += cost;
      g.items.add(item.id);
      if (!list) g.values.set(key, (list = []));
      if (list[list.length - 1] === item) continue;
      push(list, item);
    }
  }

  /** Whether no generation holds any value, nor a digest (live or not): `has` is false for all. */
  empty(): boolean {
    for (const g of this.gens) if (g.values.size > 0 || g.bloom) return false;
    return true;
  }

  /** Whether any generation holds the value, exactly or in its digest (live or not). */
  has(v: Pick<SignificantValue, 'kind' | 'value'>): boolean {
    if (!DESTINATION_KINDS.has(v.kind)) return false;
    const key = `${v.kind}:${v.value}`;
    return this.gens.some((g) => g.values.has(key) || (g.bloom && bloomHas(g.bloom, key)));
  }

  /**
   * Live items naming the value, newest first, per generation: the items it names, with its
   * digest where an item naming the value went into the digest; in a generation that names the
   * value nowhere, its digest when the filter may hold the value. A digest is left out only when
   * the caller still names every stranger item that went into it since it began (`namedSince`:
   * the phrase index holds more than this record, until a flood rolls it over) — then the item is
   * there by name, author and all, and a reply to its author is a reply.
   *
   * Not whenever anything else names the value: the check passes over some stranger items (a
   * party to the destination, the called server's own tool description), and the item the digest
   * stands for may be the one it would have flagged. An earlier version left the digest out
   * whenever any item named the value, and a forwarding filter to an address a mailing list's own
   * post named (the list is a party to it) passed once the stranger's mail asking for it was
   * only in the digest (stranger-digest.property.test.ts).
   */
  itemsWith(v: Pick<SignificantValue, 'kind' | 'value'>, namedSince: NamedSince): ContentItem[] {
    if (!DESTINATION_KINDS.has(v.kind)) return [];
    const key = `${v.kind}:${v.value}`;
    const now = this.now();
    const fresh = (i: ContentItem) => now - i.at <= this.limits.ttlMs;
    const needed = (g: Generation) =>
      g.digest !== undefined && fresh(g.digest) && !namedSince(g.digestedFrom!);
    const out: ContentItem[] = [];
    for (const g of this.gens) {
      const list = g.values.get(key);
      if (list) {
        for (let k = list.length - 1; k >= 0; k--) {
          const i = list[k]!;
          if (i === g.digest ? needed(g) : fresh(i)) out.push(i);
        }
      } else if (g.bloom && needed(g) && bloomHas(g.bloom, key)) {
        out.push(g.digest!);
      }
    }
    return out;
  }

  /** Values and items named exactly, over every generation (the filters are fixed-size). */
  size(): number {
    let n = 0;
    for (const g of this.gens) n += g.keys;
    return n;
  }

  /** Generations alive, and how many have a filter: for the memory bound's test. */
  shape(): { generations: number; filters: number } {
    return { generations: this.gens.length, filters: this.gens.filter((g) => g.bloom).length };
  }

  /** The generation for content read at `at`: a new one every TTL/2; ones done for a TTL go. */
  private generationAt(at: number): Generation {
    const half = this.limits.ttlMs / 2;
    if (this.gens.length === 0 || at - this.gens[0]!.startedAt >= half) {
      this.gens.unshift({
        values: new Map(),
        items: new Set(),
        keys: 0,
        startedAt: at,
      });
    }
    // Generation k ended when generation k-1 began: once that is more than a TTL ago, all of it
    // is stale. The count cap only restates the bound (time alone keeps it at three).
    for (let k = this.gens.length - 1; k >= 1; k--) {
      if (k < MAX_GENERATIONS && at - this.gens[k - 1]!.startedAt <= this.limits.ttlMs) break;
      this.gens.pop();
    }
    return this.gens[0]!;
  }

  private digest(g: Generation, key: string, item: ContentItem): ContentItem {
    const at = item.at;
    g.bloom ??= new Uint32Array(this.words);
    g.digestedFrom ??= item.id;
    if (!g.digest) {
      g.digest = {
        id: -1 - this.digests++,
        label:
          'content from outside your circle that Airlock kept only as a digest (the agent read more of it than Airlock lists by name)',
        kind: 'remote',
        tool: 'several tools',
        untrusted: true,
        private: false,
        at,
      };
      DIGESTS.add(g.digest);
    }
    // The newest time anything went in: the digest lives as long as its newest value.
    g.digest.at = Math.max(g.digest.at, at);
    bloomAdd(g.bloom, key);
    return g.digest;
  }
}

/** Digest items: each stands for every value of its generation's filter. */
const DIGESTS = new WeakSet<ContentItem>();

/**
 * Whether the item is a generation's digest, not one piece of content. A digest says "a stranger
 * may have given this value", never "this item gave exactly this link": it holds every value of
 * its filter (and, filled past its capacity, nearly every value), so a read-only fetch's link
 * found in it is not one written exactly as a stranger wrote it (taint-check.ts `verbatim`).
 */
export function isDigest(item: ContentItem): boolean {
  return DIGESTS.has(item);
}

/** Appends an item to a value's list, keeping its newest `ITEMS_PER_VALUE`. */
function push(list: ContentItem[], item: ContentItem): void {
  list.push(item);
  if (list.length > ITEMS_PER_VALUE) list.shift();
}

/**
 * Two 32-bit hashes of the key for double hashing: FNV-1a, and a multiply-xorshift one with
 * another multiplier and offset (measured against the ideal rate at 10–150 thousand values: the
 * review of the record found them within it).
 */
function hashes(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [a >>> 0, (b | 1) >>> 0];
}

function bloomAdd(bits: Uint32Array, key: string): void {
  const mask = bits.length * 32 - 1;
  const [a, b] = hashes(key);
  for (let i = 0; i < BLOOM_HASHES; i++) {
    const bit = (a + Math.imul(i, b)) & mask;
    bits[bit >>> 5]! |= 1 << (bit & 31);
  }
}

function bloomHas(bits: Uint32Array, key: string): boolean {
  const mask = bits.length * 32 - 1;
  const [a, b] = hashes(key);
  for (let i = 0; i < BLOOM_HASHES; i++) {
    const bit = (a + Math.imul(i, b)) & mask;
    if ((bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}
