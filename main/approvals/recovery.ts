import type { ActivityLog } from '../store/activity.js';
import type { ApprovalRow, ApprovalStore } from '../store/approval-store.js';
import { errorResult } from '../tools/types.js';
import type { AskOutcome } from './engine.js';
import * as msg from './messages.js';

/**
 * What a previous run left: `executing` may have been applied (unknown, never
 * re-sent), `approved` never ran (failed, nothing sent), and nobody is waiting
 * on a pending request any more (the card says so).
 */
export function settleAfterRestart(store: ApprovalStore, activity: ActivityLog, now: number): void {
  for (const row of store.listByState(['executing'])) {
    const reason = 'Airlock stopped while the call was running';
    store.transition(row.id, ['executing'], 'unknown', { finishedAt: now, reason });
    activity.updateByApproval(row.id, { outcome: 'unknown', detail: reason });
  }
  for (const row of store.listByState(['approved'])) {
    const text =
      'Airlock stopped after the approval and before running the call; nothing was sent.';
    store.transition(row.id, ['approved'], 'failed', {
      finishedAt: now,
      result: errorResult(text),
    });
    activity.updateByApproval(row.id, { outcome: 'not_run', detail: text });
  }
  for (const row of store.listByState(['pending']))
    if (row.agentLeftAt === null) store.setAgentLeft(row.id, now);
}

/** What a repeat of a finished call gets instead of running again. */
export function storedOutcome(row: ApprovalRow): AskOutcome | null {
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
