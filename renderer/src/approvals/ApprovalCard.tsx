import { useId, useRef, useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import type { ApprovalView, Decision } from '../../../common/contract';
import { errorCode, errorMessage } from '../lib/errors';
import { formatClock, formatLeft } from '../lib/time';
import { EditForm } from './EditForm';
import { parseEffect } from './summary';
import { SummaryView } from './SummaryView';

interface Props {
  ref?: Ref<HTMLElement>;
  approval: ApprovalView;
  now: number;
  decide: (id: string, decision: Decision) => Promise<unknown>;
  /** A decision lost a race (someone decided first): the page says so and refetches. */
  onConflict: (message: string) => void;
  /** Moves keyboard focus to the next (+1) or previous (-1) request. */
  onMove: (delta: 1 | -1) => void;
  onFocus?: () => void;
}

type Mode = 'idle' | 'deny' | 'edit';

const isTyping = (el: EventTarget) =>
  el instanceof HTMLElement &&
  (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

/**
 * One pending request: who asks, for what, the tool's own statement of the
 * effect, the exact arguments, the time left, and the four decisions.
 * Buttons are disabled while a decision is in flight; the server's guarded
 * state change is the real protection against a second execution.
 */
export function ApprovalCard({ ref, approval, now, decide, onConflict, onMove, onFocus }: Props) {
  const [mode, setMode] = useState<Mode>('idle');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const inFlight = useRef(false);
  const headingId = useId();
  const left = Date.parse(approval.expiresAt) - now;

  const send = async (decision: Decision) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      await decide(approval.id, decision);
    } catch (err) {
      if (errorCode(err) === 'CONFLICT' || errorCode(err) === 'NOT_FOUND')
        onConflict(errorMessage(err));
      else setError(errorMessage(err));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape' && mode !== 'idle') {
      e.preventDefault();
      setMode('idle');
      (e.currentTarget as HTMLElement).focus();
      return;
    }
    // Letters act only on the request itself, never while a deny/edit form is open or text is typed.
    if (mode !== 'idle' || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
    const key = e.key;
    const act = (fn: () => void) => {
      e.preventDefault();
      fn();
    };
    if (key === 'ArrowDown' || key === 'j') act(() => onMove(1));
    else if (key === 'ArrowUp' || key === 'k') act(() => onMove(-1));
    else if (busy) return;
    else if (key === 'a') act(() => void send({ kind: 'allow_once' }));
    else if (key === 'A') act(() => void send({ kind: 'always_allow' }));
    else if (key === 'e' || key === 'E') act(() => setMode('edit'));
    else if (key === 'd' || key === 'D') act(() => setMode('deny'));
  };

  const submitDeny = (e: FormEvent) => {
    e.preventDefault();
    void send({ kind: 'deny', ...(reason.trim() ? { reason: reason.trim() } : {}) });
  };

  return (
    <article
      ref={ref}
      className="card approval"
      tabIndex={0}
      aria-labelledby={headingId}
      aria-busy={busy}
      data-testid="approval-card"
      data-approval-id={approval.id}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
    >
      <header className="card-head">
        <h3 id={headingId}>
          <span className="agent">{approval.agent}</span> wants to run{' '}
          <code className="tool">{approval.tool}</code>
          {approval.toolTitle && <span className="hint"> ({approval.toolTitle})</span>}
        </h3>
        <span
          className={left < 60_000 ? 'time-left urgent' : 'time-left'}
          data-testid="time-left"
          title={`Expires at ${formatClock(approval.expiresAt)}`}
        >
          {left > 0 ? `Expires in ${formatLeft(left)}` : 'Expiring…'}
        </span>
      </header>
      <p className="effect" data-testid="approval-effect">
        {parseEffect(approval.effect).headline}
      </p>
      <SummaryView approval={approval} />
      <details className="args" open>
        <summary>Exact arguments</summary>
        <pre
          className="mono"
          data-testid="approval-args"
          tabIndex={0}
          aria-label="Exact arguments (JSON)"
        >
          {JSON.stringify(approval.arguments, null, 2)}
        </pre>
      </details>

      {mode === 'edit' ? (
        <EditForm
          approval={approval}
          busy={busy}
          serverError={error}
          onSubmit={(args) => void send({ kind: 'allow_edited', arguments: args })}
          onCancel={() => {
            setError(null);
            setMode('idle');
          }}
        />
      ) : mode === 'deny' ? (
        <form className="deny-form" onSubmit={submitDeny} aria-label={`Deny ${approval.tool}`}>
          <div className="field">
            <label htmlFor={`${headingId}-reason`}>Reason (optional, the agent is told)</label>
            <input
              id={`${headingId}-reason`}
              data-testid="deny-reason"
              value={reason}
              maxLength={1000}
              onChange={(e) => setReason(e.target.value)}
              autoFocus
            />
          </div>
          <div className="actions">
            <button type="submit" className="danger" disabled={busy} data-testid="deny-confirm">
              Deny request
            </button>
            <button type="button" disabled={busy} onClick={() => setMode('idle')}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="actions" role="group" aria-label="Decision">
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void send({ kind: 'allow_once' })}
            aria-keyshortcuts="A"
            data-testid="allow-once"
          >
            Allow once
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void send({ kind: 'always_allow' })}
            aria-keyshortcuts="Shift+A"
            data-testid="always-allow"
            title={`Always allow ${approval.tool} for ${approval.agent}`}
          >
            Always allow
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => setMode('edit')}
            aria-keyshortcuts="E"
            data-testid="edit-allow"
          >
            Edit &amp; allow
          </button>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => setMode('deny')}
            aria-keyshortcuts="D"
            data-testid="deny"
          >
            Deny
          </button>
        </div>
      )}
      {error && mode !== 'edit' && (
        <p className="error" role="alert" data-testid="decision-error">
          {error}
        </p>
      )}
    </article>
  );
}
