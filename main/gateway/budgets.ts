/**
 * Per-agent budgets (issue 17, item 4). One agent token used to be able to
 * exhaust the machine: 20,000 sessions in 14 s, 500 pending approval requests
 * in under a second, 12 pending requests holding 3.9 MB of arguments each.
 * Each budget is per agent, so one agent reaching its limit never stops
 * another; what is over budget is refused with an error naming the limit and
 * what to do, never silently dropped — save a session over the limit, which
 * ends one of the agent's idle sessions instead (issue 28, item 1).
 */
export interface BudgetLimits {
  /** Open 2025-era MCP sessions per agent (2026-07-28 traffic is stateless). */
  sessions: number;
  /** Approval requests waiting for the user, per agent. */
  pendingRequests: number;
  /** Bytes of arguments (as JSON) held by those requests, per agent. */
  pendingArgBytes: number;
}

export const DEFAULT_BUDGETS: BudgetLimits = {
  sessions: 64,
  pendingRequests: 20,
  pendingArgBytes: 4 * 1024 * 1024,
};

/** One of an agent's open sessions, as the session budget weighs it. */
export interface SessionUse {
  id: string;
  /** Recency of the agent's last request on it: larger is more recent. */
  lastUsed: number;
  /** Something is in flight: a request not yet answered, or one of ours the client has not answered. */
  busy: boolean;
  /** The client holds the session's GET stream open: it is still there, listening. */
  listening: boolean;
}

export type SessionAdmission = { ok: true; evict?: string } | { ok: false; message: string };

export class AgentBudgets {
  readonly limits: BudgetLimits;

  constructor(limits: Partial<BudgetLimits> = {}) {
    this.limits = { ...DEFAULT_BUDGETS, ...limits };
  }

  /**
   * May `agent` open one more session, given the ones it has? At the limit, one of its sessions
   * with nothing in flight is ended to make room (issue 28, item 1): many clients never DELETE a
   * session — the 1.x SDK client's close() does not — and a budget must not lock them out. Ended
   * first is the least recently used of those whose client no longer listens (no GET stream),
   * then the least recently used of the rest; its client gets 404 on its next request and
   * starts a new session (MCP 2025-11-25, "Session Management"). Only when every session has
   * something in flight is the new one refused: ending one would lose that work.
   */
  admitSession(agent: string, open: SessionUse[]): SessionAdmission {
    if (open.length < this.limits.sessions) return { ok: true };
    const idle = open
      .filter((s) => !s.busy)
      .sort((a, b) => Number(a.listening) - Number(b.listening) || a.lastUsed - b.lastUsed);
    if (idle[0]) return { ok: true, evict: idle[0].id };
    return {
      ok: false,
      message:
        `Agent "${agent}" already has ${open.length} open MCP sessions, Airlock's limit per agent ` +
        `(${this.limits.sessions}), and every one of them has a request in flight. Wait for one ` +
        'to be answered, or close sessions you no longer use (DELETE /mcp with their Mcp-Session-Id).',
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
