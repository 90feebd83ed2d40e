import { createHash } from 'node:crypto';
import {
  ContentDescriber,
  PROVENANCE_META_KEY,
  type ObservedResult,
  type ProvenanceMetaItem,
} from './content-describer.js';
import {
  ContentIndex,
  DEFAULT_INDEX_LIMITS,
  type ContentItem,
  type IndexLimits,
} from './content-index.js';
import { circleKeysOf } from './destinations.js';
import { KnownParties } from './known-parties.js';
import { ObservedQueue } from './observed-queue.js';
import { checkCall, type CallFacts, type TaintReport } from './taint-check.js';

/**
 * Provenance per agent (issue 22, issue 30): what untrusted and private
 * content each agent received through Airlock, and whether a call it now
 * makes carries a stranger's destination or the user's private words out.
 *
 * `observe` runs on every result an agent receives (tool results, resources,
 * prompts, completions, the tool list's descriptions); `check` on every call
 * that would send, share, invite or write. Both are synchronous and bounded:
 * the index per agent is capped (ContentIndex), and at most `maxAgents`
 * agents are indexed (the least recently active is forgotten first).
 */

export { PROVENANCE_META_KEY, type ObservedResult, type ProvenanceMetaItem };

/** A tool as tools/list offered it to the agent: its description is a server's words too. */
export interface OfferedTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
  sourceKind: ObservedResult['sourceKind'];
  sourceLabel: string;
}

export interface ProvenanceOptions {
  limits?: IndexLimits;
  maxAgents?: number;
  known?: KnownParties;
  now?: () => number;
}

export class ProvenanceService {
  readonly known: KnownParties;
  private readonly agents = new Map<string, ContentIndex>();
  /** Results observed and not indexed yet, and when each was observed (`times`, same order). */
  private readonly queue = new ObservedQueue<ObservedResult>();
  /** The agent indexFor last put at the end of `agents` (most recently used): no need to move it. */
  private newest: string | undefined;
  /**
   * `drain` for nextTick, made once (not a closure per result): the queue's `take` bound to
   * `indexOne`, which is all `drain` does, with no function of its own run per call (issue 34).
   * Made in the constructor, once `indexOne` is.
   */
  private readonly drainSoon: () => void;
  private readonly limits: IndexLimits;
  private readonly maxAgents: number;
  private readonly now: () => number;
  private readonly describer: ContentDescriber;
  /** A digest of the last tool list indexed per agent, so an unchanged list is not indexed again. */
  private readonly toolLists = new Map<string, string>();

  constructor(o: ProvenanceOptions = {}) {
    this.limits = o.limits ?? DEFAULT_INDEX_LIMITS;
    this.maxAgents = o.maxAgents ?? 32;
    this.known = o.known ?? new KnownParties();
    this.now = o.now ?? Date.now;
    this.describer = new ContentDescriber(this.known);
    this.drainSoon = this.queue.take.bind(this.queue, this.indexOne);
  }

  /**
   * Takes a result the agent received. Indexing happens off the answer path: on `nextTick`, which
   * runs once the promise jobs of this turn are done — the answer that carries the result has
   * been handed to the agent's socket by then — and `check` first indexes anything still queued,
   * so no call is ever checked against an index that misses a result the agent already has.
   * Not `setImmediate` (issue 34): it made the event loop poll once more per call, an extra
   * `epoll_pwait` and loop turn per call (≈ 10–15 µs of CPU a call, docs/performance.md).
   * `r` is kept as given, not copied, until it is indexed: a caller passes an object of its own
   * and changes neither it nor its result after (every caller builds one per result).
   */
  observe(r: ObservedResult): void {
    if (this.queue.push(r, this.now())) process.nextTick(this.drainSoon);
  }

  /** Results observed and not indexed yet (tests: when indexing happens). */
  get pending(): number {
    return this.queue.size;
  }

  /**
   * The tools a third-party server offered this agent: descriptions and schemas are the
   * server's words, read by the model before any call (tool poisoning). Indexed as untrusted
   * content; an unchanged list is not indexed twice.
   */
  observeTools(agent: string, tools: readonly OfferedTool[]): void {
    const remote = tools.filter((t) => t.sourceKind === 'remote');
    if (remote.length === 0) return;
    const texts = remote.map(
      (t) => `${t.description ?? ''}\n${JSON.stringify(t.inputSchema ?? {})}`,
    );
    // Each tool's server, name and text as one JSON array: the texts joined by NUL gave one print
    // to lists a description holding NUL splits differently, and none named the server, so a list
    // that moved the same words to another server (or tool) kept the old items' labels.
    const print = createHash('sha256')
      .update(JSON.stringify(remote.map((t, i) => [t.sourceLabel, t.name, texts[i]])))
      .digest('base64');
    if (this.toolLists.get(agent) === print) return;
    this.toolLists.delete(agent);
    this.toolLists.set(agent, print);
    if (this.toolLists.size > this.maxAgents)
      this.toolLists.delete(this.toolLists.keys().next().value!);
    remote.forEach((t, i) =>
      this.observe({
        agent,
        tool: 'tools/list',
        sourceKind: 'remote',
        sourceLabel: t.sourceLabel,
        result: { content: [{ type: 'text', text: texts[i]! }] },
        label: `the description of the tool "${t.name}" from the server "${t.sourceLabel}"`,
      }),
    );
  }

  /** The taint report for a call, or null when nothing is suspicious. */
  check(agent: string, call: CallFacts): TaintReport | null {
    // A read-only first-party call sends nothing out: answered before any queued indexing runs,
    // so reads never pay for it on their answer path.
    if (call.readOnly && call.sourceKind !== 'remote') return null;
    // `drain`'s one step, without its call (issue 34: every call checked comes here).
    this.queue.take(this.indexOne);
    const now = this.now();
    // What the call sends whole (a file from a message): judged by the private-data rule even
    // when this agent never read it (it goes out all the same).
    const carried = call.carried?.length ? this.carriedItems(agent, call, now) : [];
    const index =
      this.agents.get(agent) ??
      (carried.length ? new ContentIndex(this.limits, this.now) : undefined);
    if (!index) return null;
    // An index that holds no private item, no value and no addressed item gives the check nothing
    // to match in any call (issue 34: the check after only short plain answers is this test
    // alone). What a call selects or shows is judged apart, and what it carries is private
    // content of its own: those take the full check (quiet-index.property.test.ts).
    if (carried.length === 0 && !call.selects && !call.shows && index.quiet()) return null;
    return checkCall(index, this.known, call, now, carried);
  }

  /** The source's description of what a call carries, as content items (never indexed). */
  private carriedItems(agent: string, call: CallFacts, now: number): ContentItem[] {
    if (call.sourceKind === 'remote') return [];
    try {
      return this.describer
        .itemsOf({
          agent,
          tool: call.tool,
          sourceKind: call.sourceKind,
          sourceLabel: call.sourceLabel,
          result: {
            content: [{ type: 'text', text: call.carried!.map((c) => c.label).join('\n') }],
            _meta: { [PROVENANCE_META_KEY]: call.carried },
          },
        })
        .map(({ item }, i) => ({ ...item, id: -1 - i, at: now }));
    } catch {
      return [];
    }
  }

  /** Indexes every queued result now. Never throws: provenance must not break a call. */
  drain(): void {
    this.queue.take(this.indexOne);
  }

  /** One queued result into its agent's index (made once, not a closure per drain). */
  private readonly indexOne = (r: ObservedResult, at: number): void => {
    try {
      const items = this.describer.itemsOf(r);
      if (items.length === 0) return;
      // The agent last indexed is already the most recently used (indexFor's first answer, here).
      const index =
        (r.agent === this.newest ? this.agents.get(r.agent) : undefined) ?? this.indexFor(r.agent);
      for (const { item, text } of items) index.add(item, text, at);
    } catch {
      // A result we cannot read is a result we cannot flag against; the call itself stands.
    }
  };

  /**
   * The user approved a call with these arguments: its destinations are now in the user's
   * circle (a stranger's address the user chose to write to stops being flagged).
   */
  learnFrom(args: Record<string, unknown>, schema?: Record<string, unknown>): void {
    for (const d of circleKeysOf(args, schema)) this.known.learn(d.kind, d.value);
  }

  /** Forgets an agent's content (its token was revoked, or its session ended). */
  forget(agent: string): void {
    this.drain();
    this.agents.delete(agent);
    this.toolLists.delete(agent);
  }

  /** Indexed keys per agent: for the memory bound's test and `status`. */
  sizes(): Record<string, number> {
    this.drain();
    return Object.fromEntries([...this.agents].map(([a, i]) => [a, i.size()]));
  }

  private indexFor(agent: string): ContentIndex {
    let index = this.agents.get(agent);
    if (index && agent === this.newest) return index;
    if (index) {
      // Map order is insertion order: re-insert to mark as most recently used.
      this.agents.delete(agent);
    } else {
      index = new ContentIndex(this.limits, this.now);
      while (this.agents.size >= this.maxAgents) {
        const oldest = this.agents.keys().next().value;
        if (oldest === undefined) break;
        this.agents.delete(oldest);
      }
    }
    this.agents.set(agent, index);
    this.newest = agent;
    return index;
  }
}

export { KnownParties, DEFAULT_INDEX_LIMITS };
