/** The record of every call. */

export interface ActivityView {
  id: number;
  at: string;
  agent: string;
  tool: string;
  /**
   * The decision: `approved` is a human yes (see decisionKind), `grant` ran
   * under a standing grant, `waiting` is a request nobody decided yet.
   */
  decision:
    | 'auto'
    | 'approved'
    | 'grant'
    | 'denied'
    | 'expired'
    | 'withdrawn'
    | 'waiting'
    | 'rejected'
    | 'paused';
  /** `pending`: not run yet; `ok`/`error`: ran (error = failed); `unknown`: may have been applied. */
  outcome: 'ok' | 'error' | 'pending' | 'unknown' | 'not_run';
  /** Run time of the call itself, without the human's wait. */
  durationMs: number;
  /** Time the call waited for the user's decision. */
  waitMs?: number;
  argsDigest: string;
  approvalId?: string;
  /** once / edited / grant / paused … */
  decisionKind?: string;
  grantId?: string;
  /** For errors: the upstream's own error text. */
  detail?: string;
  /** Set when Airlock flagged the call (issue 22): the finding in a sentence. */
  taint?: string;
  /** Grant events have their own rows: `grant.created`, `grant.revoked`. */
  event?: 'call' | 'grant.created' | 'grant.revoked';
}

export interface ActivityFilter {
  agent?: string;
  tool?: string;
  limit?: number;
  beforeId?: number;
}

export interface ActivityApi {
  listActivity(filter?: ActivityFilter): Promise<ActivityView[]>;
}
