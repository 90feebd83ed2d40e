import { createHash } from 'node:crypto';
import type { ApprovalView } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { ActivityPatch } from '../store/activity.js';
import type { ApprovalRow } from '../store/approval-store.js';
import type { ToolCallContext } from '../tools/types.js';
import { approvalView } from './approval-view.js';
import type { ApprovalEngineDeps, AskOutcome } from './engine-types.js';
import { allowRefusals, bindingNow } from './shown-binding.js';
import type { Waiters } from './waiting.js';

/**
 * How a request's change of state gets out: its Activity row moves along, its waiting calls
 * are answered and the UI hears of it. Shared by the engine and its sweeps (expiry.ts,
 * withdrawal.ts).
 */
export class RequestUpdates {
  /**
   * What the UIs were last sent of each pending request (approval.requested or .updated), as a
   * hash of its view less its arguments (they do not change while it waits, and may be megabytes):
   * refreshPending sends a request again only when its view differs from that.
   */
  private readonly sent = new Map<string, string>();

  constructor(
    readonly deps: ApprovalEngineDeps,
    readonly waiters: Waiters,
    readonly now: () => number,
  ) {}

  /** Moves the request's Activity row along; a failure to log never fails the call. */
  track(id: string, patch: ActivityPatch): void {
    try {
      this.deps.activity.updateByApproval(id, patch);
    } catch {
      // The approval state (the source of truth) is already written.
    }
  }

  finish(id: string, outcome: AskOutcome): ApprovalView {
    this.waiters.cancelGrace(id);
    for (const w of this.waiters.all(id)) w.settle(outcome);
    return this.emitUpdated(id);
  }

  progressToWaiters(id: string): ToolCallContext['progress'] {
    return (p, total, message) => {
      for (const w of this.waiters.all(id)) w.progress?.(p, total, message);
    };
  }

  emitUpdated(id: string): ApprovalView {
    const view = this.view(this.mustGet(id));
    this.noteSent(view);
    this.deps.events.emit({ type: 'approval.updated', approval: view });
    return view;
  }

  /** Notes `view` as what the UIs have of its request; true when that differs from before. */
  noteSent(view: ApprovalView): boolean {
    if (view.state !== 'pending') {
      this.sent.delete(view.id);
      return true;
    }
    const { arguments: _args, ...rest } = view;
    const key = createHash('sha256').update(JSON.stringify(rest)).digest('base64');
    if (this.sent.get(view.id) === key) return false;
    this.sent.set(view.id, key);
    return true;
  }

  /** Drops what was noted of requests no longer pending (left without an update sent). */
  forgetSentBut(pending: ReadonlySet<string>): void {
    for (const id of this.sent.keys()) if (!pending.has(id)) this.sent.delete(id);
  }

  mustGet(id: string): ApprovalRow {
    const row = typeof id === 'string' ? this.deps.store.get(id) : undefined;
    if (!row) throw new ControlError('NOT_FOUND', `No approval request ${String(id)}.`);
    return row;
  }

  raced(id: string): ControlError {
    return new ControlError(
      'CONFLICT',
      `This request was decided a moment ago (${this.mustGet(id).state}); nothing changed.`,
    );
  }

  view(row: ApprovalRow): ApprovalView {
    const refused = allowRefusals(row.tool, row.state, row.shown ?? null, () =>
      bindingNow(this.deps, row),
    );
    return approvalView(row, this.deps.toolInfo(row.toolKey), this.waiters.has(row.id), refused);
  }
}
