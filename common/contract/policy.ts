/**
 * Policy changes that wait for the user (issue 17, item 7). Loosening a
 * policy (a tool to `auto`, enabling a tool, giving an agent more tools)
 * asked for by the CLI or any other control-API caller that is not
 * Airlock's own window becomes a pending change; the user confirms or
 * rejects it in the window (the Tools page). Tightening applies at once.
 */
export interface PolicyChangeView {
  id: string;
  /** What would change, in words: "make gmail_send run without asking". */
  summary: string;
  state: 'pending' | 'confirmed' | 'rejected' | 'expired' | 'failed';
  requestedAt: string;
  expiresAt: string;
  /** Why applying a confirmed change failed. */
  error?: string;
}

export interface PolicyApi {
  listPolicyChanges(): Promise<PolicyChangeView[]>;
  /** The window's answer; over HTTP only from Airlock's own page, and never when the desktop window exists. */
  decidePolicyChange(id: string, confirm: boolean): Promise<PolicyChangeView>;
  /** Resolves when the change is decided or expires, or after about 25 s with its current state. */
  waitPolicyChange(id: string): Promise<PolicyChangeView>;
}
