/** The record of every call. */

export interface ActivityView {
  id: number;
  at: string;
  agent: string;
  tool: string;
  decision:
    'auto' | 'approved' | 'denied' | 'expired' | 'withdrawn' | 'waiting' | 'rejected' | 'paused';
  outcome: 'ok' | 'error' | 'pending' | 'unknown';
  durationMs: number;
  argsDigest: string;
  approvalId?: string;
  detail?: string;
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
