import type { LoggingLevel } from './features.js';
import type { RelaySelf } from './relay-label.js';

/**
 * Server→client requests (sampling, elicitation, roots) that an upstream
 * makes while serving one agent's call, relayed to that agent and no other
 * (issue 14, "Server→client requests relayed"). The gateway builds one relay
 * per agent request; sources only see this interface.
 */
export type RelayMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

export const RELAY_METHODS: readonly RelayMethod[] = [
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
];

export interface RelayRequest {
  method: RelayMethod;
  params: Record<string, unknown>;
  /** The server that asked, for the activity log and the refusal text. */
  server: string;
  signal?: AbortSignal;
}

export interface ClientRelay {
  readonly agent: string;
  /**
   * Null when the agent declared what this request needs (the capability and,
   * for elicitation, the mode); otherwise why not, in words the upstream's
   * user can act on.
   */
  refusal(method: RelayMethod, params: Record<string, unknown>): string | null;
  /** Sends the request to the agent and resolves with its answer (recorded in Activity). */
  request(req: RelayRequest): Promise<Record<string, unknown>>;
  /**
   * Tells the agent that the URL-mode elicitation with this id is complete
   * (`notifications/elicitation/complete`), on its session, even after the call that showed it
   * ended. Absent where the agent has no channel outside its requests (2026-07-28).
   */
  readonly elicitationComplete?:
    ((elicitationId: string, meta?: Record<string, unknown>) => void) | undefined;
  /** The agent's 2025 session the request came on; absent on 2026-07-28. */
  readonly session?: string | undefined;
  /**
   * Sends a log line the upstream sent while serving this request on the request's own stream,
   * before its answer (issue 28, item 2); rejects once the request has answered.
   */
  readonly log?: ((params: RelayedLog) => Promise<void>) | undefined;
  /**
   * The log level the request itself carries (2026-07-28, SEP-2577: `_meta`
   * `io.modelcontextprotocol/logLevel`); absent on 2025 sessions, whose level is the session's.
   */
  readonly level?: LoggingLevel | undefined;
  /** The request this relay belongs to has ended: Activity gets what was counted (relay-ledger.ts). */
  readonly done?: (() => void) | undefined;
  /** Airlock's own address as this relay's gateway knows it (relay-label.ts). */
  readonly self?: RelaySelf | undefined;
}

/**
 * A `notifications/message` as the agent gets it: every field of LoggingMessageNotificationParams
 * (MCP 2025-11-25 and 2026-07-28 schema: `level`, `logger`, `data` and NotificationParams'
 * `_meta`), the `_meta` filtered as a result's is (untrusted.ts noticeMeta).
 */
export type RelayedLog = {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
  _meta?: Record<string, unknown>;
};

/** What an agent declared in `initialize` (2025) or per request (2026), reduced to what relays need. */
export interface RelayCapabilities {
  sampling?: unknown;
  elicitation?: { form?: unknown; url?: unknown } & Record<string, unknown>;
  roots?: unknown;
}

/** Why an agent with these capabilities cannot take this request, or null. */
export function capabilityRefusal(
  caps: RelayCapabilities | undefined,
  method: RelayMethod,
  params: Record<string, unknown>,
  agent: string,
): string | null {
  const who = `the agent "${agent}" connected through Airlock`;
  if (method === 'sampling/createMessage')
    return caps?.sampling ? null : `${who} did not declare the sampling capability`;
  if (method === 'roots/list')
    return caps?.roots ? null : `${who} did not declare the roots capability`;
  const e = caps?.elicitation;
  if (!e) return `${who} did not declare the elicitation capability`;
  const mode = params.mode === 'url' ? 'url' : 'form';
  // An empty `elicitation: {}` means form only (MCP 2025-11-25, client capabilities).
  const hasForm = e.form !== undefined || (e.url === undefined && Object.keys(e).length === 0);
  if (mode === 'url' && e.url === undefined) return `${who} did not declare URL-mode elicitation`;
  if (mode === 'form' && !hasForm) return `${who} did not declare form-mode elicitation`;
  return null;
}
