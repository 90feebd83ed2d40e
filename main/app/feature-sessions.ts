import type { SessionSink } from '../gateway/mcp-handlers/api.js';
import { publicUri, type FeatureCatalog, type ResolvedUri } from '../tools/feature-catalog.js';
import { levelRank, type LoggingLevel, type SourceNotice } from '../tools/features.js';
import type { ToolRegistry } from '../tools/registry.js';
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

  open(session: string, agent: string, sink: SessionSink): void {
    this.sessions.set(session, { agent, sink, level: null, subs: new Map() });
  }

  close(session: string): void {
    const s = this.sessions.get(session);
    if (!s) return;
    this.sessions.delete(session);
    if ([...this.sessions.values()].some((o) => o.agent === s.agent)) {
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
    const target = this.d.catalog.resolveUri(uri);
    if (!target || !s?.subs.delete(publicUri(target.source, target.uri))) return;
    await this.applySubscriptions(s.agent);
  }

  /** A relay to one of the agent's open sessions, for requests outside any call. */
  private sessionRelay(agent: string) {
    for (const s of this.sessions.values()) if (s.agent === agent) return s.sink.relay;
    return undefined;
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
          const t = this.d.catalog.resolveUri(uri);
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
    // The source re-reads its lists and reports a change; FeatureHub.announceChanges tells agents.
    if (n.kind === 'resources-changed' || n.kind === 'prompts-changed') return;
    if (n.kind === 'resource-updated') {
      const uri = publicUri(source, n.uri);
      for (const s of this.sessions.values())
        if (s.subs.has(uri) && (n.agent === undefined || s.agent === n.agent))
          s.sink.resourceUpdated(s.subs.get(uri)!);
      return;
    }
    // A line from an agent's own upstream session goes to that agent only.
    for (const s of this.sessions.values())
      if (
        s.level &&
        (n.agent === undefined || s.agent === n.agent) &&
        levelRank(n.level) >= levelRank(s.level)
      )
        s.sink.log({
          level: n.level,
          logger: n.logger ? `${source.label}/${n.logger}` : source.label,
          data: n.data,
        });
  }
}
