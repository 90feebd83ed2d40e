import type { Tool } from '@modelcontextprotocol/client';
import type { SourceNotice } from '../../tools/features.js';
import type { ToolDefinition } from '../../tools/types.js';
import { callingAgent, inCall } from '../relay/relay-scope.js';
import {
  listFeatures,
  NO_FEATURES,
  type FeatureLists,
  type RemoteFeatures,
} from './remote-features.js';
import { toDefinition } from './tool-definition.js';
import { listAllTools, type Upstream } from '../upstream/upstream.js';

/** The shared connection whose lists a ServerCatalog keeps, read when used. */
export interface CatalogedConnection {
  /** Whether `up`, opened by attempt `gen`, is still the shared connection. */
  current: (gen: number, up: Upstream) => boolean;
  features: RemoteFeatures;
  listMs: number;
  /** The lists changed. */
  emit: () => void;
  /** The shared resource or prompt lists were re-read after the server said they changed. */
  listsChanged?: () => void;
  trouble: (gen: number, up: Upstream, cause: Error) => void;
}

/**
 * What one remote server offers, as last read from its shared connection (server-connection.ts):
 * the tools and the other features' lists, re-read when the server says they changed (issue 14).
 */
export class ServerCatalog {
  defs: readonly ToolDefinition[] = [];
  /** The tools of the last connection, kept while the server is down (the Tools page shows them). */
  lastKnown: readonly ToolDefinition[] = [];
  lists: FeatureLists = NO_FEATURES;

  constructor(private readonly c: CatalogedConnection) {}

  /** A new connection's lists. */
  set(tools: Tool[], lists: FeatureLists): void {
    this.defs = this.lastKnown = dedupe(tools.map(toDefinition));
    this.lists = lists;
    this.c.features.noteCut(lists);
  }

  /** The server is down: it offers nothing. */
  clear(): void {
    this.defs = [];
    this.lists = NO_FEATURES;
  }

  async refreshTools(gen: number, up: Upstream): Promise<void> {
    if (!this.c.current(gen, up)) return;
    try {
      this.updateTools(gen, up, await listAllTools(up, this.c.listMs));
    } catch (err) {
      this.c.trouble(gen, up, err as Error);
    }
  }

  /** Log lines and updates go to agents; changed lists are re-read first, then announced. */
  notice(gen: number, up: Upstream, n: SourceNotice): void {
    if (!this.c.current(gen, up)) return;
    if (n.kind !== 'resources-changed' && n.kind !== 'prompts-changed') {
      // A log line sent on one call's stream of the shared connection belongs to that call's
      // agent alone (and goes on that call's own stream); only lines outside any call
      // (server-wide) go to every agent that asked.
      const agent = callingAgent();
      return this.c.features.notice(agent === undefined ? n : inCall(n, agent));
    }
    this.relist(gen, up, n);
  }

  /**
   * Re-reads the lists after a change, one reading at a time per connection: changes said while
   * one is under way are read once more after it, together (a server that says its lists changed
   * faster than they can be read costs two readings, not one each). Each change is announced
   * after a reading that began after it was said.
   */
  private relist(gen: number, up: Upstream, n: SourceNotice): void {
    let r = this.relists.get(up);
    if (!r) this.relists.set(up, (r = { owed: new Map(), running: null }));
    r.owed.set(n.kind, n);
    if (r.running) return;
    const state = r;
    r.running = (async () => {
      try {
        while (state.owed.size && this.c.current(gen, up)) {
          const told = [...state.owed.values()];
          state.owed.clear();
          let lists: FeatureLists;
          try {
            lists = await listFeatures(up, this.c.listMs);
          } catch (err) {
            return this.c.trouble(gen, up, err as Error);
          }
          if (!this.c.current(gen, up)) return;
          this.lists = lists;
          this.c.features.noteCut(lists);
          for (const change of told) this.c.features.notice(change);
          this.c.emit();
          this.c.listsChanged?.();
        }
      } finally {
        state.owed.clear();
        state.running = null;
      }
    })();
  }
  private readonly relists = new WeakMap<
    Upstream,
    { owed: Map<SourceNotice['kind'], SourceNotice>; running: Promise<void> | null }
  >();

  /** Resolves when the re-reading of `up`'s lists under way, and any it owes, is over. */
  async relisted(up: Upstream): Promise<void> {
    await this.relists.get(up)?.running;
  }

  updateTools(gen: number, up: Upstream, tools: Tool[]): void {
    if (!this.c.current(gen, up)) return;
    const defs = dedupe(tools.map(toDefinition));
    if (JSON.stringify(defs) === JSON.stringify(this.defs)) return;
    this.defs = this.lastKnown = defs;
    this.c.emit();
  }
}

/** Tool names must be unique within a source; a server listing one twice keeps the first. */
function dedupe(defs: ToolDefinition[]): ToolDefinition[] {
  const seen = new Set<string>();
  return defs.filter((d) => !seen.has(d.name) && seen.add(d.name));
}
