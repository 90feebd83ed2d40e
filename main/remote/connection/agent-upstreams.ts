import type { ClientRelay } from '../../tools/relay.js';
import { AgentSessions } from './agent-sessions.js';
import { inCall, relayHandler } from '../relay/relay-scope.js';
import {
  listFeatures,
  type FeatureLists,
  type RemoteFeatures,
} from '../catalog/remote-features.js';
import type { RemoteConnection, RemoteTimings } from './timings.js';
import type { Resolver } from '../http/address-guard.js';
import type { UrlCompletions } from '../relay/url-completions.js';
import { connectUpstream, type Upstream } from '../upstream/upstream.js';

/** Bound on agents' own upstream sessions per server; the least recently used idle one closes first. */
const MAX_AGENT_SESSIONS = 16;

/** What an agent's own session is opened from: the server's current connection, read when used. */
export interface AgentUpstreamsOptions {
  label: string;
  version: string;
  t: RemoteTimings;
  features: RemoteFeatures;
  conn: () => RemoteConnection;
  /** The shared connection, when up. */
  shared: () => Upstream | null;
  /** The lists the shared connection last read (what an agent without lists of its own sees). */
  sharedLists: () => FeatureLists;
  /** The agent's open request, for upstream sampling/elicitation on its own session. */
  relays: (agent: string) => ClientRelay | undefined;
  /** The server's URL-mode elicitations shown to agents (url-completions.ts). */
  completions: UrlCompletions;
  /** The resolver the session connects by (address-guard.ts); the system's by default. */
  resolve?: Resolver;
  /** Whether the user lets this server's requests reach agents (relay-scope.ts). */
  relayAllowed?: () => boolean;
  /** The connection's redactor, for what the server asks agents (relay-scope.ts). */
  redact?: <T extends object>(x: T) => T;
}

/**
 * Each agent's own upstream session for stateful servers (issue 14, item 4), beside the
 * connection everyone shares (server-connection.ts).
 */
export class AgentUpstreams {
  readonly sessions: AgentSessions;
  /**
   * The lists an agent's own session gave after it said they changed: a resource a call adds
   * to that session (server-everything's gzip-file-as-resource) exists there only. Keyed by the
   * session, so a closed or replaced one's lists are gone with it.
   */
  private readonly own = new WeakMap<Upstream, FeatureLists>();

  constructor(private readonly o: AgentUpstreamsOptions) {
    this.sessions = new AgentSessions((agent) => this.connectFor(agent), MAX_AGENT_SESSIONS, {
      ms: o.t.agentSessionIdleMs,
      keep: (agent) => o.features.hasState(agent),
    });
  }

  /** A stateful server keeps per-session state, so each agent gets its own session (issue 14, item 4). */
  stateful(up: Upstream): boolean {
    // A local (stdio) server is one process: agents share it, or each would start its own.
    if (up.transport === 'stdio') return false;
    return up.transport === 'sse' || up.hasSession();
  }

  /** The session an agent's request runs on: its own for a stateful server, else the shared one. */
  async upFor(agent: string): Promise<Upstream> {
    const shared = this.o.shared();
    if (!shared || !this.stateful(shared)) {
      if (!shared) throw new Error('not connected');
      return shared;
    }
    return this.sessions.get(agent);
  }

  /**
   * `upFor`'s answer without a promise where it is in hand (the shared connection, or the agent's
   * own session already open); undefined where `upFor` must be awaited (connecting, not connected).
   */
  upNow(agent: string): Upstream | undefined {
    const shared = this.o.shared();
    if (!shared) return undefined;
    return this.stateful(shared) ? this.sessions.openUse(agent) : shared;
  }

  /** The agent's own session when one is open (or `open` asks for one). */
  async agentUp(agent: string, open: boolean): Promise<Upstream | null> {
    if (!open && !this.sessions.agents().includes(agent)) return null;
    return this.sessions.get(agent).catch(() => null);
  }

  /**
   * What the agent lists from this server: its own session's lists once that session said they
   * changed, else the shared connection's. Never another agent's (one session per agent).
   */
  listsFor(agent: string): FeatureLists | undefined {
    const up = this.sessions.openNow(agent);
    return up && this.own.get(up);
  }

  /**
   * Re-reads the agent's own session's lists after it said they changed, and tells that agent
   * (only) when what it would list is different: `notifications/resources/list_changed` or
   * `…/prompts/list_changed`, as a direct client would hear it.
   */
  private relist(agent: string, up: Upstream): Promise<void> {
    // One at a time per session, so an older listing never lands after a newer one.
    const next = (this.relisting.get(up) ?? Promise.resolve()).then(() =>
      this.relistNow(agent, up),
    );
    this.relisting.set(up, next);
    return next;
  }
  private readonly relisting = new WeakMap<Upstream, Promise<void>>();

  private async relistNow(agent: string, up: Upstream): Promise<void> {
    let lists: FeatureLists;
    try {
      lists = await listFeatures(up, this.o.t.listMs);
    } catch {
      return; // The session failed; its next request reopens one, and the shared lists stand.
    }
    // Still the agent's session (one that said so while opening is registered once it is open).
    if ((await this.sessions.current(agent)?.catch(() => null)) !== up) return;
    const before = this.own.get(up) ?? this.o.sharedLists();
    this.own.set(up, lists);
    this.o.features.noteCut(lists);
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    if (!same([before.resources, before.templates], [lists.resources, lists.templates]))
      this.o.features.notice({ kind: 'resources-changed', agent });
    if (!same(before.prompts, lists.prompts))
      this.o.features.notice({ kind: 'prompts-changed', agent });
  }

  /** The shared lists changed: agents with lists of their own re-read them (a server-wide change). */
  relistOwn(): void {
    for (const agent of this.sessions.agents()) {
      const up = this.sessions.openNow(agent);
      if (up && this.own.has(up)) void this.relist(agent, up);
    }
  }

  /** Opens an agent's own session on the current connection's transport, with the agent's state. */
  private async connectFor(agent: string): Promise<Upstream> {
    const shared = this.o.shared();
    const conn = this.o.conn();
    const holder: { up?: Upstream; changedWhileOpening?: boolean } = {};
    const up = await connectUpstream({
      url: new URL(conn.url),
      headers: conn.headers,
      timeoutMs: this.o.t.connectMs,
      clientVersion: this.o.version,
      ...(this.o.resolve ? { resolve: this.o.resolve } : {}),
      ...(conn.pin ? { pin: conn.pin } : {}),
      ...(shared ? { only: shared.transport } : {}),
      onNotice: (n) => {
        if (n.kind === 'log' || n.kind === 'resource-updated')
          this.o.features.notice(inCall(n, agent));
        else if (holder.up) void this.relist(agent, holder.up);
        else holder.changedWhileOpening = true;
      },
      onRelay: relayHandler(this.o.label, {
        agent,
        outOfCall: () => this.o.relays(agent),
        completions: this.o.completions,
        ...(this.o.relayAllowed ? { allowed: this.o.relayAllowed } : {}),
        ...(this.o.redact ? { redact: this.o.redact } : {}),
      }),
      onElicitationComplete: (id, meta) =>
        this.o.completions.complete(id, meta && this.o.redact ? this.o.redact(meta) : meta),
      onClose: () => {
        if (holder.up) void this.sessions.drop(holder.up);
      },
      ...(conn.auth ? { authProvider: conn.auth } : {}),
    });
    holder.up = up;
    await this.o.features.restore(agent, up);
    if (holder.changedWhileOpening) void this.relist(agent, up);
    return up;
  }
}
