import type {
  CompleteRequestParams,
  CompleteResult,
  FeatureContext,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '../../tools/features.js';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ClientRelay, RelayedLog, RelayMethod } from '../../tools/relay.js';
import type { ProgressSink } from '../../tools/types.js';

/**
 * Runs a handler with the relay to the agent behind this request, findable
 * while it runs, and the signal the work should follow (on 2026-07-28 the
 * work outlives the HTTP request that answers input_required).
 */
export type WithRelay = <T>(
  ctx: ServerContext,
  run: (relay: ClientRelay, signal: AbortSignal, progress?: ProgressSink) => Promise<T>,
  /**
   * The request's progress channel (agent-progress.ts). The work gets the one to use: on
   * 2026-07-28 it follows the call to the agent's retry after an input round (round-line.ts).
   */
  progress?: ProgressSink,
) => Promise<T>;

/**
 * Where a session's notifications go: the gateway hands one per agent
 * session to the core, which calls it for upstream log lines, updated
 * resources and changed lists (issue 14).
 */
export interface SessionSink {
  /** A log line; its `_meta` already filtered (untrusted.ts noticeMeta). */
  log(params: RelayedLog): void;
  /** `meta`: the server's `_meta` on the update, already filtered (untrusted.ts noticeMeta). */
  resourceUpdated(uri: string, meta?: Record<string, unknown>): void;
  /** This agent's own list changed (what a call added to its own upstream session). */
  listChanged(kind: 'resources' | 'prompts'): void;
  /** The session's own channel for server→client requests outside any call. */
  relay: ClientRelay;
  /**
   * Which of an agent's sessions such a request goes to (issue 28, item 3): `lastUsed` ranks the
   * agent's requests on it (larger: more recent); `listening`, its GET stream is open.
   */
  state(): { lastUsed: number; listening: boolean };
}

/**
 * What /mcp needs of the core for everything besides tools, per agent. The
 * app layer's FeatureHub implements it; the gateway never imports the app.
 */
export interface AgentFeatures {
  listResources(agent: string): Promise<Resource[]>;
  listResourceTemplates(agent: string): Promise<ResourceTemplate[]>;
  readResource(agent: string, uri: string, ctx: FeatureContext): Promise<ReadResourceResult>;
  listPrompts(agent: string): Promise<Prompt[]>;
  getPrompt(
    agent: string,
    name: string,
    args: Record<string, string> | undefined,
    ctx: FeatureContext,
  ): Promise<GetPromptResult>;
  complete(
    agent: string,
    params: CompleteRequestParams,
    ctx: FeatureContext,
  ): Promise<CompleteResult>;
  /**
   * A session opened (a 2025 session, or a 2026-07-28 listen stream with `releases` false: its
   * end does not end the agent's upstream sessions): it may now set a level and subscribe.
   */
  openSession(session: string, agent: string, sink: SessionSink, releases?: boolean): void;
  closeSession(session: string): void;
  setLogLevel(session: string, level: LoggingLevel): void;
  subscribe(session: string, uri: string): Promise<void>;
  unsubscribe(session: string, uri: string): Promise<void>;
  /** Records a relayed server→client request in Activity. */
  recordRelay(e: {
    agent: string;
    server: string;
    method: RelayMethod;
    started: number;
    outcome: 'ok' | 'error';
    detail?: string;
  }): void;
}
