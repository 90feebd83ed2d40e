import { codeUnits, textPrefix } from '../../common/text-cut.js';
import { randomUUID } from 'node:crypto';
import type { AllowKind, ApprovalView, Decision } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { ApprovalRow, ShownBinding } from '../store/approval-store.js';
import type { CallToolResult } from '../tools/types.js';
import { errorResult } from '../tools/types.js';
import { argsDigest, callKey } from './canonical.js';
import type {
  ApprovalEngineDeps,
  ApprovalTimings,
  AskOutcome,
  AskRequest,
} from './engine-types.js';
import { expireDue } from './expiry.js';
import * as msg from './messages.js';
import { acceptDecision } from './decisions.js';
import { settleAfterRestart, storedOutcome } from './recovery.js';
import { allowRefusal, bindingNow } from './shown-binding.js';
import { RequestUpdates } from './request-updates.js';
import { Waiters } from './waiting.js';
import { agentLeft, forgetAgent, withdraw, withdrawAgent } from './withdrawal.js';

export type { ToolInfo } from './approval-view.js';
export type {
  ApprovalEngineDeps,
  ApprovalTimings,
  AskOutcome,
  AskRequest,
} from './engine-types.js';

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

  private readonly u: RequestUpdates;

  constructor(private readonly deps: ApprovalEngineDeps) {
    this.now = deps.now ?? Date.now;
    this.u = new RequestUpdates(deps, this.waiters, this.now);
  }

  /** Settles what a previous run left (recovery.ts), then expires requests as they fall due. */
  start(): void {
    settleAfterRestart(this.deps.store, this.deps.activity, this.now());
    this.sweeper = setInterval(() => expireDue(this.u), 1000);
    this.sweeper.unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
    this.waiters.stop();
  }

  async ask(req: AskRequest): Promise<AskOutcome> {
    const t = this.deps.timings();
    expireDue(this.u);
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
    const view = this.view(row);
    this.u.noteSent(view);
    this.deps.events.emit({ type: 'approval.requested', approval: view });
    return waiting;
  }

  private async create(key: string, req: AskRequest, t: ApprovalTimings): Promise<ApprovalRow> {
    // Taken before the card is: a change while it is made is a change since (decide refuses).
    // Null (gone meanwhile) is kept too: a card made without its tool matches no tool that comes back.
    const { toolFingerprint, runFingerprint } = this.deps;
    // Kept with the request (approvals.shown_json): a pending request outlives a restart, and an
    // allow after one is checked against the same card.
    const shown: ShownBinding = {
      ...(toolFingerprint ? { tool: toolFingerprint(req.toolKey) } : {}),
      ...(runFingerprint ? { runs: runFingerprint(req.toolKey, req.args) } : {}),
    };
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
      shown: shown.tool !== undefined || shown.runs !== undefined ? shown : null,
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
    forgetAgent(this.u, agent);
  }

  /**
   * The registry changed (a tool's definition, a server down or back, the Google accounts): a
   * pending request's card may now have allows that would be refused, or no longer have them
   * (`refused`), or show other words about its tool. Each pending request whose view differs from
   * the one the UIs were last sent is sent again (approval.updated), so an open card never offers
   * an allow that decide would refuse. Bounded by the pending requests; finished ones are not read.
   */
  refreshPending(): void {
    const pending = new Set<string>();
    for (const row of this.deps.store.listByState(['pending'])) {
      pending.add(row.id);
      const view = this.view(row);
      // Compared with what the UIs were last sent, however (RequestUpdates.noteSent): a change
      // that leaves a request as it was announced sends nothing, the first one after it too.
      if (this.u.noteSent(view))
        this.deps.events.emit({ type: 'approval.updated', approval: view });
    }
    this.u.forgetSentBut(pending);
  }

  listPending(): ApprovalView[] {
    expireDue(this.u);
    return this.deps.store.listByState(['pending']).map((r) => this.view(r));
  }

  get(id: string): ApprovalView {
    return this.view(this.u.mustGet(id));
  }

  /** The tool a request is for, by its stable key: a public name can pass to another tool. */
  toolKeyOf(id: string): string {
    return this.u.mustGet(id).toolKey;
  }

  async decide(id: string, decision: Decision): Promise<ApprovalView> {
    expireDue(this.u);
    const row = this.u.mustGet(id);
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
        throw this.u.raced(id);
      this.u.track(id, { decision: 'denied', outcome: 'not_run', waitMs, decisionKind: 'denied' });
      return this.u.finish(id, {
        result: msg.deniedResult({ ...row, reason }),
        decision: 'denied',
        approvalId: id,
        ran: false,
      });
    }
    this.sameToolAsShown(row, decision.kind);
    const { edited, kind, grantId } = await acceptDecision(this.deps, row, decision);
    // Again after it: checking an edit awaits (a schema compiled on first use), and the tool may
    // change meanwhile; the run starts right after the transition below.
    try {
      this.sameToolAsShown(row, decision.kind, edited);
    } catch (err) {
      if (grantId) this.deps.grants.revoke(grantId);
      throw err;
    }
    if (
      !this.deps.store.transition(id, ['pending'], 'approved', {
        decidedAt: now,
        editedArgs: edited,
        decisionKind: kind,
        grantId,
      })
    ) {
      if (grantId) this.deps.grants.revoke(grantId);
      throw this.u.raced(id);
    }
    this.u.track(id, {
      decision: 'approved',
      decisionKind: kind,
      waitMs,
      ...(grantId ? { grantId } : {}),
    });
    const view = this.u.emitUpdated(id);
    void this.run(id);
    return view;
  }

  /** Refuses an allow the card's tool no longer supports (shown-binding.ts, the rule the view shows). */
  private sameToolAsShown(
    row: ApprovalRow,
    kind: AllowKind,
    edited?: Record<string, unknown> | null,
  ): void {
    const refused = allowRefusal(
      row.tool,
      row.shown ?? null,
      bindingNow(this.deps, row, edited),
      kind,
    );
    if (refused) throw new ControlError(refused.code, refused.message);
  }

  /**
   * Runs an approved call once. Never rejects: it is started unawaited (`decide`), so a throw
   * here would be an unhandled rejection, and the call would stay `executing` with its agent
   * waiting. Whatever fails after the call started — the call, or storing what it brought back
   * (a result `JSON.stringify` cannot write) — ends the request `failed`, with the reason.
   */
  private async run(id: string): Promise<void> {
    // The guarded transition is what makes execution exactly-once.
    const started = this.now();
    if (!this.deps.store.transition(id, ['approved'], 'executing', { startedAt: started })) return;
    try {
      await this.execute(id, started);
    } catch (err) {
      this.failRun(id, started, err);
    }
  }

  private async execute(id: string, started: number): Promise<void> {
    const row = this.u.mustGet(id);
    this.u.emitUpdated(id);
    const args = row.editedArgs ?? row.args;
    const progress = this.u.progressToWaiters(id);
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
    // Inside run's handling: a result the store cannot write fails the request (failRun).
    this.deps.store.transition(id, ['executing'], state, { finishedAt: finished, result });
    this.u.track(id, {
      outcome: result.isError ? 'error' : 'ok',
      durationMs: finished - started,
      ...(result.isError && upstreamText?.type === 'text' ? { detail: upstreamText.text } : {}),
    });
    this.u.finish(id, { result, decision: 'approved', approvalId: id, ran: true });
  }

  /**
   * The call started but its handling threw: the request ends `failed` saying so, its Activity
   * row too, and its waiting agent gets that answer. The call may have run, so it says to check.
   */
  private failRun(id: string, started: number, err: unknown): void {
    const why = err instanceof Error ? err.message : String(err);
    const result = errorResult(
      `The call was sent, but Airlock could not finish handling it: ${textPrefix(why, 300, codeUnits)}. It may have run; check before trying again.`,
    );
    const finished = this.now();
    try {
      // Already finished (what threw came after): its outcome stands.
      if (
        !this.deps.store.transition(id, ['executing'], 'failed', { finishedAt: finished, result })
      )
        return;
    } catch {
      // The store itself is failing: the waiters still get their answer below.
    }
    this.u.track(id, {
      outcome: 'error',
      durationMs: finished - started,
      detail: result.content[0]?.type === 'text' ? result.content[0].text : why,
    });
    try {
      this.u.finish(id, { result, decision: 'approved', approvalId: id, ran: true });
    } catch {
      // No view to send (the row is gone): nobody is left to tell.
    }
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
      if (!this.waiters.has(row.id)) agentLeft(this.u, row.id);
      return Promise.resolve(waitingOutcome());
    }
    return this.waiters.attach(row.id, {
      signal: req.signal,
      ...(req.progress ? { progress: req.progress } : {}),
      waitMs: t.waitMs,
      progressIntervalMs: t.progressIntervalMs,
      progressMessage: `Waiting for approval in Airlock (request ${row.id})`,
      onFirst: () => {
        const now = this.u.mustGet(row.id);
        if (now.agentLeftAt === null) return;
        this.deps.store.setAgentLeft(row.id, null);
        if (now.state === 'pending') this.u.emitUpdated(row.id);
      },
      onTimeout: (last) => {
        if (last) agentLeft(this.u, row.id);
        return waitingOutcome();
      },
      onAbort: (last) => {
        // A client that cancels keeps its request for a grace period, so its retry re-attaches
        // (issue 16 item 6); after that the request is withdrawn, unless someone decided meanwhile.
        if (last) {
          agentLeft(this.u, row.id);
          // A cancelled task is never made again: nothing to re-attach, so no grace either.
          if (req.withdrawOnCancel) withdraw(this.u, row.id);
          else this.waiters.startGrace(row.id, t.cancelGraceMs, () => withdraw(this.u, row.id));
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

  /**
   * Issue 17.8: a revoked agent's waiting requests are withdrawn, so a later
   * approval cannot run them; its waiting calls are answered.
   */
  withdrawAgent(agent: string): number {
    return withdrawAgent(this.u, agent);
  }

  view(row: ApprovalRow): ApprovalView {
    return this.u.view(row);
  }
}
