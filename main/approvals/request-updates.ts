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
    this.deps.events.emit({ type: 'approval.updated', approval: view });
    return view;
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
