import { useEffect, useState } from 'react';
import type { ActivityView, ApprovalView } from '../../../../common/contract';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { formatDateTime, formatDuration } from '../../lib/format';
import { revealPlain } from '../../approvals/reveal';
import { decisionText, OUTCOME_TEXT } from './activity-model';
import { ApprovalRecord } from './ApprovalRecord';
import { GrantRecord } from './GrantRecord';

/**
 * Everything known about one call. The log keeps a digest of the
 * arguments, never the arguments; a call that went through an approval
 * shows the approval's record (effect, exact arguments, reason, outcome).
 */
export function ActivityDetail({ item }: { item: ActivityView }) {
  const { api } = useControl();
  const [approval, setApproval] = useState<ApprovalView | null>(null);
  const [approvalError, setApprovalError] = useState<string | null>(null);

  useEffect(() => {
    if (!item.approvalId) return;
    let live = true;
    api.getApproval(item.approvalId).then(
      (a) => live && setApproval(a),
      (err: unknown) => live && setApprovalError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, item.approvalId]);

  const rows: [string, string][] = [
    ['When', formatDateTime(item.at)],
    ['Agent', item.agent],
    ['Tool', item.tool],
    ['Decision', decisionText(item)],
    ['Outcome', OUTCOME_TEXT[item.outcome]],
    ['Run time', formatDuration(item.durationMs)],
  ];
  if (item.waitMs !== undefined) rows.push(['Waited for you', formatDuration(item.waitMs)]);
  if (item.grantId) rows.push(['Grant', item.grantId]);
  // Issue 22: why Airlock flagged the call, kept with the call.
  if (item.taint) rows.push(['Flagged', revealPlain(item.taint)]);
  if (item.argsDigest) rows.push(['Arguments digest', item.argsDigest]);
  // Error text comes from the upstream server: shown as its words, with hidden characters named.
  if (item.detail)
    rows.push([
      item.outcome === 'error' ? 'Error (the tool’s words)' : 'Detail',
      revealPlain(item.detail),
    ]);

  return (
    <div className="activity-detail" data-testid="activity-detail">
      <dl className="kv">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd className={k === 'Arguments digest' ? 'mono' : undefined}>{v}</dd>
          </div>
        ))}
      </dl>
      {item.grantId && <GrantRecord grantId={item.grantId} />}
      {item.approvalId && (
        <div className="approval-record">
          <h3>Approval</h3>
          {approvalError && <p className="hint">The approval record is gone ({approvalError}).</p>}
          {!approval && !approvalError && <p className="hint">Loading…</p>}
          {approval && <ApprovalRecord approval={approval} />}
        </div>
      )}
    </div>
  );
}
