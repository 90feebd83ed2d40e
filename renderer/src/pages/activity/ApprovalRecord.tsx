import { codeUnits, textPrefix } from '../../../../common/text-cut';
import type { ApprovalView } from '../../../../common/contract';
import { stateLabel } from '../../approvals/RecentList';
import { Revealed } from '../../approvals/Revealed';
import { revealPlain } from '../../approvals/reveal';

/**
 * An approval's record on the Activity page. Its effect is the card's sentence, built from the
 * agent's words and strangers' (a subject, an invitation's title): shown as the card shows it,
 * with invisible and direction-changing characters and stacked combining marks named (Revealed),
 * not acting — an override there reordered the record of what was approved, and a stack of marks
 * painted over the rows above it.
 */
export function ApprovalRecord({ approval }: { approval: ApprovalView }) {
  return (
    <>
      <p>
        <span className={`badge state-${approval.state}`}>{stateLabel(approval.state)}</span>{' '}
        <Revealed text={approval.effect} />
      </p>
      {approval.reason && <p>Reason: {revealPlain(approval.reason)}</p>}
      {approval.outcome && <p className="hint">{revealPlain(approval.outcome)}</p>}
      <pre className="mono args-box" tabIndex={0} aria-label="Arguments it ran with (JSON)">
        {revealPlain(
          textPrefix(
            JSON.stringify(approval.editedArguments ?? approval.arguments, null, 2),
            20_000,
            codeUnits,
          ),
        )}
      </pre>
      {approval.editedArguments && (
        <p className="hint">You edited the arguments before allowing it.</p>
      )}
    </>
  );
}
