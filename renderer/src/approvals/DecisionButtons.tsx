import type { ApprovalView } from '../../../common/contract';
import { refusalId } from './AllowRefused';

/**
 * The card's four decisions; each only once the card is ready (disabledWhy says why not). An
 * allow the core would refuse now (ApprovalView.refused) is off, described by the line that says
 * why (AllowRefusedNotice, ids under `idPrefix`); Deny never is.
 */
export function DecisionButtons({
  approval,
  idPrefix,
  ready,
  disabledWhy,
  onAllowOnce,
  onAlwaysAllow,
  onEdit,
  onDeny,
}: {
  approval: ApprovalView;
  idPrefix: string;
  ready: boolean;
  disabledWhy: string | undefined;
  onAllowOnce: () => void;
  onAlwaysAllow: () => void;
  onEdit: () => void;
  onDeny: () => void;
}) {
  const refused = approval.refused ?? {};
  return (
    <div className="actions" role="group" aria-label="Decision" title={disabledWhy}>
      <button
        type="button"
        className="primary"
        disabled={!ready || !!refused.allow_once}
        aria-describedby={refusalId(approval, idPrefix, 'allow_once')}
        onClick={onAllowOnce}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        data-testid="allow-once"
      >
        Allow once
      </button>
      <button
        type="button"
        disabled={!ready || !!refused.always_allow}
        aria-describedby={refusalId(approval, idPrefix, 'always_allow')}
        onClick={onAlwaysAllow}
        aria-keyshortcuts="Shift+A"
        data-testid="always-allow"
        title={`Let ${approval.agent} run ${approval.tool} without asking (you choose for how long and for which calls)`}
      >
        Always allow…
      </button>
      <button
        type="button"
        disabled={!ready || !!refused.allow_edited}
        aria-describedby={refusalId(approval, idPrefix, 'allow_edited')}
        onClick={onEdit}
        aria-keyshortcuts="E"
        data-testid="edit-allow"
      >
        Edit &amp; allow
      </button>
      <button
        type="button"
        className="danger"
        disabled={!ready}
        onClick={onDeny}
        aria-keyshortcuts="D"
        data-testid="deny"
      >
        Deny
      </button>
    </div>
  );
}
