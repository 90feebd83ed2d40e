import type { ApprovalView } from '../../../common/contract';

/** The card's four decisions; each only once the card is ready (disabledWhy says why not). */
export function DecisionButtons({
  approval,
  ready,
  disabledWhy,
  onAllowOnce,
  onAlwaysAllow,
  onEdit,
  onDeny,
}: {
  approval: ApprovalView;
  ready: boolean;
  disabledWhy: string | undefined;
  onAllowOnce: () => void;
  onAlwaysAllow: () => void;
  onEdit: () => void;
  onDeny: () => void;
}) {
  return (
    <div className="actions" role="group" aria-label="Decision" title={disabledWhy}>
      <button
        type="button"
        className="primary"
        disabled={!ready}
        onClick={onAllowOnce}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        data-testid="allow-once"
      >
        Allow once
      </button>
      <button
        type="button"
        disabled={!ready}
        onClick={onAlwaysAllow}
        aria-keyshortcuts="Shift+A"
        data-testid="always-allow"
        title={`Let ${approval.agent} run ${approval.tool} without asking (you choose for how long and for which calls)`}
      >
        Always allow…
      </button>
      <button
        type="button"
        disabled={!ready}
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
