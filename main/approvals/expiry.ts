import * as msg from './messages.js';
import type { RequestUpdates } from './request-updates.js';

/** Expires the pending requests that fell due; their waiting calls get the "expired" answer. */
export function expireDue(u: RequestUpdates): void {
  const t = u.deps.timings();
  for (const row of u.deps.store.dueForExpiry(u.now())) {
    if (
      !u.deps.store.transition(row.id, ['pending'], 'expired', {
        decidedAt: u.now(),
        decisionKind: 'expired',
      })
    )
      continue;
    u.waiters.cancelGrace(row.id);
    u.track(row.id, {
      decision: 'expired',
      outcome: 'not_run',
      waitMs: u.now() - row.createdAt,
      decisionKind: 'expired',
    });
    u.finish(row.id, {
      result: msg.expiredResult(row, Math.round(t.expireMs / 60000)),
      decision: 'expired',
      approvalId: row.id,
      ran: false,
    });
  }
}
