import { mayAddress } from './addressed-instructions.js';
import { secretsIn } from './secrets.js';
import { contentValues, readingsOf } from './readings.js';
import { InstructedRecord, type AddressedItem } from './instructed-effects.js';
import { plainWords } from './plain-text.js';
import { StrangerDestinations } from './stranger-destinations.js';
import { extractValues, shingles, SHINGLE_WORDS, type SignificantValue } from './values.js';
import {
  FORM_FILTER_BITS,
  filterBit,
  formHash,
  formsIn,
  formsOf,
  type SecretForm,
} from './secret-forms.js';

/**
 * What one agent received through Airlock, indexed for the taint check
 * (issue 22): which values and which phrases came from which content.
 *
 * Bounded in memory and time. Keys live in two generations: new keys go to
 * `current`; when it holds more than the budget (or is older than half the
 * time-to-live) it becomes `previous` and the old `previous` is dropped
 * whole. So memory never exceeds two generations' budget (each may pass it by
 * the one item that filled it; `maxKeys`), no entry is
 * walked to expire it, and anything read within the last TTL/2 is always
 * still there. Items older than the TTL are ignored at lookup.
 *
 * The agent decides how much it reads, so what a generation's budget evicts is the attacker's to
 * choose: the destinations strangers gave are also kept in a record that ages by time alone
 * (stranger-destinations.ts), and every lookup of a value reads both.
 */

export interface ContentItem {
  id: number;
  /**
   * What it was and where in it, for the card: 'a message from unknown@evil.example
   * ("Invoices")', 'the attachment "notes.txt" of a message from …', 'message 3 of 5 of the
   * thread "…", from …', 'the event "…" organised by …'.
   */
  label: string;
  kind: 'mail' | 'event' | 'remote' | 'web' | 'local';
  /** Message id, server name, URL: what the user can open. */
  ref?: string;
  /** Who wrote it (From / Reply-To, an event's organiser), canonical addresses (identity.ts). */
  from?: string[];
  /**
   * Of `from`, the addresses a mail's Reply-To names outside the organisation of its From, beside
   * the sender's own or under a From the user knows (content-describer.ts replyElsewhere): authors
   * for trust (the mail is a stranger's if one is), no party to it (parties.ts isParty).
   */
  replyElsewhere?: string[];
  /** Who already has it besides its authors (To, Cc, an event's guests), canonical addresses. */
  audience?: string[];
  /** A stranger's words (mail from outside the user's circle, a third-party server's result). */
  untrusted: boolean;
  /**
   * The stranger's words address the agent (instructed-effects.ts InstructedRecord.note): then
   * only its author is a party to it (parties.ts isAddressedParty). Kept on the item, which lives
   * as long as anything in it can be found, not only in the record of the eight newest such
   * items: eight more addressing mails read after it must not make its other parties parties
   * again (review of batch 7).
   */
  addressesAgent?: true;
  /** The user's private data (their mail, their calendar). */
  private: boolean;
  /** The user's own words: mail they sent or drafted, events they organise. */
  own?: boolean;
  /** Her own words not sent yet (a draft): its audience has not received it. */
  draft?: boolean;
  /** Public tool name that returned it. */
  tool: string;
  at: number;
}

export interface IndexLimits {
  /** Distinct values + phrase hashes + items per generation. */
  keysPerGeneration: number;
  ttlMs: number;
  /**
   * Strangers' destinations + their items named per generation of the time-only record
   * (stranger-destinations.ts); a quarter of `keysPerGeneration` when not given.
   */
  strangerKeysPerGeneration?: number;
  /** Bits of each of that record's Bloom filters (default 2^19: 64 KiB, made at a first overflow). */
  strangerBloomBits?: number;
}

export const DEFAULT_INDEX_LIMITS: IndexLimits = {
  keysPerGeneration: 40_000,
  ttlMs: 2 * 60 * 60 * 1000,
};

/** The stranger record's budget per generation under these limits. */
export function strangerKeysOf(limits: IndexLimits): number {
  return limits.strangerKeysPerGeneration ?? Math.ceil(limits.keysPerGeneration / 4);
}

/**
 * The most keys `size()` can reach: two generations of the phrase index, each of which may pass
 * its budget by one item's keys (a generation rotates before an add, not during it), plus three
 * generations of the stranger record. Its Bloom filters are fixed-size besides (three at most).
 */
export function maxKeys(limits: IndexLimits, keysOfOneItem: number): number {
  return 2 * (limits.keysPerGeneration + keysOfOneItem) + 3 * strangerKeysOf(limits);
}

interface Generation {
  values: Map<string, number[]>;
  refs: Map<string, number>;
  phrases: Map<number, number>;
  items: Map<number, ContentItem>;
  /** How many references, value lists and phrases point at each item. */
  holds: Map<number, number>;
  keys: number;
  /** Items in `items` that are private: none, and no call can carry private content out. */
  privates: number;
  startedAt: number;
  /** The id the generation's first item gets: it holds every item since, with `current`. */
  firstId: number;
  /**
   * The forms of the private items' codes and keys (secret-forms.ts), by their first characters'
   * hash, and a bit per hash (made with the first form): rule 2 reads a call's stream against them.
   */
  forms: Map<number, SecretForm[]>;
  formBits?: Uint8Array;
  /** The values whose forms are held: a value first seen in an item not private gets them too. */
  formed: Set<string>;
}

/** The values a generation holds forms of at most (`addForms`). */
export const MAX_FORMED_VALUES = 64;

// The kinds of value that have forms (secret-forms.ts `formsOf`).
const FORMED = new Set(['secret', 'token']);

const newGeneration = (now: number, firstId: number): Generation => ({
  values: new Map(),
  refs: new Map(),
  phrases: new Map(),
  items: new Map(),
  holds: new Map(),
  keys: 0,
  privates: 0,
  startedAt: now,
  firstId,
  forms: new Map(),
  formed: new Set(),
});

/**
 * Items per value kept, of each side (`side` below): a stranger's, the user's own mail sent to the
 * address, and the rest. The newest of each
 * side win (the card names a few, not all), and one side never pushes the other out: an agent
 * that writes a stranger's address into the user's draft, label or event and reads it back four
 * times must not leave the user's own copies as the only place the address was seen — the act
 * on it is judged by where it came from (docs/provenance.md, "Laundering through the user's own
 * places") — nor a stranger's mails naming the user's contact push out her own sent mail to it.
 */
const ITEMS_PER_VALUE = 4;

/**
 * Which side of a value's list an item is on: a stranger's (one that addresses the agent, or
 * another); the user's own mail sent to this
 * very address (what `sentBefore` in parties.ts reads: "you have sent to it before"); the rest.
 * Without the middle side, the agent's own drafts or labels naming a contact, read back four
 * times, pushed out her sent mail to the contact, and a later mail to them was flagged as new.
 */
function side(item: ContentItem, v: Pick<SignificantValue, 'kind' | 'value'>): 0 | 1 | 2 | 3 {
  // A stranger's words that address the agent are a side of their own: the same organisation's
  // ordinary mails naming the address, to which it is a party, must not push out the one that
  // told the agent to use it (parties.ts isAddressedParty; review of batch 7).
  if (item.untrusted) return item.addressesAgent ? 3 : 0;
  return v.kind === 'email' && sentTo(item, v.value) ? 1 : 2;
}

/**
 * The user's own mail that went to this canonical address: her words, with the address in its
 * To, Cc or Bcc — mail, not a draft nor an event she organises (an agent that may write those
 * without asking could otherwise address one to anyone, even with no invitation sent, and read
 * it back).
 */
export function sentTo(item: ContentItem, address: string): boolean {
  return (
    item.kind === 'mail' &&
    item.own === true &&
    item.draft !== true &&
    item.audience?.includes(address) === true
  );
}

export class ContentIndex {
  private current: Generation;
  private previous: Generation;
  private nextId = 1;
  private readonly strangers: StrangerDestinations;
  /** Strangers' items that addressed the agent (a few, newest kept): the instructed-effect rule. */
  private readonly addressed = new InstructedRecord();
  /** Whether `addressed` ever noted an item (it never empties): `quiet` reads it. */
  private addressedAny = false;

  constructor(
    private readonly limits: IndexLimits = DEFAULT_INDEX_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.current = newGeneration(now(), this.nextId);
    this.previous = newGeneration(now(), this.nextId);
    this.strangers = new StrangerDestinations(
      {
        keysPerGeneration: strangerKeysOf(limits),
        bloomBits: limits.strangerBloomBits ?? 2 ** 19,
        ttlMs: limits.ttlMs,
      },
      now,
    );
  }

  /** Indexes one piece of content the agent received. */
  add(item: Omit<ContentItem, 'id' | 'at'>, text: string, at = this.now()): ContentItem {
    const now = at;
    // The rotation's test here, not in a call per result (issue 34): it rotates seldom.
    const g0 = this.current;
    if (g0.keys >= this.limits.keysPerGeneration || now - g0.startedAt >= this.limits.ttlMs / 2)
      this.rotate(now);
    const full: ContentItem = { ...item, id: this.nextId++, at: now };
    // Short plain text holds no value, as written or as read (plain-text.ts): not read at all.
    const plain = plainWords(text);
    // Other readings (readings.ts) only for a stranger's words: rule 1 looks for a destination in
    // untrusted content alone, so the user's own mail is keyed as written and costs no more.
    const other = plain < 0 && full.untrusted ? readingsOf(text) : [];
    const values: Pick<SignificantValue, 'kind' | 'value'>[] =
      plain >= 0 ? [] : full.untrusted ? contentValues(text, other) : extractValues(text);
    // A stranger's words that address the agent, as written or as read (instructed-effects.ts).
    // A plain text has no reference, markup or letter outside ASCII to read past and no other
    // reading, so the patterns' prefilter alone refuses it, as addressedIn would after reading it
    // as written, unfolded and without markup (issue 34; plain-address.property.test.ts).
    if (full.untrusted && (plain < 0 || mayAddress(text)) && this.addressed.note(full, text, other))
      this.addressedAny = true;
    // Short secrets (a bank's 6-digit code) matter only where they are the user's: private content.
    if (full.private)
      for (const s of secretsIn(text)) values.push({ kind: 'secret', value: s.value });
    // Phrases matter for private content (it must not leave) and for untrusted content (its
    // words must not become the user's); other content is not indexed by phrase.
    const phrases =
      (full.private || full.untrusted) && !(plain >= 0 && plain < SHINGLE_WORDS)
        ? shingles(text)
        : [];
    const g = this.current;
    const id = full.id;
    g.items.set(id, full);
    if (full.private) g.privates++;
    g.holds.set(id, 0);
    g.keys++; // items count toward the budget too, so the bound holds whatever they index
    if (full.ref) this.point(g, g.refs, full.ref, id);
    // Indexed loops, not `for…of`: an iterator and its results on every result indexed (issue
    // 34, wave 3 session 32). Both arrays are this call's own.
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      // A private item's code or key, new to this generation: its forms are read in a call's
      // stream (secret-forms.ts), at most MAX_FORMED_VALUES a generation.
      // Keyed by the value, not by whether the generation held it: a code first read in an item
      // that is not private (a calendar entry) and then in a private mail gets its forms then.
      if (full.private && FORMED.has(v.kind) && !g.formed.has(`${v.kind}:${v.value}`))
        this.addForms(g, v);
      this.addValue(g, v, id);
    }
    // The stranger record keeps destinations only: with no value there is nothing to add.
    if (full.untrusted && values.length > 0) this.strangers.add(full, values);
    for (let i = 0; i < phrases.length; i++) {
      const h = phrases[i]!;
      if (!g.phrases.has(h)) g.keys++;
      this.point(g, g.phrases, h, id);
    }
    // Nothing points at it (no values, no phrases, no reference): it could never be found.
    if (g.holds.get(id) === 0) this.drop(g, id);
    return full;
  }

  /**
   * Content items (newest first) in which this value appeared, within the TTL: the generations'
   * and the stranger record's (which keeps a stranger's items the generations let go).
   */
  itemsWithValue(v: Pick<SignificantValue, 'kind' | 'value'>): ContentItem[] {
    const key = `${v.kind}:${v.value}`;
    const now = this.current.values.get(key);
    const before = this.previous.values.get(key);
    const held = now || before ? this.live([...(now ?? []), ...(before ?? [])]) : [];
    if (!this.strangers.has(v)) return held;
    const ids = new Set(held.map((i) => i.id));
    const kept = this.strangers
      .itemsWith(v, (from) => this.namesStrangersSince(key, from))
      .filter((i) => !ids.has(i.id));
    if (kept.length === 0) return held;
    // Item ids grow with time; a digest's id is negative: it comes last.
    return [...held, ...kept].sort((a, b) => b.id - a.id);
  }

  /**
   * Whether the generations still list every stranger item from `id` on that named the value:
   * both generations hold every item since then, and no list of the value dropped a stranger's
   * item of that age (a list drops its oldest of a side, and only once it holds four of it).
   */
  private namesStrangersSince(key: string, id: number): boolean {
    if (this.previous.firstId > id) return false;
    for (const g of [this.current, this.previous]) {
      let n = 0;
      let oldest = Infinity;
      for (const i of g.values.get(key) ?? []) {
        if (!g.items.get(i)!.untrusted) continue;
        n++;
        oldest = Math.min(oldest, i);
      }
      if (n >= ITEMS_PER_VALUE && oldest > id) return false;
    }
    return true;
  }

  /** The strangers' items that addressed the agent within the TTL, newest first. */
  addressedSince(): AddressedItem[] {
    return this.addressed.since(this.now(), this.limits.ttlMs);
  }

  /** Whether any item (live or not) holds this value: a cheap test before itemsWithValue. */
  hasValue(v: Pick<SignificantValue, 'kind' | 'value'>): boolean {
    const key = `${v.kind}:${v.value}`;
    return this.current.values.has(key) || this.previous.values.has(key) || this.strangers.has(v);
  }

  /**
   * Whether any private code or key of MIN_FORM characters or more is held (live or stale): without
   * one, no form can match, and the rule's other readings for them (call-spellings.ts) are skipped.
   */
  holdsForms(): boolean {
    return this.current.formBits !== undefined || this.previous.formBits !== undefined;
  }

  /**
   * The private codes and keys whose forms (as written, backwards, ROT13, and in the common
   * encodings and compositions of two made when they were indexed; secret-forms.ts) occur
   * anywhere in a call's stream of letters and digits, each value once: one pass over the text
   * whatever the number of forms. Their items are then looked up as any value's are
   * (`itemsWithValue`), so age and privacy are judged as for a code written plainly.
   */
  valuesInStream(text: string): Pick<SignificantValue, 'kind' | 'value'>[] {
    const held = [this.current, this.previous].filter((g) => g.formBits);
    if (held.length === 0) return [];
    const lookup = (h: number) => held.flatMap((g) => g.forms.get(h) ?? []);
    const out = new Map<string, Pick<SignificantValue, 'kind' | 'value'>>();
    for (const f of formsIn(
      text,
      held.map((g) => g.formBits!),
      lookup,
    ))
      out.set(`${f.key.kind}:${f.key.value}`, f.key);
    return [...out.values()];
  }

  /** The live item with this reference (message id, server name), if any. */
  itemsWithRef(ref: string): ContentItem[] {
    return this.live(
      [this.current.refs.get(ref), this.previous.refs.get(ref)].filter(
        (x): x is number => x !== undefined,
      ),
    );
  }

  /** Items that contain any of these phrase hashes, with how many each matched. */
  itemsWithPhrases(hashes: number[]): Map<ContentItem, number> {
    const counts = new Map<number, number>();
    for (const h of hashes) {
      const id = this.current.phrases.get(h) ?? this.previous.phrases.get(h);
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const out = new Map<ContentItem, number>();
    for (const [id, n] of counts) {
      const item = this.item(id);
      if (item && this.fresh(item)) out.set(item, n);
    }
    return out;
  }

  /**
   * Whether any item held, live or stale, is private (the user's mail, calendar, files). Without
   * one no phrase, key, code or reference of a call can match private content, so rule 2 of the
   * taint check cannot find anything (taint-check.ts skips it; issue 34).
   */
  holdsPrivate(): boolean {
    return this.current.privates + this.previous.privates > 0;
  }

  /**
   * Whether the taint check can find nothing in any call (issue 34): no private item (rule 2 has
   * nothing to name), no value in either generation nor in the stranger record (rule 1 looks a
   * destination up by value alone: parties.ts itemsNaming, hasValue), and no stranger ever
   * addressed the agent (rule 3). Live or stale alike, so it only ever says so when the full check
   * would answer null (quiet-index.property.test.ts); an agent that has read only short plain
   * answers ("Echo: m12") is checked at the cost of this test.
   */
  quiet(): boolean {
    return (
      this.current.privates + this.previous.privates === 0 &&
      this.current.values.size + this.previous.values.size === 0 &&
      !this.addressedAny &&
      this.strangers.empty()
    );
  }

  /**
   * Keys (values, phrases, items) held now in both generations and in the stranger record: what
   * the memory bound is stated in (`maxKeys`).
   */
  size(): number {
    return this.current.keys + this.previous.keys + this.strangers.size();
  }

  /** The stranger record's generations and filters: for the memory bound's test. */
  strangerShape(): { generations: number; filters: number } {
    return this.strangers.shape();
  }

  /**
   * A value's forms (secret-forms.ts: a couple of hundred, about 27 KiB) are not keys toward the
   * generation's budget — counted so, they rotated generations several times sooner and the
   * check read two of them more often (review of the encoded forms: p99 of issue 30's corpus) —
   * but bounded apart: at most MAX_FORMED_VALUES values a generation have them (3.5 MiB for
   * two). A code past them is read as written and backwards only (private-data-rule.ts).
   */
  private addForms(g: Generation, v: Pick<SignificantValue, 'kind' | 'value'>): void {
    if (g.formed.size >= MAX_FORMED_VALUES) return;
    // A value with no forms (a code under MIN_FORM characters: a PIN) takes no place among them:
    // else a mail of 64 PINs left the generation's later codes without theirs (review).
    const forms = formsOf(v);
    if (forms.length === 0) return;
    g.formed.add(`${v.kind}:${v.value}`);
    for (const f of forms) {
      const h = formHash(f.text);
      const list = g.forms.get(h);
      if (list) list.push(f);
      else g.forms.set(h, [f]);
      const bits = (g.formBits ??= new Uint8Array(FORM_FILTER_BITS / 8));
      const b = filterBit(h);
      bits[b >> 3] = bits[b >> 3]! | (1 << (b & 7));
    }
  }

  private addValue(g: Generation, v: Pick<SignificantValue, 'kind' | 'value'>, id: number): void {
    const key = `${v.kind}:${v.value}`;
    let ids = g.values.get(key);
    if (!ids) {
      ids = [];
      g.values.set(key, ids);
      g.keys++;
    }
    if (ids[ids.length - 1] === id) return;
    ids.push(id);
    this.hold(g, id, 1);
    if (ids.length <= ITEMS_PER_VALUE) return;
    // Every id in a generation's list is an item of that generation, held by the list.
    const sideOf = (i: number) => side(g.items.get(i)!, v);
    const mine = sideOf(id);
    let first = -1;
    let count = 0;
    for (let k = 0; k < ids.length; k++) {
      if (sideOf(ids[k]!) !== mine) continue;
      if (first < 0) first = k;
      count++;
    }
    if (count > ITEMS_PER_VALUE) this.hold(g, ids.splice(first, 1)[0]!, -1);
  }

  /** `map[key] = id`, moving the hold from the item it pointed at before. */
  private point<K>(g: Generation, map: Map<K, number>, key: K, id: number): void {
    const old = map.get(key);
    if (old === id) return;
    map.set(key, id);
    this.hold(g, id, 1);
    if (old !== undefined) this.hold(g, old, -1);
  }

  /**
   * Counts what points at an item (its reference, value lists, phrases). An item nothing points
   * at any more can never be found again and is dropped at once: a stream of results that all
   * say the same thing ("Echo: m1", "Echo: m2", … under one untrusted banner) keeps one item,
   * not one per call (issue 20, heap flat over long runs).
   */
  private hold(g: Generation, id: number, delta: number): void {
    const n = (g.holds.get(id) ?? 0) + delta;
    if (n > 0) g.holds.set(id, n);
    else this.drop(g, id);
  }

  private drop(g: Generation, id: number): void {
    const item = g.items.get(id);
    if (item && g.items.delete(id)) {
      g.keys--;
      if (item.private) g.privates--;
    }
    g.holds.delete(id);
  }

  private item(id: number): ContentItem | undefined {
    return this.current.items.get(id) ?? this.previous.items.get(id);
  }

  private fresh(item: ContentItem): boolean {
    return this.now() - item.at <= this.limits.ttlMs;
  }

  private live(ids: number[]): ContentItem[] {
    const seen = new Set<number>();
    const out: ContentItem[] = [];
    for (const id of ids.reverse()) {
      if (seen.has(id)) continue;
      seen.add(id);
      const item = this.item(id);
      if (item && this.fresh(item)) out.push(item);
    }
    return out;
  }

  /** A new generation, once the current one is full or half the TTL old (add tests which). */
  private rotate(now: number): void {
    this.previous = this.current;
    this.current = newGeneration(now, this.nextId);
  }
}
