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

/**
 * Each agent's tool calls in flight (docs/security.md, "Cannot exhaust the machine"): a flooding
 * agent — thousands of tools/call at once over many sessions or 2026-07-28 requests — used to be
 * taken in without a word, memory and the upstreams' load growing with it. CallPipeline.call, the
 * one place both eras' calls (and tasks') pass, takes a slot before anything else is done for a
 * call and gives it back when its answer is made, whatever ends it (an answer, an error, the
 * agent's cancellation, an answer nobody is left to read). A call waiting for the user's decision
 * keeps its slot — the agent's request is held open that long — but no longer than its wait
 * (`approvals.waitSeconds`; after that it answers "waiting" and lets go), and the agent's distinct
 * waiting requests are capped lower by admitPending, so this cap never refuses on their account
 * alone. Per agent: one agent at its limit never stops another.
 */
export class CallsInFlight {
  private readonly counts = new Map<string, number>();

  /** Calls `agent` has in flight now. */
  count(agent: string): number {
    return this.counts.get(agent) ?? 0;
  }

  /**
   * Takes one of `agent`'s slots: null when admitted (give it back with `leave` exactly once), or
   * the refusal to send back as a tool error when the agent already has `limit` calls in flight.
   */
  enter(agent: string, limit: number): string | null {
    const n = this.counts.get(agent) ?? 0;
    if (n >= limit) {
      return (
        `Refused: agent "${agent}" already has ${n} tool calls in flight, Airlock's limit per ` +
        `agent (${limit}); this call was not run. Wait for some of them to be answered before ` +
        'sending more (the user can change the limit: limits.callsInFlightPerAgent in settings.json).'
      );
    }
    this.counts.set(agent, n + 1);
    return null;
  }

  /**
   * Counts a call that was admitted before and is only made again — a task asking once more after
   * "waiting for approval" (gateway/mcp-handlers/tasks.ts) — without refusing it: it was let in,
   * and a slow user must not turn it into a refusal. Give it back with `leave`.
   */
  reenter(agent: string): void {
    this.counts.set(agent, (this.counts.get(agent) ?? 0) + 1);
  }

  /**
   * Gives back a slot taken by `enter` or `reenter`. The agent's entry stays at 0, not deleted
   * (one per agent name): deleting it with each last call and adding it with the next made the
   * Map rehash its table every few calls, ≈ 0.11 KiB allocated per everyday call (issue 34;
   * scripts/experiments/alloc-2025-call.mjs).
   */
  leave(agent: string): void {
    const n = (this.counts.get(agent) ?? 0) - 1;
    this.counts.set(agent, n > 0 ? n : 0);
  }
}
