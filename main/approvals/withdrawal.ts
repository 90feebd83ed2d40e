import { errorResult } from '../tools/types.js';
import * as msg from './messages.js';
import type { RequestUpdates } from './request-updates.js';

/** No call waits on the request any more; the card says the agent left. */
export function agentLeft(u: RequestUpdates, id: string): void {
  u.deps.store.setAgentLeft(id, u.now());
  if (u.deps.store.get(id)?.state === 'pending') u.emitUpdated(id);
}

/** A cancelled request whose grace period ran out (issue 16 item 6). */
export function withdraw(u: RequestUpdates, id: string): void {
  if (u.deps.store.transition(id, ['pending'], 'withdrawn', { decidedAt: u.now() })) {
    u.track(id, { decision: 'withdrawn', outcome: 'not_run', decisionKind: 'withdrawn' });
    u.emitUpdated(id);
  }
}

/**
 * An agent was revoked: its pending requests are withdrawn (approving them later runs
 * nothing), and its finished ones no longer answer repeats, so a new agent given the same
 * name inherits no stored outcome.
 */
export function forgetAgent(u: RequestUpdates, agent: string): void {
  for (const id of u.deps.store.detachAgent(agent)) {
    u.waiters.cancelGrace(id);
    if (u.deps.store.transition(id, ['pending'], 'withdrawn', { decidedAt: u.now() })) {
      u.track(id, { decision: 'withdrawn', outcome: 'not_run', decisionKind: 'withdrawn' });
      u.finish(id, {
        result: msg.withdrawnResult(),
        decision: 'withdrawn',
        approvalId: id,
        ran: false,
      });
    }
  }
}

/**
 * Issue 17.8: a revoked agent's waiting requests are withdrawn, so a later
 * approval cannot run them; its waiting calls are answered.
 */
export function withdrawAgent(u: RequestUpdates, agent: string): number {
  let count = 0;
  for (const row of u.deps.store.listByState(['pending'])) {
    if (row.agent !== agent) continue;
    if (!u.deps.store.transition(row.id, ['pending'], 'withdrawn', { decidedAt: u.now() }))
      continue;
    count++;
    u.finish(row.id, {
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
