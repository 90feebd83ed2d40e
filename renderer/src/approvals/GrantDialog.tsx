import { useId, useState } from 'react';
import type { ApprovalView, GrantSpec } from '../../../common/contract';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DURATIONS } from './grant-options';
import { revealPlain } from './reveal';

interface Props {
  approval: ApprovalView;
  open: boolean;
  busy: boolean;
  error: string | null;
  /**
   * Why the core would refuse "Always allow" now (ApprovalView.refused: the tool changed while
   * the dialog was open): said in place of an error, and the confirm button is off.
   */
  refused?: string | undefined;
  onConfirm: (spec: GrantSpec) => void;
  onCancel: () => void;
}

/**
 * "Always allow" as a grant the user shapes and confirms (issue 16 item 2):
 * for this agent only, for how long, optionally only for arguments like
 * these. Confirming is a separate, deliberate act: the dialog opens with
 * focus on Cancel, and a tool with side effects says plainly what it can do.
 */
export function GrantDialog({ approval, open, busy, error, refused, onConfirm, onCancel }: Props) {
  const id = useId();
  // Offered by main, read the way the grant will be checked (issue 27 item 1).
  const options = approval.grantOptions ?? [];
  const [duration, setDuration] = useState(0);
  const [scope, setScope] = useState(-1);
  const [tainted, setTainted] = useState(false);
  const risky = approval.risk !== 'read-only';
  const what =
    approval.risk === 'destructive'
      ? 'can send, change or delete things'
      : approval.risk === 'changes'
        ? 'makes changes'
        : 'only reads';
  return (
    <ConfirmDialog
      open={open}
      title={`Let ${approval.agent} run ${approval.tool} without asking?`}
      confirmLabel="Allow without asking"
      danger={risky}
      busy={busy}
      confirmDisabled={!!refused}
      error={refused ?? error}
      testId="grant-dialog"
      onCancel={onCancel}
      onConfirm={() =>
        onConfirm({
          confirm: true,
          ...(DURATIONS[duration]?.hours ? { hours: DURATIONS[duration]!.hours } : {}),
          ...(scope >= 0 && options[scope] ? { constraint: options[scope]!.constraint } : {}),
          ...(tainted ? { includeTainted: true } : {}),
        })
      }
    >
      <p>
        <strong>{approval.tool}</strong> {what}
        {approval.server ? ` (from ${approval.server})` : ''}. Calls from{' '}
        <strong>{approval.agent}</strong> that fit this grant will run at once, without a card.
        Other agents still ask. You can revoke it on the Approvals page at any time.
      </p>
      <div className="field">
        <label htmlFor={`${id}-d`}>How long</label>
        <select
          id={`${id}-d`}
          value={duration}
          onChange={(e) => setDuration(Number(e.target.value))}
          data-testid="grant-duration"
        >
          {DURATIONS.map((d, i) => (
            <option key={d.label} value={i}>
              {d.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-s`}>Which calls</label>
        <select
          id={`${id}-s`}
          value={scope}
          onChange={(e) => setScope(Number(e.target.value))}
          data-testid="grant-scope"
        >
          <option value={-1}>Any arguments</option>
          {/* A scope quotes the call's argument names and values, the agent's words: an <option>
              holds plain text, so what the card names in marks is written out (⟦ZWSP⟧). */}
          {options.map((o, i) => (
            <option key={o.label} value={i}>
              {revealPlain(o.label)}
            </option>
          ))}
        </select>
        {scope >= 0 && options[scope] && (
          <p className="hint" data-testid="grant-scope-note">
            {revealPlain(options[scope]!.note[0]!.toUpperCase() + options[scope]!.note.slice(1))}.
          </p>
        )}
      </div>
      <div className="field checkbox">
        <input
          id={`${id}-t`}
          type="checkbox"
          checked={tainted}
          onChange={(e) => setTainted(e.target.checked)}
          data-testid="grant-include-tainted"
        />
        <label htmlFor={`${id}-t`}>
          Also for calls Airlock flags (a stranger&apos;s address, or your private data going
          somewhere new). Not recommended: flagged calls are how injected instructions get out.
        </label>
      </div>
    </ConfirmDialog>
  );
}
