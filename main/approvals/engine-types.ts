import type { ActivityView, TaintView } from '../../common/contract/index.js';
import type { CoreEvents } from '../platform/events.js';
import type { ActivityLog } from '../store/activity.js';
import type { ApprovalRow, ApprovalStore } from '../store/approval-store.js';
import type { BoundArgs, CallToolResult, ToolCallContext } from '../tools/types.js';
import type { ToolInfo } from './approval-view.js';
import type { GrantService } from './grants.js';
import type { FingerprintForm } from './policy.js';

export interface ApprovalTimings {
  waitMs: number;
  expireMs: number;
  outcomeWindowMs: number;
  progressIntervalMs: number;
  /** How long a request outlives the cancellation of its last waiting call (issue 16 item 6). */
  cancelGraceMs: number;
}

export interface ApprovalEngineDeps {
  store: ApprovalStore;
  events: CoreEvents;
  activity: ActivityLog;
  grants: GrantService;
  timings: () => ApprovalTimings;
  /** Runs an approved call; the engine guarantees at most once per request. */
  execute: (
    row: ApprovalRow,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ) => Promise<CallToolResult>;
  /** Current definition of a tool by stable key, for views and edit validation. */
  toolInfo: (toolKey: string) => ToolInfo | undefined;
  /** Returns null when the arguments fit the tool's schema, else what is wrong. */
  /** May answer later: untrusted schemas are checked in a worker within a budget (issue 17.3). */
  validate: (
    toolKey: string,
    args: Record<string, unknown>,
  ) => string | null | Promise<string | null>;
  isPaused: () => boolean;
  /** What an approval's edit may not change (ToolSource.boundArgs, edit-binding.ts). */
  bound?: (toolKey: string) => BoundArgs | undefined;
  /**
   * The tool's whole definition and whom it reaches, as a hash (policy.ts toolFingerprint); null
   * when it is gone. "Always allow" is accepted only while it is what it was when the card was
   * made (the grant is bound to the definition at the decision); so is every allow when
   * runFingerprint is not given. `form` 'legacy': as hashed before (policy.ts FingerprintForm),
   * for a request stored then.
   */
  toolFingerprint?: (toolKey: string, form?: FingerprintForm) => string | null;
  /**
   * What an allow once or an edited allow of this call runs, as a hash (policy.ts runFingerprint:
   * name, input schema, server, or the accounts this call reaches); null when the tool is gone.
   * Such an allow is accepted only while it is what it was when the card was made.
   */
  runFingerprint?: (
    toolKey: string,
    args: Record<string, unknown>,
    form?: FingerprintForm,
  ) => string | null;
  /** Per-agent budgets (issue 17.4): null admits a new request, else the refusal to return. */
  admit?: (agent: string, args: Record<string, unknown>) => string | null;
  now?: () => number;
}

export interface AskRequest {
  agent: string;
  toolKey: string;
  tool: string;
  args: Record<string, unknown>;
  /** The tool's statement of effect; only asked for when a new request is created. */
  effect: () => Promise<string>;
  /** Why the taint check flagged the call (issue 22), shown on the card and kept in Activity. */
  taint?: TaintView | null;
  signal: AbortSignal;
  progress?: ToolCallContext['progress'];
  /**
   * The calling request's relay to its agent: the approved call's server→client requests and log
   * lines go on it while this call waits (a task's carries the task's id, mcp-handlers/tasks.ts).
   */
  relay?: ToolCallContext['relay'];
  /**
   * No periodic "waiting for approval" progress while this call waits, only the approved call's
   * own. A task's call (tasks.ts): the ticks keep a client's request from timing out, and a task
   * has no request open; its status already says it waits. Its progressToken stays the same for
   * the task's life, and each wait's ticks start again at 1, against "The `progress` value MUST
   * increase with each notification" (MCP 2025-11-25, basic/utilities/progress).
   */
  quiet?: boolean;
  /** Answer at once with "waiting" instead of blocking (URL elicitation, issue 16 item 1). */
  noWait?: boolean;
  /** The caller's cancellation withdraws the request at once, with no grace (a cancelled task). */
  withdrawOnCancel?: boolean;
}

export interface AskOutcome {
  result: CallToolResult;
  decision: ActivityView['decision'];
  approvalId?: string;
  /** False when nothing was run for this caller (waiting, denied, …). */
  ran: boolean;
}
