import type { SessionSink } from '../gateway/mcp-handlers/api.js';
import { publicUri, type FeatureCatalog, type ResolvedUri } from '../tools/feature-catalog.js';
import { levelRank, type LoggingLevel, type SourceNotice } from '../tools/features.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ClientRelay, RelayedLog, RelayMethod, RelayRequest } from '../tools/relay.js';
import type { ToolSource } from '../tools/types.js';
import { invalidParams } from '../tools/protocol-runtime.js';

/** Resource subscriptions one agent session may hold (each is also one upstream). */
export const MAX_SUBSCRIPTIONS = 256;

export interface FeatureSessionsDeps {
  registry: ToolRegistry;
  catalog: FeatureCatalog;
  /** A resource the agent may read, or the hub's "Unknown resource" error. */
  resolve: (agent: string, uri: string) => ResolvedUri;
}

interface Session {
  agent: string;
  sink: SessionSink;
  level: LoggingLevel | null;
  /** Subscribed resources: public URI → the URI as the agent asked (the form updates use). */
  subs: Map<string, string>;
  /** Whether its end, as the agent's last session, closes the agent's upstream sessions. */
  releases: boolean;
}

/**
 * The FeatureHub's agent sessions: log levels, resource subscriptions, and
 * the sources' notices routed to them (issue 14).
 *
 * Session state stays per agent session: each session's log level filters
 * what it receives (the upstream is asked for the most verbose level any
 * session wants), and `resources/updated` goes only to the sessions that
 * subscribed to that URI. So one agent's level or subscriptions never reach
 * another agent.
 */
export class FeatureSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly watched = new Map<ToolSource, () => void>();

  constructor(private readonly d: FeatureSessionsDeps) {}

  /**
   * `releases: false` for a 2026-07-28 listen stream: that era has no session whose end says the
   * agent left, and its calls may still be running on the agent's upstream sessions.
   */
  open(session: string, agent: string, sink: SessionSink, releases = true): void {
    this.sessions.set(session, { agent, sink, level: null, subs: new Map(), releases });
  }

  close(session: string): void {
    const s = this.sessions.get(session);
    if (!s) return;
    this.sessions.delete(session);
    if (!s.releases || [...this.sessions.values()].some((o) => o.agent === s.agent)) {
      if (s.level) this.applyLevels(s.agent);
      if (s.subs.size) void this.applySubscriptions(s.agent);
      return;
    }
    // The agent's last session: its upstream sessions close too (issue 14, item 4).
    for (const source of this.d.registry.listSources())
      void source.releaseAgent?.(s.agent).catch(() => {});
  }

  setLogLevel(session: string, level: LoggingLevel): void {
    const s = this.sessions.get(session);
    if (!s) return;
    s.level = level;
    this.applyLevels(s.agent);
  }

  async subscribe(session: string, uri: string): Promise<void> {
    const s = this.sessions.get(session);
    if (!s) return;
    const target = this.d.resolve(s.agent, uri);
    const key = publicUri(target.source, target.uri);
    if (s.subs.has(key)) return;
    // Issue 27.7: each one is held here and upstream; far above what a client watches.
    if (s.subs.size >= MAX_SUBSCRIPTIONS)
      throw invalidParams(
        `This session already holds ${s.subs.size} resource subscriptions, Airlock's limit per session; unsubscribe from some first.`,
      );
    s.subs.set(key, uri);
    await this.applySubscriptions(s.agent);
  }

  async unsubscribe(session: string, uri: string): Promise<void> {
    const s = this.sessions.get(session);
    const target = s && this.d.catalog.resolveUri(uri, s.agent);
    if (!target || !s?.subs.delete(publicUri(target.source, target.uri))) return;
    await this.applySubscriptions(s.agent);
  }

  /**
   * The channel for one server→client request that arrives outside any call on the agent's own
   * upstream session (server-everything's roots/list): that upstream session is the agent's, so
   * the request goes to one of the agent's sessions — which, OutOfCallRelay decides once it
   * knows the method (issue 28, item 3).
   */
  private sessionRelay(agent: string): ClientRelay | undefined {
    const sinks = [...this.sessions.values()].filter((s) => s.agent === agent).map((s) => s.sink);
    return sinks.length ? new OutOfCallRelay(agent, sinks) : undefined;
  }

  /** The most verbose level any of the agent's sessions asked for, to every source. */
  private applyLevels(agent: string): void {
    let level: LoggingLevel | null = null;
    for (const s of this.sessions.values())
      if (s.agent === agent && s.level && (level === null || levelRank(s.level) < levelRank(level)))
        level = s.level;
    for (const source of this.d.registry.listSources())
      void source.setLogLevel?.(agent, level).catch(() => {});
  }

  private async applySubscriptions(agent: string): Promise<void> {
    const bySource = new Map<ToolSource, Set<string>>();
    for (const source of this.d.registry.listSources())
      if (source.setSubscriptions) bySource.set(source, new Set());
    for (const s of this.sessions.values())
      if (s.agent === agent)
        for (const uri of s.subs.keys()) {
          const t = this.d.catalog.resolveUri(uri, agent);
          if (t) bySource.get(t.source)?.add(t.uri);
        }
    await Promise.all([...bySource].map(([source, uris]) => source.setSubscriptions!(agent, uris)));
  }

  /** Follows added and removed sources' notices. */
  watchSources(): void {
    const now = new Set(this.d.registry.listSources());
    for (const [source, off] of this.watched)
      if (!now.has(source)) {
        off();
        this.watched.delete(source);
      }
    for (const source of now)
      if (!this.watched.has(source) && source.onNotice) {
        this.watched.set(
          source,
          source.onNotice((n) => this.onNotice(source, n)),
        );
        source.setSessionRelays?.((agent) => this.sessionRelay(agent));
        // A source added later still learns what agents asked for.
        for (const agent of new Set([...this.sessions.values()].map((s) => s.agent)))
          this.applyLevels(agent);
      }
  }

  private onNotice(source: ToolSource, n: SourceNotice): void {
    if (n.kind === 'resources-changed' || n.kind === 'prompts-changed') {
      // A change in one agent's own upstream session is that agent's alone: its sessions hear of
      // it (agent-upstreams.ts re-read the lists first). A shared one is re-read by the source,
      // and FeatureHub.announceChanges tells every agent.
      if (n.agent !== undefined)
        for (const s of this.sessions.values())
          if (s.agent === n.agent)
            s.sink.listChanged(n.kind === 'resources-changed' ? 'resources' : 'prompts');
      return;
    }
    if (n.kind === 'resource-updated') {
      const uri = publicUri(source, n.uri);
      for (const s of this.sessions.values()) {
        if (n.agent !== undefined && s.agent !== n.agent) continue;
        const asked = s.subs.get(uri) ?? (s.subs.size ? subResourceOf(s.subs, uri) : undefined);
        if (asked !== undefined) s.sink.resourceUpdated(asked, n._meta);
      }
      return;
    }
    // A line from an agent's own upstream session goes to that agent only; one sent while
    // serving a request of one of its 2025 sessions goes on that request's stream, before its
    // answer (issue 28, item 2), or on the GET stream once the request has answered.
    const line: RelayedLog = {
      level: n.level,
      logger: n.logger ? `${source.label}/${n.logger}` : source.label,
      data: n.data,
    };
    if (n._meta) line._meta = n._meta;
    // A 2026-07-28 request has no session: its own level (round-line.ts requestLog applies it, as
    // the SDK would) decides whether the line goes on its stream, as a direct server's would; the
    // agent's listen streams (where lines are Airlock's addition) then leave it out, so a client
    // listening too gets it once.
    const onRequest = Boolean(n.call?.log && n.call.session === undefined && n.call.level);
    if (onRequest) void n.call!.log!(line).catch(() => {});
    for (const [id, s] of this.sessions)
      if (
        s.level &&
        !(onRequest && !s.releases) &&
        (n.agent === undefined || s.agent === n.agent) &&
        levelRank(n.level) >= levelRank(s.level)
      ) {
        const onCall = n.call?.session === id ? n.call.log : undefined;
        if (onCall) void onCall(line).catch(() => s.sink.log(line));
        else s.sink.log(line);
      }
  }
}

/**
 * The URI, in the form the agent subscribed with, of a sub-resource of one of its subscriptions:
 * an update's `uri` "might be a sub-resource of the one that the client actually subscribed to"
 * (MCP 2025-11-25 and 2026-07-28 schema, ResourceUpdatedNotificationParams `uri`). Before, only
 * an exact match reached the agent, and such updates were lost. A sub-resource is taken to be a
 * URI under the subscribed one: it goes on past it with `/`, `?` or `#` (or the subscribed one
 * ends in `/`), so `mem://dir` does not take `mem://dirt`'s. The longest subscription wins: one
 * update, one notification per session. `subs`: public URI → the URI as the agent asked, where
 * the public form is the original one prefixed (publicUri), so the agent's form of the
 * sub-resource is its own form of the subscription and the rest of the update's URI.
 */
function subResourceOf(subs: Map<string, string>, uri: string): string | undefined {
  let best: string | undefined;
  for (const key of subs.keys())
    if (
      uri.length > key.length &&
      uri.startsWith(key) &&
      (key.endsWith('/') || '/?#'.includes(uri[key.length]!)) &&
      (best === undefined || key.length > best.length)
    )
      best = key;
  return best === undefined ? undefined : subs.get(best)! + uri.slice(best.length);
}

/**
 * One request outside any call, to one of the agent's sessions: of those that declared what it
 * needs (the capability, the elicitation mode), one whose client listens (GET stream open, the
 * only way such a request reaches it) before one that does not, then the most recently used.
 * The agent's first session is not the answer: a client that connected once without roots
 * would otherwise refuse every roots/list, even during a call made from the session that
 * declared roots. When none declared it, the most recent one's refusal says why. The choice is
 * made once, on the first question, and kept: the refusal, the request and a URL step's
 * completion all go to the same session.
 */
class OutOfCallRelay implements ClientRelay {
  private chosen: ClientRelay | undefined;

  constructor(
    readonly agent: string,
    private candidates: SessionSink[] | undefined,
  ) {}

  refusal(method: RelayMethod, params: Record<string, unknown>): string | null {
    return this.choose(method, params).refusal(method, params);
  }

  request(req: RelayRequest): Promise<Record<string, unknown>> {
    return this.choose(req.method, req.params).request(req);
  }

  readonly elicitationComplete = (elicitationId: string, meta?: Record<string, unknown>): void =>
    this.chosen?.elicitationComplete?.(elicitationId, meta);

  private choose(method: RelayMethod, params: Record<string, unknown>): ClientRelay {
    if (this.chosen) return this.chosen;
    const ranked = (this.candidates ?? [])
      .map((sink) => ({ sink, ...sink.state() }))
      .sort((a, b) => Number(b.listening) - Number(a.listening) || b.lastUsed - a.lastUsed);
    const pick = ranked.find((c) => c.sink.relay.refusal(method, params) === null) ?? ranked[0]!;
    // Kept for up to an hour with a URL step (url-completions.ts): hold the chosen session only.
    this.candidates = undefined;
    return (this.chosen = pick.sink.relay);
  }
}
