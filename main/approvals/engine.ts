import { randomUUID } from 'node:crypto';
import type { ActivityView, ApprovalView, Decision } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { CoreEvents } from '../platform/events.js';
import type { ApprovalRow, ApprovalStore } from '../store/approval-store.js';
import type { CallToolResult, ToolCallContext } from '../tools/types.js';
import { errorResult } from '../tools/types.js';
import { callKey } from './canonical.js';
import * as msg from './messages.js';

export interface ApprovalTimings {
  waitMs: number;
  expireMs: number;
  outcomeWindowMs: number;
  progressIntervalMs: number;
}

export interface ToolInfo {
  name: string;
  title?: string;
  inputSchema: Record<string, unknown>;
}

export interface ApprovalEngineDeps {
  store: ApprovalStore;
  events: CoreEvents;
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
  validate: (
    toolKey: string,
    args: Record<string, unknown>,
  ) => string | null | Promise<string | null>;
  grant: (agent: string, toolKey: string, until: string | null) => void;
  isPaused: () => boolean;
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
  signal: AbortSignal;
  progress?: ToolCallContext['progress'];
}

export interface AskOutcome {
  result: CallToolResult;
  decision: ActivityView['decision'];
  approvalId?: string;
  /** False when nothing was run for this caller (waiting, denied, …). */
  ran: boolean;
}

interface Waiter {
  settle: (outcome: AskOutcome) => void;
  progress?: ToolCallContext['progress'];
}

/**
 * The approval engine: durable pending requests, attach-on-repeat, and
 * exactly-once execution (issue 3). A call blocks for a bounded time, then
 * tells the agent to call again; the repeat attaches to the same request.
 */
export class ApprovalEngine {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly creating = new Map<string, Promise<ApprovalRow>>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: ApprovalEngineDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Settles what a previous run left: `executing` may have been applied, `approved` never ran. */
  start(): void {
    const now = this.now();
    for (const row of this.deps.store.listByState(['executing'])) {
      this.deps.store.transition(row.id, ['executing'], 'unknown', {
        finishedAt: now,
        reason: 'Airlock stopped while the call was running',
      });
    }
    for (const row of this.deps.store.listByState(['approved'])) {
      this.deps.store.transition(row.id, ['approved'], 'failed', {
        finishedAt: now,
        result: errorResult(
          'Airlock stopped after the approval and before running the call; nothing was sent.',
        ),
      });
    }
    this.sweeper = setInterval(() => this.expireDue(), 1000);
    this.sweeper.unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  async ask(req: AskRequest): Promise<AskOutcome> {
    const t = this.deps.timings();
    this.expireDue();
    const key = callKey(req.agent, req.toolKey, req.args);
    // An identical call still being created (its effect text is being looked up) is joined, not duplicated.
    const creating = this.creating.get(key);
    const existing = creating
      ? await creating
      : this.deps.store.findForRepeat(key, this.now() - t.outcomeWindowMs);
    if (existing) {
      const stored = this.storedOutcome(existing);
      if (stored) return stored;
      return this.wait(existing, req, t);
    }
    if (this.deps.isPaused()) return { result: msg.pausedResult(), decision: 'paused', ran: false };
    const refused = this.deps.admit?.(req.agent, req.args);
    if (refused) return { result: errorResult(refused), decision: 'rejected', ran: false };
    const created = this.create(key, req, t);
    this.creating.set(key, created);
    let row: ApprovalRow;
    try {
      row = await created;
    } finally {
      this.creating.delete(key);
    }
    const waiting = this.wait(row, req, t);
    this.deps.events.emit({ type: 'approval.requested', approval: this.view(row) });
    return waiting;
  }

  private async create(key: string, req: AskRequest, t: ApprovalTimings): Promise<ApprovalRow> {
    const effect = await req.effect();
    const now = this.now();
    const row: ApprovalRow = {
      id: randomUUID(),
      callKey: key,
      agent: req.agent,
      toolKey: req.toolKey,
      tool: req.tool,
      args: req.args,
      effect,
      state: 'pending',
      createdAt: now,
      expiresAt: now + t.expireMs,
      decidedAt: null,
      finishedAt: null,
      reason: null,
      editedArgs: null,
      result: null,
    };
    this.deps.store.insert(row);
    return row;
  }

  listPending(): ApprovalView[] {
    this.expireDue();
    return this.deps.store.listByState(['pending']).map((r) => this.view(r));
  }

  get(id: string): ApprovalView {
    return this.view(this.mustGet(id));
  }

  async decide(id: string, decision: Decision): Promise<ApprovalView> {
    this.expireDue();
    const row = this.mustGet(id);
    if (row.state !== 'pending') {
      throw new ControlError('CONFLICT', `This request is already ${row.state}; nothing changed.`);
    }
    const now = this.now();
    if (decision.kind === 'deny') {
      const reason = decision.reason?.trim().slice(0, 1000) || null;
      if (!this.deps.store.transition(id, ['pending'], 'denied', { decidedAt: now, reason }))
        throw this.raced(id);
      return this.finish(id, {
        result: msg.deniedResult({ ...row, reason }),
        decision: 'denied',
        approvalId: id,
        ran: false,
      });
    }
    let edited: Record<string, unknown> | null = null;
    if (decision.kind === 'allow_edited') {
      if (
        !decision.arguments ||
        typeof decision.arguments !== 'object' ||
        Array.isArray(decision.arguments)
      ) {
        throw new ControlError('INVALID', 'Edited arguments must be a JSON object.');
      }
      const problem = await this.deps.validate(row.toolKey, decision.arguments);
      if (problem)
        throw new ControlError(
          'INVALID',
          `The edited arguments do not fit ${row.tool}: ${problem}`,
        );
      edited = decision.arguments;
    }
    let until: string | null = null;
    if (decision.kind === 'always_allow' && decision.until) {
      if (Number.isNaN(Date.parse(decision.until)))
        throw new ControlError('INVALID', '"until" must be an ISO date-time.');
      until = new Date(decision.until).toISOString();
    }
    if (
      !this.deps.store.transition(id, ['pending'], 'approved', {
        decidedAt: now,
        editedArgs: edited,
      })
    )
      throw this.raced(id);
    if (decision.kind === 'always_allow') this.deps.grant(row.agent, row.toolKey, until);
    const view = this.emitUpdated(id);
    void this.run(id);
    return view;
  }

  private async run(id: string): Promise<void> {
    // The guarded transition is what makes execution exactly-once.
    if (!this.deps.store.transition(id, ['approved'], 'executing')) return;
    const row = this.mustGet(id);
    this.emitUpdated(id);
    const args = row.editedArgs ?? row.args;
    const progress = this.progressToWaiters(id);
    let result: CallToolResult;
    try {
      result = await this.deps.execute(row, args, {
        agent: row.agent,
        signal: new AbortController().signal,
        progress,
      });
    } catch (err) {
      result = errorResult(`The call failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (row.editedArgs) {
      result = {
        ...result,
        content: [
          { type: 'text', text: msg.editNote(row.args, row.editedArgs) },
          ...(result.content ?? []),
        ],
      };
    }
    const state = result.isError ? 'failed' : 'done';
    this.deps.store.transition(id, ['executing'], state, { finishedAt: this.now(), result });
    this.finish(id, { result, decision: 'approved', approvalId: id, ran: true });
  }

  private wait(row: ApprovalRow, req: AskRequest, t: ApprovalTimings): Promise<AskOutcome> {
    return new Promise<AskOutcome>((resolve) => {
      const set = this.waiters.get(row.id) ?? new Set<Waiter>();
      this.waiters.set(row.id, set);
      const cleanup = () => {
        clearTimeout(timer);
        clearInterval(ticker);
        req.signal.removeEventListener('abort', onAbort);
        set.delete(waiter);
        if (set.size === 0 && this.waiters.get(row.id) === set) this.waiters.delete(row.id);
      };
      const waiter: Waiter = { settle: (o) => (cleanup(), resolve(o)), progress: req.progress };
      const onAbort = () => {
        cleanup();
        // A client that cancels or drops while waiting withdraws its request,
        // unless another identical call is still waiting on it.
        if (
          !this.waiters.has(row.id) &&
          this.deps.store.transition(row.id, ['pending'], 'withdrawn', { decidedAt: this.now() })
        ) {
          this.emitUpdated(row.id);
        }
        resolve({
          result: msg.withdrawnResult(),
          decision: 'withdrawn',
          approvalId: row.id,
          ran: false,
        });
      };
      const timer = setTimeout(() => {
        cleanup();
        resolve({
          result: msg.waitingResult(row),
          decision: 'waiting',
          approvalId: row.id,
          ran: false,
        });
      }, t.waitMs);
      let ticks = 0;
      const ticker = setInterval(() => {
        ticks++;
        req.progress?.(ticks, undefined, `Waiting for approval in Airlock (request ${row.id})`);
      }, t.progressIntervalMs);
      set.add(waiter);
      if (req.signal.aborted) onAbort();
      else req.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private storedOutcome(row: ApprovalRow): AskOutcome | null {
    const base = { approvalId: row.id, ran: false };
    switch (row.state) {
      case 'done':
      case 'failed':
        return { ...base, result: msg.alreadyDoneResult(row), decision: 'approved' };
      case 'denied':
        return { ...base, result: msg.deniedResult(row), decision: 'denied' };
      case 'unknown':
        return { ...base, result: msg.unknownResult(row), decision: 'approved' };
      default:
        return null;
    }
  }

  private expireDue(): void {
    const t = this.deps.timings();
    for (const row of this.deps.store.dueForExpiry(this.now())) {
      if (!this.deps.store.transition(row.id, ['pending'], 'expired', { decidedAt: this.now() }))
        continue;
      this.finish(row.id, {
        result: msg.expiredResult(row, Math.round(t.expireMs / 60000)),
        decision: 'expired',
        approvalId: row.id,
        ran: false,
      });
    }
  }

  private finish(id: string, outcome: AskOutcome): ApprovalView {
    for (const w of [...(this.waiters.get(id) ?? [])]) w.settle(outcome);
    return this.emitUpdated(id);
  }

  private progressToWaiters(id: string): ToolCallContext['progress'] {
    return (p, total, message) => {
      for (const w of this.waiters.get(id) ?? []) w.progress?.(p, total, message);
    };
  }

  private emitUpdated(id: string): ApprovalView {
    const view = this.view(this.mustGet(id));
    this.deps.events.emit({ type: 'approval.updated', approval: view });
    return view;
  }

  private mustGet(id: string): ApprovalRow {
    const row = typeof id === 'string' ? this.deps.store.get(id) : undefined;
    if (!row) throw new ControlError('NOT_FOUND', `No approval request ${String(id)}.`);
    return row;
  }

  private raced(id: string): ControlError {
    return new ControlError(
      'CONFLICT',
      `This request was decided a moment ago (${this.mustGet(id).state}); nothing changed.`,
    );
  }

  /**
   * Issue 17.8: a revoked agent's waiting requests are withdrawn, so a later
   * approval cannot run them; its waiting calls are answered.
   */
  withdrawAgent(agent: string): number {
    let count = 0;
    for (const row of this.deps.store.listByState(['pending'])) {
      if (row.agent !== agent) continue;
      if (!this.deps.store.transition(row.id, ['pending'], 'withdrawn', { decidedAt: this.now() }))
        continue;
      count++;
      this.finish(row.id, {
        result: errorResult(
          'The request was withdrawn because this agent was revoked in Airlock. Nothing was run.',
        ),
        decision: 'withdrawn',
        approvalId: row.id,
        ran: false,
      });
    }
    return count;
  }

  view(row: ApprovalRow): ApprovalView {
    const info = this.deps.toolInfo(row.toolKey);
    const outcome = row.result?.content?.find((c) => c.type === 'text');
    return {
      id: row.id,
      agent: row.agent,
      tool: info?.name ?? row.tool,
      ...(info?.title ? { toolTitle: info.title } : {}),
      effect: row.effect,
      arguments: row.args,
      inputSchema: info?.inputSchema ?? { type: 'object' },
      state: row.state,
      createdAt: new Date(row.createdAt).toISOString(),
      expiresAt: new Date(row.expiresAt).toISOString(),
      ...(row.decidedAt ? { decidedAt: new Date(row.decidedAt).toISOString() } : {}),
      ...(row.reason ? { reason: row.reason } : {}),
      ...(row.editedArgs ? { editedArguments: row.editedArgs } : {}),
      ...(outcome && outcome.type === 'text' ? { outcome: outcome.text.slice(0, 300) } : {}),
    };
  }
}
