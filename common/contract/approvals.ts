/** Approval requests and the user's decisions on them. */

export type ApprovalMode = 'auto' | 'ask';

export type ApprovalState =
  | 'pending'
  | 'approved'
  | 'denied'
  | 'expired'
  | 'withdrawn'
  | 'executing'
  | 'done'
  | 'failed'
  | 'unknown';

export interface ApprovalView {
  id: string;
  agent: string;
  tool: string;
  toolTitle?: string;
  /** The tool's own statement of what running it does. */
  effect: string;
  arguments: Record<string, unknown>;
  inputSchema: Record<string, unknown>;
  state: ApprovalState;
  createdAt: string;
  expiresAt: string;
  decidedAt?: string;
  reason?: string;
  editedArguments?: Record<string, unknown>;
  /** Short text of the outcome once done/failed. */
  outcome?: string;
}

export type Decision =
  | { kind: 'deny'; reason?: string }
  | { kind: 'allow_once' }
  | { kind: 'allow_edited'; arguments: Record<string, unknown> }
  | { kind: 'always_allow'; until?: string };

export interface ApprovalsApi {
  listPending(): Promise<ApprovalView[]>;
  getApproval(id: string): Promise<ApprovalView>;
  decide(id: string, decision: Decision): Promise<ApprovalView>;
}
