import type { ApprovalState, ApprovalView } from '../../../common/contract';
import { formatClock } from '../lib/time';

const LABEL: Record<ApprovalState, string> = {
  pending: 'Waiting',
  approved: 'Approved — starting',
  executing: 'Running…',
  done: 'Done',
  failed: 'Failed',
  unknown: 'Unknown — may have been applied',
  denied: 'Denied',
  expired: 'Expired',
  withdrawn: 'Withdrawn by the agent',
};

export const stateLabel = (s: ApprovalState) => LABEL[s];

/** What was decided while this page was open, with how it ended. */
export function RecentList({ items }: { items: ApprovalView[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="recent-heading" className="recent">
      <h2 id="recent-heading">Decided while this page was open</h2>
      <ul>
        {items.map((a) => (
          <li key={a.id} data-testid="recent-item" data-approval-id={a.id} data-state={a.state}>
            <span className={`badge state-${a.state}`}>{LABEL[a.state]}</span> <code>{a.tool}</code>{' '}
            for {a.agent}
            {a.editedArguments && <span className="hint"> · edited</span>}
            {a.decidedAt && <span className="hint"> · {formatClock(a.decidedAt)}</span>}
            {(a.reason || a.outcome) && (
              <div className="hint outcome">{a.reason ? `Reason: ${a.reason}` : a.outcome}</div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
