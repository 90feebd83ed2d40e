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
}

/** Something a source tells agents on its own: a log line, a changed resource, changed lists. */
export type SourceNotice =
  | { kind: 'log'; level: LoggingLevel; logger?: string; data: unknown }
  | { kind: 'resource-updated'; uri: string }
  | { kind: 'resources-changed' }
  | { kind: 'prompts-changed' };

/**
 * Everything MCP carries besides tools (issue 14): a source offers what it
 * has; every method is optional. Names and URIs are the source's own; the
 * FeatureCatalog namespaces them.
 */
export interface FeatureSource {
  resources?(): readonly Resource[];
  resourceTemplates?(): readonly ResourceTemplate[];
  prompts?(): readonly Prompt[];
  readResource?(uri: string, ctx: FeatureContext): Promise<ReadResourceResult>;
  getPrompt?(
    name: string,
    args: Record<string, string> | undefined,
    ctx: FeatureContext,
  ): Promise<GetPromptResult>;
  complete?(params: CompleteRequestParams, ctx: FeatureContext): Promise<CompleteResult>;
  /** The most verbose level any agent asked for; the source filters nothing itself. */
  setLogLevel?(level: LoggingLevel | null): Promise<void>;
  /** The set of source URIs some agent is subscribed to (Airlock counts subscribers). */
  setSubscriptions?(uris: ReadonlySet<string>): Promise<void>;
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
