/** Approval requests, the user's decisions on them, and the grants those decisions make. */

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

/** How risky a tool is, as the Tools page badges it. */
export type ToolRisk = 'read-only' | 'changes' | 'destructive';

export interface ApprovalView {
  id: string;
  agent: string;
  tool: string;
  toolTitle?: string;
  /**
   * Airlock's statement of what running it does: the built-in source's own
   * sentence, or for a third-party tool a neutral line naming tool and server.
   */
  effect: string;
  /** Where the tool comes from: "Gmail", or the MCP server's label. */
  server?: string;
  /** True when the tool comes from a server Airlock does not vouch for. */
  thirdParty?: boolean;
  /** The server's own description of the tool (its words, not Airlock's). */
  description?: string;
  /** The server's hints, shown as its claim (readOnlyHint, destructiveHint…). */
  hints?: Record<string, boolean>;
  risk?: ToolRisk;
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
  /** True while a call of the agent is attached and waiting for the answer. */
  agentWaiting?: boolean;
  /** When the agent stopped waiting (cancelled, or told to call again). */
  agentLeftAt?: string;
  /** How the request was decided, once it was. */
  decisionKind?: DecisionKind;
  grantId?: string;
  /**
   * Set when the call carries a stranger's destination or the user's private data out (issue 22,
   * docs/provenance.md). A flagged call always asks, whatever the policy or grant.
   */
  taint?: TaintView;
  /**
   * The scopes a grant made from this request may take, read the way the grant will be checked
   * (issue 27 item 1); only ones that hold for this call. Pending requests only.
   */
  grantOptions?: GrantOption[];
  /**
   * Pending requests only: the allows Airlock would refuse now, and why, in the words `decide`
   * refuses them with (main/approvals/shown-binding.ts, the one rule both use): the tool changed
   * since the card was made, or it is not available now. Absent when every allow would be taken.
   * Deny is never refused. Edit & Allow is told what holds before any edit; an edit that goes out
   * from another account is refused when it is sent.
   */
  refused?: AllowRefusals;
}

/** The decisions that run the call (all but deny), each of which the tool's change can refuse. */
export type AllowKind = Exclude<Decision['kind'], 'deny'>;

// Every AllowKind, once (`satisfies` fails to compile on a kind missing or unknown), so what
// lists them (the view's refusals) misses none.
const ALLOW_KIND_SET = {
  allow_once: true,
  allow_edited: true,
  always_allow: true,
} as const satisfies Record<AllowKind, true>;
export const ALLOW_KINDS = Object.keys(ALLOW_KIND_SET) as AllowKind[];

/** Why an allow would be refused: the ControlError `decide` would throw for it. */
export interface AllowRefusal {
  code: 'CONFLICT' | 'INVALID';
  message: string;
}

export type AllowRefusals = Partial<Record<AllowKind, AllowRefusal>>;

/** Why Airlock flagged a call: what in its arguments came from where (docs/provenance.md). */
export interface TaintView {
  /** The findings in plain sentences, for a card or a notification. */
  summary: string;
  findings: {
    rule: 'untrusted-destination' | 'private-data-out' | 'instructed-effect';
    /** The address, link or destination in the arguments that matched (for 'instructed-effect': what the call does). */
    value: string;
    text: string;
    /** Where it came from: the messages or results this agent received. */
    evidence: {
      label: string;
      kind: 'mail' | 'event' | 'remote' | 'web' | 'local';
      tool: string;
      ref?: string;
      from?: string[];
      /** ISO time the agent received it. */
      at: string;
    }[];
  }[];
}

export type DecisionKind = 'once' | 'grant' | 'edited' | 'denied' | 'expired' | 'withdrawn';

/** An argument constraint of a grant: equality, or a domain suffix on e-mail addresses / host names. */
export interface GrantConstraint {
  /** Dotted path into the arguments (`to`, `calendar_id`, `event.organizer`). */
  path: string;
  op: 'equals' | 'domain';
  value: string;
}

/** A scope the grant dialog offers, with what else it holds fixed. */
export interface GrantOption {
  /** "Only when every recipient (to, cc, bcc) is in @example.com". */
  label: string;
  /** "subject and body may differ, everything else as in the call you approved". */
  note: string;
  constraint: GrantConstraint;
}

export interface GrantSpec {
  /** Hours until the grant ends (at most a year); absent for "until revoked". */
  hours?: number;
  constraint?: GrantConstraint;
  /** Required: a grant makes a tool with side effects run without asking (CONFIRM_REQUIRED otherwise). */
  confirm?: boolean;
  /**
   * Also run calls Airlock flags as carrying a stranger's destination or the user's private data
   * out (issue 22). Off unless the user opts in explicitly.
   */
  includeTainted?: boolean;
}

export type Decision =
  | { kind: 'deny'; reason?: string }
  | { kind: 'allow_once' }
  | { kind: 'allow_edited'; arguments: Record<string, unknown> }
  | ({ kind: 'always_allow'; /** @deprecated use hours */ until?: string } & GrantSpec);

export interface GrantView {
  id: string;
  agent: string;
  tool: string;
  toolKey: string;
  createdAt: string;
  /** Absent: until revoked. */
  expiresAt?: string;
  constraint?: GrantConstraint;
  /**
   * A scoped grant in words (issue 27 item 1): `lead` reads "only when every recipient (to, cc,
   * bcc) is in @example.com" or "only when to is" (the value follows), `tail` what else holds.
   */
  scope?: { lead: string; tail: string };
  /** The request it was made from. */
  approvalId?: string;
  uses: number;
  lastUsedAt?: string;
  revokedAt?: string;
  /** False when it no longer applies: revoked, expired, or the tool or its policy changed since. */
  active: boolean;
  /** Why it is inactive, in words. */
  inactiveReason?: string;
  /** The user opted this grant into flagged calls (issue 22). */
  includeTainted?: boolean;
}

export interface ApprovalsApi {
  listPending(): Promise<ApprovalView[]>;
  getApproval(id: string): Promise<ApprovalView>;
  decide(id: string, decision: Decision): Promise<ApprovalView>;
  listGrants(filter?: { agent?: string; includeInactive?: boolean }): Promise<GrantView[]>;
  revokeGrant(id: string): Promise<GrantView>;
}
