import type { FormEvent } from 'react';

/** Deny, with an optional reason the agent is told. The card keeps the reason while it lives. */
export function DenyForm({
  tool,
  idPrefix,
  reason,
  onReason,
  ready,
  busy,
  onSubmit,
  onCancel,
}: {
  tool: string;
  idPrefix: string;
  reason: string;
  onReason: (reason: string) => void;
  /** The card may decide now (armed, connected, not busy). */
  ready: boolean;
  busy: boolean;
  onSubmit: (e: FormEvent) => void;
  onCancel: () => void;
}) {
  return (
    <form className="deny-form" onSubmit={onSubmit} aria-label={`Deny ${tool}`}>
      <div className="field">
        <label htmlFor={`${idPrefix}-reason`}>Reason (optional, the agent is told)</label>
        <input
          id={`${idPrefix}-reason`}
          data-testid="deny-reason"
          value={reason}
          maxLength={1000}
          onChange={(e) => onReason(e.target.value)}
          onKeyDown={(e) => e.repeat && e.key === 'Enter' && e.preventDefault()}
          autoFocus
        />
      </div>
      <div className="actions">
        <button type="submit" className="danger" disabled={!ready} data-testid="deny-confirm">
          Deny request
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
