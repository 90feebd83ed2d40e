/**
 * Per-agent budgets (issue 17, item 4). One agent token used to be able to
 * exhaust the machine: 20,000 sessions in 14 s, 500 pending approval requests
 * in under a second, 12 pending requests holding 3.9 MB of arguments each.
 * Each budget is per agent, so one agent reaching its limit never stops
 * another; what is over budget is refused with an error naming the limit and
 * what to do, never silently dropped.
 */
export interface BudgetLimits {
  /** Open 2025-era MCP sessions per agent (2026-07-28 traffic is stateless). */
  sessions: number;
  /** Approval requests waiting for the user, per agent. */
  pendingRequests: number;
  /** Bytes of arguments (as JSON) held by those requests, per agent. */
  pendingArgBytes: number;
  /** At the session limit, a session unused this long is closed to make room instead of refusing. */
  sessionIdleEvictMs: number;
}

export const DEFAULT_BUDGETS: BudgetLimits = {
  sessions: 64,
  pendingRequests: 20,
  pendingArgBytes: 4 * 1024 * 1024,
  sessionIdleEvictMs: 5 * 60_000,
};

export interface SessionUse {
  id: string;
  lastUsed: number;
}

export type SessionAdmission = { ok: true; evict?: string } | { ok: false; message: string };

export class AgentBudgets {
  readonly limits: BudgetLimits;

  constructor(
    limits: Partial<BudgetLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_BUDGETS, ...limits };
  }

  /**
   * May `agent` open one more session, given the ones it has? At the limit,
   * its least recently used session is closed if it has been idle a while
   * (a client that reconnects without closing is not locked out); otherwise
   * the new session is refused.
   */
  admitSession(agent: string, open: SessionUse[]): SessionAdmission {
    if (open.length < this.limits.sessions) return { ok: true };
    const oldest = open.reduce((a, b) => (b.lastUsed < a.lastUsed ? b : a));
    if (this.now() - oldest.lastUsed >= this.limits.sessionIdleEvictMs)
      return { ok: true, evict: oldest.id };
    return {
      ok: false,
      message:
        `Agent "${agent}" already has ${open.length} open MCP sessions, Airlock's limit per agent ` +
        `(${this.limits.sessions}). Close sessions you no longer use (DELETE /mcp with their ` +
        'Mcp-Session-Id) or restart the client; idle sessions are closed after a while.',
    };
  }

  /**
   * May `agent` add one more approval request with these arguments, given
   * what it already has waiting? Returns null, or the refusal to send back as
   * a tool error.
   */
  admitPending(
    agent: string,
    args: unknown,
    pending: { count: number; bytes: number },
  ): string | null {
    if (pending.count >= this.limits.pendingRequests) {
      return (
        `Refused: agent "${agent}" already has ${pending.count} requests waiting for approval, ` +
        `Airlock's limit per agent (${this.limits.pendingRequests}). Wait for the user to decide ` +
        'them (or cancel yours) before asking for more.'
      );
    }
    const bytes = Buffer.byteLength(JSON.stringify(args) ?? '');
    if (pending.bytes + bytes > this.limits.pendingArgBytes) {
      return (
        `Refused: the arguments of agent "${agent}"'s requests waiting for approval would come to ` +
        `${pending.bytes + bytes} bytes, over Airlock's limit per agent of ` +
        `${this.limits.pendingArgBytes} bytes. Send smaller arguments, or wait for the user to ` +
        'decide the waiting requests.'
      );
    }
    return null;
  }
}
