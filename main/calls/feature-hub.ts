import type { AgentFeatures, SessionSink } from '../gateway/mcp-handlers/api.js';
import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import type { ActivityLog } from '../store/activity.js';
import {
  AIRLOCK_URI_SCHEME,
  FeatureCatalog,
  publicUri,
  type ResolvedUri,
} from '../tools/feature-catalog.js';
import type {
  CompleteRequestParams,
  CompleteResult,
  FeatureContext,
  GetPromptResult,
  LoggingLevel,
  ReadResourceResult,
} from '../tools/features.js';
import type { ToolRegistry } from '../tools/registry.js';
import { promptWithPublicLinks } from '../tools/resource-links.js';
import type { RelayMethod } from '../tools/relay.js';
import type { CallToolResult, ToolSource } from '../tools/types.js';
import type { ProvenanceService } from '../provenance/provenance-service.js';
import { invalidParams } from '../tools/protocol-runtime.js';
import { FeatureSessions } from './feature-sessions.js';
import { ReadActivity } from './read-activity.js';
import { capReadResult } from './read-shaping.js';

export interface FeatureHubDeps {
  registry: ToolRegistry;
  settings: SettingsStore;
  activity: ActivityLog;
  events: CoreEvents;
  logger: Logger;
  /** The agent's allow-list of stable tool keys (absent: every tool), which also bounds its servers. */
  agentTools?: (agent: string) => readonly string[] | undefined;
  /** The gateway's list_changed fan-out. */
  resourcesChanged: () => void;
  promptsChanged: () => void;
  /** The taint check learns what the agent read (issue 22): a resource or prompt is content too. */
  provenance?: ProvenanceService;
}

/**
 * Resources, prompts, completion and logging from every source to every
 * agent (issue 14, item 1). Reads need no approval but are recorded in
 * Activity; a disabled server has no source, so nothing of it is served.
 * Session state (log levels, subscriptions, notices) is per agent session,
 * in FeatureSessions (feature-sessions.ts).
 */
export class FeatureHub implements AgentFeatures {
  readonly catalog: FeatureCatalog;
  private readonly sessions: FeatureSessions;
  private readonly activity: ReadActivity;

  constructor(private readonly d: FeatureHubDeps) {
    this.catalog = new FeatureCatalog(d.registry);
    this.activity = new ReadActivity(d.activity, d.logger);
    this.sessions = new FeatureSessions({
      registry: d.registry,
      catalog: this.catalog,
      resolve: (agent, uri) => this.resolve(agent, uri),
    });
    d.registry.onChange(() => {
      this.sessions.watchSources();
      this.announceChanges();
    });
    this.sessions.watchSources();
    this.announceChanges();
  }

  async listResources(agent: string) {
    await this.d.registry.whenReady();
    return this.catalog.resources((s) => this.allowed(agent, s), agent);
  }
  async listResourceTemplates(agent: string) {
    await this.d.registry.whenReady();
    return this.catalog.resourceTemplates((s) => this.allowed(agent, s), agent);
  }
  async listPrompts(agent: string) {
    await this.d.registry.whenReady();
    return this.catalog
      .prompts(agent)
      .filter((p) => this.allowed(agent, p.source))
      .map((p) => ({ ...p.prompt, name: p.name }));
  }

  /**
   * An agent limited to some tools sees resources and prompts only of the
   * servers those tools come from: a tool subset must not be side-stepped
   * by reading the other servers' resources.
   */
  private allowed(agent: string, source: ToolSource): boolean {
    const keys = this.d.agentTools?.(agent);
    return keys === undefined || keys.some((k) => k.startsWith(`${source.id}/`));
  }

  async readResource(agent: string, uri: string, ctx: FeatureContext): Promise<ReadResourceResult> {
    const started = performance.now();
    const target = this.resolve(agent, uri);
    return this.activity.recorded(
      agent,
      `${target.source.label}: resources/read`,
      uri,
      started,
      async () => {
        const r = await target.source.readResource!(target.uri, ctx);
        // Contents name the resource in the form the agent asked with.
        const asked = uri.startsWith(AIRLOCK_URI_SCHEME);
        const contents = asked
          ? r.contents.map((c) => ({ ...c, uri: publicUri(target.source, c.uri) }))
          : r.contents;
        const capped = capReadResult({ ...r, contents }, this.d.settings.get().limits.resultChars);
        this.observe(agent, target.source, `resources/read ${uri}`, {
          content: capped.contents.flatMap((c) =>
            'text' in c && typeof c.text === 'string'
              ? [{ type: 'text' as const, text: c.text }]
              : [],
          ),
        });
        return capped;
      },
    );
  }

  private observe(agent: string, source: ToolSource, what: string, result: CallToolResult): void {
    this.d.provenance?.observe({
      agent,
      tool: what,
      sourceKind: source.kind,
      sourceLabel: source.label,
      result,
    });
  }

  async getPrompt(
    agent: string,
    name: string,
    args: Record<string, string> | undefined,
    ctx: FeatureContext,
  ): Promise<GetPromptResult> {
    const started = performance.now();
    await this.d.registry.whenReady();
    const entry = this.catalog.prompt(name, agent);
    if (!entry?.source.getPrompt || !this.allowed(agent, entry.source))
      throw invalidParams(`Unknown prompt: ${name}`);
    return this.activity.recorded(
      agent,
      `${entry.source.label}: prompts/get`,
      name,
      started,
      async () => {
        const p = promptWithPublicLinks(
          await entry.source.getPrompt!(entry.prompt.name, args, ctx),
          entry.source,
        );
        // Every block the agent gets is content it read: an embedded resource's text as much
        // as a text message (PromptMessage, MCP 2025-11-25 server/prompts); the provenance
        // reader takes what it can read from each (content-describer.ts textOf).
        this.observe(agent, entry.source, `prompts/get ${name}`, {
          content: p.messages.map((m) => m.content),
        });
        return p;
      },
    );
  }

  async complete(
    agent: string,
    params: CompleteRequestParams,
    ctx: FeatureContext,
  ): Promise<CompleteResult> {
    await this.d.registry.whenReady();
    const empty: CompleteResult = { completion: { values: [], hasMore: false } };
    if (params.ref.type === 'ref/prompt') {
      const entry = this.catalog.prompt(params.ref.name, agent);
      if (!entry?.source.complete || !this.allowed(agent, entry.source)) return empty;
      const r = await entry.source.complete(
        { ...params, ref: { ...params.ref, name: entry.prompt.name } },
        ctx,
      );
      return this.observedCompletion(agent, entry.source, r);
    }
    const target = this.catalog.resolveUri(params.ref.uri, agent);
    if (!target?.source.complete || !this.allowed(agent, target.source)) return empty;
    const r = await target.source.complete(
      { ...params, ref: { ...params.ref, uri: target.uri } },
      ctx,
    );
    return this.observedCompletion(agent, target.source, r);
  }

  /** Completion values are a server's words the model reads, like a result (docs/provenance.md). */
  private observedCompletion(agent: string, source: ToolSource, r: CompleteResult): CompleteResult {
    const values = r.completion?.values ?? [];
    if (values.length)
      this.observe(agent, source, 'completion/complete', {
        content: [{ type: 'text', text: values.join('\n') }],
      });
    return r;
  }

  openSession(session: string, agent: string, sink: SessionSink, releases?: boolean): void {
    this.sessions.open(session, agent, sink, releases);
  }

  closeSession(session: string): void {
    this.sessions.close(session);
  }

  setLogLevel(session: string, level: LoggingLevel): void {
    this.sessions.setLogLevel(session, level);
  }

  subscribe(session: string, uri: string): Promise<void> {
    return this.sessions.subscribe(session, uri);
  }

  unsubscribe(session: string, uri: string): Promise<void> {
    return this.sessions.unsubscribe(session, uri);
  }

  recordRelay(e: {
    agent: string;
    server: string;
    method: RelayMethod;
    started: number;
    outcome: 'ok' | 'error';
    detail?: string;
  }): void {
    this.activity.record(
      e.agent,
      `${e.server}: ${e.method}`,
      e.outcome,
      Date.now() - e.started,
      e.detail,
    );
  }

  private resolve(agent: string, uri: string): ResolvedUri {
    const target = this.catalog.resolveUri(uri, agent);
    if (!target?.source.readResource || !this.allowed(agent, target.source))
      throw invalidParams(
        `Unknown resource: ${uri}. Airlock serves resources as airlock://<server>/<uri>, as resources/list shows them.`,
      );
    return target;
  }

  private resourcesPrint = '';
  private promptsPrint = '';

  /**
   * list_changed to agents when what they would list changed: a server added,
   * removed, up, down, or its own list_changed (the source re-reads, then
   * changes). Compared by content, so status-only changes stay quiet.
   */
  private announceChanges(): void {
    const resources = JSON.stringify([this.catalog.resources(), this.catalog.resourceTemplates()]);
    const prompts = JSON.stringify(this.catalog.prompts().map((p) => [p.name, p.prompt]));
    if (resources !== this.resourcesPrint) {
      if (this.resourcesPrint) this.d.resourcesChanged();
      this.resourcesPrint = resources;
    }
    if (prompts !== this.promptsPrint) {
      if (this.promptsPrint) this.d.promptsChanged();
      this.promptsPrint = prompts;
    }
  }
}
