import { UNTRUSTED_META_KEY, untrustedNote } from '../tools/untrusted.js';
import type { CallToolResult } from '../tools/types.js';
import {
  ContentIndex,
  DEFAULT_INDEX_LIMITS,
  type ContentItem,
  type IndexLimits,
} from './content-index.js';
import { KnownParties } from './known-parties.js';
import { checkCall, destinationsIn, type CallFacts, type TaintReport } from './taint-check.js';

/**
 * Provenance per agent (issue 22): what untrusted and private content each
 * agent received through Airlock, and whether a call it now makes carries a
 * stranger's destination or the user's private words out.
 *
 * `observe` runs on every result an agent receives; `check` on every call
 * that would send, share, invite or write. Both are synchronous and bounded:
 * the index per agent is capped (ContentIndex), and at most `maxAgents`
 * agents are indexed (the least recently active is forgotten first).
 */

/** `_meta` key under which a source describes what a result holds. */
export const PROVENANCE_META_KEY = 'airlock/provenance';

/** One piece of content as a source describes it in `_meta["airlock/provenance"]`. */
export interface ProvenanceMetaItem {
  kind: ContentItem['kind'];
  label: string;
  ref?: string;
  from?: string[];
  private?: boolean;
  /** Set by the source when it knows; otherwise mail is untrusted when a sender is not known. */
  untrusted?: boolean;
  /** This item's own text; without it, the whole result's text is attributed to it. */
  text?: string;
}

export interface ObservedResult {
  agent: string;
  tool: string;
  sourceKind: 'builtin' | 'google' | 'remote' | 'test';
  sourceLabel: string;
  result: CallToolResult;
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
  private readonly queue: (ObservedResult & { at: number })[] = [];
  private readonly limits: IndexLimits;
  private readonly maxAgents: number;
  private readonly now: () => number;

  constructor(o: ProvenanceOptions = {}) {
    this.limits = o.limits ?? DEFAULT_INDEX_LIMITS;
    this.maxAgents = o.maxAgents ?? 32;
    this.known = o.known ?? new KnownParties();
    this.now = o.now ?? Date.now;
  }

  /**
   * Takes a result the agent received. Indexing happens off the answer path (on the next turn
   * of the event loop), and `check` first indexes anything still queued, so no call is ever
   * checked against an index that misses a result the agent already has.
   */
  observe(r: ObservedResult): void {
    this.queue.push({ ...r, at: this.now() });
    if (this.queue.length === 1) setImmediate(() => this.drain());
  }

  /** The taint report for a call, or null when nothing is suspicious. */
  check(agent: string, call: CallFacts): TaintReport | null {
    // A read-only first-party call sends nothing out: answered before any queued indexing runs,
    // so reads never pay for it on their answer path.
    if (call.readOnly && call.sourceKind !== 'remote') return null;
    this.drain();
    const index = this.agents.get(agent);
    if (!index) return null;
    return checkCall(index, this.known, call, this.now());
  }

  /** Indexes every queued result now. Never throws: provenance must not break a call. */
  drain(): void {
    const queued = this.queue.splice(0);
    for (const r of queued) {
      try {
        const items = this.itemsOf(r);
        if (items.length === 0) continue;
        const index = this.indexFor(r.agent);
        for (const { item, text } of items) index.add(item, text, r.at);
      } catch {
        // A result we cannot read is a result we cannot flag against; the call itself stands.
      }
    }
  }

  /**
   * The user approved a call with these arguments: its destinations are now in the user's
   * circle (a stranger's address the user chose to write to stops being flagged).
   */
  learnFrom(args: Record<string, unknown>): void {
    for (const d of destinationsIn(args)) this.known.learn(d.kind, d.value);
  }

  /** Forgets an agent's content (its token was revoked, or its session ended). */
  forget(agent: string): void {
    this.drain();
    this.agents.delete(agent);
  }

  /** Indexed keys per agent: for the memory bound's test and `status`. */
  sizes(): Record<string, number> {
    this.drain();
    return Object.fromEntries([...this.agents].map(([a, i]) => [a, i.size()]));
  }

  private indexFor(agent: string): ContentIndex {
    let index = this.agents.get(agent);
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
    return index;
  }

  private itemsOf(r: ObservedResult): { item: Omit<ContentItem, 'id' | 'at'>; text: string }[] {
    const whole = textOf(r.result, untrustedNote(r.sourceLabel));
    if (!whole) return [];
    const meta = (r.result._meta ?? {}) as Record<string, unknown>;
    const described = meta[PROVENANCE_META_KEY];
    if (Array.isArray(described)) {
      return (described as ProvenanceMetaItem[]).map((d) => {
        const from = (d.from ?? []).map((f) => f.toLowerCase());
        const untrusted =
          d.untrusted ??
          (d.kind === 'mail' ? from.some((f) => !this.known.isKnownAddress(f)) : true);
        return {
          item: {
            kind: d.kind,
            label: d.label,
            ...(d.ref ? { ref: d.ref } : {}),
            ...(from.length ? { from } : {}),
            untrusted,
            private: d.private ?? d.kind === 'mail',
            tool: r.tool,
          },
          text: d.text ?? whole,
        };
      });
    }
    if (r.sourceKind === 'remote' || meta[UNTRUSTED_META_KEY]) {
      return [
        {
          item: {
            kind: 'remote',
            label: `a result of ${r.tool} from the server "${r.sourceLabel}"`,
            ref: r.sourceLabel,
            untrusted: true,
            private: false,
            tool: r.tool,
          },
          text: whole,
        },
      ];
    }
    if (r.sourceKind === 'google') {
      // A Google result that does not describe itself: private, and a stranger's words when
      // any sender named in it is outside the user's circle.
      const from = [...whole.matchAll(/^(?:From|Reply-To): .*?([^\s<>"]+@[^\s<>"]+)/gim)].map((m) =>
        (m[1] ?? '').toLowerCase(),
      );
      return [
        {
          item: {
            kind: 'mail',
            label: from.length ? `mail from ${from[0]}` : `a result of ${r.tool}`,
            ...(from.length ? { from } : {}),
            untrusted: from.some((f) => !this.known.isKnownAddress(f)),
            private: true,
            tool: r.tool,
          },
          text: whole,
        },
      ];
    }
    return [];
  }
}

/** The result's words, without Airlock's own untrusted-content note (`skip`): that is not the server's. */
function textOf(result: CallToolResult, skip?: string): string {
  const parts: string[] = [];
  for (const c of result.content ?? []) {
    if (c.type === 'text') {
      if (c.text !== skip) parts.push(c.text);
    } else if (c.type === 'resource' && 'text' in c.resource && typeof c.resource.text === 'string')
      parts.push(c.resource.text);
  }
  if (result.structuredContent) parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}

export { KnownParties, DEFAULT_INDEX_LIMITS };
