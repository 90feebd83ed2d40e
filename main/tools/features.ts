import type {
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import type { ClientRelay } from './relay.js';
import type { ProgressSink } from './types.js';

export type {
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
};

/** Who asks, and how to reach them for a relay while the request is live. */
export interface FeatureContext {
  agent: string;
  signal: AbortSignal;
  relay?: ClientRelay;
  /** The agent asked for progress on this request (a progressToken): the source's goes here. */
  progress?: ProgressSink;
}

/** Something a source tells agents on its own: a log line, a changed resource, changed lists. */
export type SourceNotice =
  /**
   * `agent`: sent on that agent's own upstream session, so it goes to that agent only. `call`:
   * sent while serving that agent request, so it goes on that request's stream (issue 28 item 2).
   */
  | {
      kind: 'log';
      level: LoggingLevel;
      logger?: string;
      data: unknown;
      /** The server's `_meta`, filtered as a result's is (untrusted.ts noticeMeta). */
      _meta?: Record<string, unknown>;
      agent?: string;
      call?: ClientRelay;
    }
  | { kind: 'resource-updated'; uri: string; _meta?: Record<string, unknown>; agent?: string }
  /** `agent`: the change is in that agent's own upstream session, so it is that agent's alone. */
  | { kind: 'resources-changed'; agent?: string }
  | { kind: 'prompts-changed'; agent?: string };

/**
 * Everything MCP carries besides tools (issue 14): a source offers what it
 * has; every method is optional. Names and URIs are the source's own; the
 * FeatureCatalog namespaces them.
 */
export interface FeatureSource {
  /**
   * `agent`: what that agent lists, which for a server that keeps one upstream session per
   * agent may include what a call added to the agent's own session. Without it: what every
   * agent shares (the basis of Airlock's own list_changed).
   */
  resources?(agent?: string): readonly Resource[];
  resourceTemplates?(agent?: string): readonly ResourceTemplate[];
  prompts?(agent?: string): readonly Prompt[];
  readResource?(uri: string, ctx: FeatureContext): Promise<ReadResourceResult>;
  getPrompt?(
    name: string,
    args: Record<string, string> | undefined,
    ctx: FeatureContext,
  ): Promise<GetPromptResult>;
  complete?(params: CompleteRequestParams, ctx: FeatureContext): Promise<CompleteResult>;
  /** The most verbose level this agent's sessions asked for (null: none asked). */
  setLogLevel?(agent: string, level: LoggingLevel | null): Promise<void>;
  /** The source URIs this agent's sessions are subscribed to. */
  setSubscriptions?(agent: string, uris: ReadonlySet<string>): Promise<void>;
  /** The agent's last Airlock session ended: close what the source keeps for it. */
  releaseAgent?(agent: string): Promise<void>;
  /**
   * How to reach an agent for a server→client request that arrives on its
   * own upstream session outside any call (e.g. roots/list right after connect).
   */
  setSessionRelays?(lookup: (agent: string) => ClientRelay | undefined): void;
  onNotice?(listener: (n: SourceNotice) => void): () => void;
}

export const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export function levelRank(level: LoggingLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/**
 * The more verbose of two levels (the one that lets more lines through), or whichever is given:
 * a line meets a level when its rank is at least the level's (MCP 2025-11-25, "Logging"), so the
 * lower rank asks for more. On a tie the first.
 */
export function moreVerbose(
  a: LoggingLevel | undefined,
  b: LoggingLevel | undefined,
): LoggingLevel | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return levelRank(a) <= levelRank(b) ? a : b;
}
