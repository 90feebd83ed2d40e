import { randomUUID } from 'node:crypto';
import type {
  ActivityView,
  ApprovalView,
  Decision,
  TaintView,
} from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { CoreEvents } from '../platform/events.js';
import type { ActivityLog, ActivityPatch } from '../store/activity.js';
import type { ApprovalRow, ApprovalStore } from '../store/approval-store.js';
import type { CallToolResult, ToolCallContext } from '../tools/types.js';
import { errorResult } from '../tools/types.js';
import { approvalView, type ToolInfo } from './approval-view.js';
import { argsDigest, callKey } from './canonical.js';
import type { GrantService } from './grants.js';
import * as msg from './messages.js';
import { acceptDecision } from './decisions.js';
import { settleAfterRestart, storedOutcome } from './recovery.js';
import { Waiters } from './waiting.js';

export type { ToolInfo } from './approval-view.js';

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
  /** Answer at once with "waiting" instead of blocking (URL elicitation, issue 16 item 1). */
  noWait?: boolean;
}

export interface AskOutcome {
  result: CallToolResult;
  decision: ActivityView['decision'];
  approvalId?: string;
  /** False when nothing was run for this caller (waiting, denied, …). */
  ran: boolean;
}

/**
 * The approval engine: durable pending requests, attach-on-repeat, and
 * exactly-once execution (issue 3). A call blocks for a bounded time, then
 * tells the agent to call again; the repeat attaches to the same request.
 * Each request owns one Activity row, moved along with it (issue 16 item 5).
 */
export class ApprovalEngine {
  private readonly waiters = new Waiters();
  private readonly creating = new Map<string, Promise<ApprovalRow>>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: ApprovalEngineDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Settles what a previous run left (recovery.ts), then expires requests as they fall due. */
  start(): void {
    settleAfterRestart(this.deps.store, this.deps.activity, this.now());
    this.sweeper = setInterval(() => this.expireDue(), 1000);
    this.sweeper.unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
    this.waiters.stop();
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
      const stored = storedOutcome(existing);
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
      decisionKind: null,
      grantId: null,
      agentLeftAt: null,
      startedAt: null,
      taint: req.taint ?? null,
    };
    this.deps.store.insert(row);
    this.deps.activity.addNow({
      agent: req.agent,
      tool: req.tool,
      decision: 'waiting',
      outcome: 'pending',
      durationMs: 0,
      argsDigest: argsDigest(req.args),
      approvalId: row.id,
      ...(req.taint ? { taint: req.taint.summary } : {}),
    });
    return row;
  }

  /**
   * An agent was revoked: its pending requests are withdrawn (approving them later runs
   * nothing), and its finished ones no longer answer repeats, so a new agent given the same
   * name inherits no stored outcome.
   */
  forgetAgent(agent: string): void {
    for (const id of this.deps.store.detachAgent(agent)) {
      this.waiters.cancelGrace(id);
      if (this.deps.store.transition(id, ['pending'], 'withdrawn', { decidedAt: this.now() })) {
        this.track(id, { decision: 'withdrawn', outcome: 'not_run', decisionKind: 'withdrawn' });
        this.finish(id, {
          result: msg.withdrawnResult(),
          decision: 'withdrawn',
          approvalId: id,
          ran: false,
        });
      }
    }
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
    const waitMs = now - row.createdAt;
    if (decision.kind === 'deny') {
      const reason = decision.reason?.trim().slice(0, 1000) || null;
      if (
        !this.deps.store.transition(id, ['pending'], 'denied', {
          decidedAt: now,
          reason,
          decisionKind: 'denied',
        })
      )
        throw this.raced(id);
      this.track(id, { decision: 'denied', outcome: 'not_run', waitMs, decisionKind: 'denied' });
      return this.finish(id, {
        result: msg.deniedResult({ ...row, reason }),
        decision: 'denied',
        approvalId: id,
        ran: false,
      });
    }
    const { edited, kind, grantId } = await acceptDecision(this.deps, row, decision);
    if (
      !this.deps.store.transition(id, ['pending'], 'approved', {
        decidedAt: now,
        editedArgs: edited,
        decisionKind: kind,
        grantId,
      })
    ) {
      if (grantId) this.deps.grants.revoke(grantId);
      throw this.raced(id);
    }
    this.track(id, {
      decision: 'approved',
      decisionKind: kind,
      waitMs,
      ...(grantId ? { grantId } : {}),
    });
    const view = this.emitUpdated(id);
    void this.run(id);
    return view;
  }

  private async run(id: string): Promise<void> {
    // The guarded transition is what makes execution exactly-once.
    const started = this.now();
    if (!this.deps.store.transition(id, ['approved'], 'executing', { startedAt: started })) return;
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
    // The upstream's own words, before Airlock adds its note (issue 16 item 5: "the real error").
    const upstreamText = result.content?.find((c) => c.type === 'text');
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
    const finished = this.now();
    this.deps.store.transition(id, ['executing'], state, { finishedAt: finished, result });
    this.track(id, {
      outcome: result.isError ? 'error' : 'ok',
      durationMs: finished - started,
      ...(result.isError && upstreamText?.type === 'text' ? { detail: upstreamText.text } : {}),
    });
    this.finish(id, { result, decision: 'approved', approvalId: id, ran: true });
  }

  private wait(row: ApprovalRow, req: AskRequest, t: ApprovalTimings): Promise<AskOutcome> {
    const waitingOutcome = (): AskOutcome => ({
      result: msg.waitingResult(row),
      decision: 'waiting',
      approvalId: row.id,
      ran: false,
    });
    if (req.noWait) {
      // Nobody stays attached: the client comes back on its own once the user decides.
      if (!this.waiters.has(row.id)) this.agentLeft(row.id);
      return Promise.resolve(waitingOutcome());
    }
    return this.waiters.attach(row.id, {
      signal: req.signal,
      ...(req.progress ? { progress: req.progress } : {}),
      waitMs: t.waitMs,
      progressIntervalMs: t.progressIntervalMs,
      progressMessage: `Waiting for approval in Airlock (request ${row.id})`,
      onFirst: () => {
        const now = this.mustGet(row.id);
        if (now.agentLeftAt === null) return;
        this.deps.store.setAgentLeft(row.id, null);
        if (now.state === 'pending') this.emitUpdated(row.id);
      },
      onTimeout: (last) => {
        if (last) this.agentLeft(row.id);
        return waitingOutcome();
      },
      onAbort: (last) => {
        // A client that cancels keeps its request for a grace period, so its retry re-attaches
        // (issue 16 item 6); after that the request is withdrawn, unless someone decided meanwhile.
        if (last) {
          this.agentLeft(row.id);
          this.waiters.startGrace(row.id, t.cancelGraceMs, () => this.withdraw(row.id));
        }
        return {
          result: msg.withdrawnResult(),
          decision: 'withdrawn',
          approvalId: row.id,
          ran: false,
        };
      },
    });
  }

  private agentLeft(id: string): void {
    this.deps.store.setAgentLeft(id, this.now());
    if (this.deps.store.get(id)?.state === 'pending') this.emitUpdated(id);
  }

  private withdraw(id: string): void {
    if (this.deps.store.transition(id, ['pending'], 'withdrawn', { decidedAt: this.now() })) {
      this.track(id, { decision: 'withdrawn', outcome: 'not_run', decisionKind: 'withdrawn' });
      this.emitUpdated(id);
    }
  }

  private expireDue(): void {
    const t = this.deps.timings();
    for (const row of this.deps.store.dueForExpiry(this.now())) {
      if (
        !this.deps.store.transition(row.id, ['pending'], 'expired', {
          decidedAt: this.now(),
          decisionKind: 'expired',
        })
      )
        continue;
      this.waiters.cancelGrace(row.id);
      this.track(row.id, {
        decision: 'expired',
        outcome: 'not_run',
        waitMs: this.now() - row.createdAt,
        decisionKind: 'expired',
      });
      this.finish(row.id, {
        result: msg.expiredResult(row, Math.round(t.expireMs / 60000)),
        decision: 'expired',
        approvalId: row.id,
        ran: false,
      });
    }
  }

  /** Moves the request's Activity row along; a failure to log never fails the call. */
  private track(id: string, patch: ActivityPatch): void {
    try {
      this.deps.activity.updateByApproval(id, patch);
    } catch {
      // The approval state (the source of truth) is already written.
    }
  }

  private finish(id: string, outcome: AskOutcome): ApprovalView {
    this.waiters.cancelGrace(id);
    for (const w of this.waiters.all(id)) w.settle(outcome);
    return this.emitUpdated(id);
  }

  private progressToWaiters(id: string): ToolCallContext['progress'] {
    return (p, total, message) => {
      for (const w of this.waiters.all(id)) w.progress?.(p, total, message);
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
    return approvalView(row, this.deps.toolInfo(row.toolKey), this.waiters.has(row.id));
  }
}
