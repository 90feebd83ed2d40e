import { useState } from 'react';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { useLoad } from '../../lib/useLoad';

/**
 * Loosening asked for from outside this window — `airlock tools set … --approval auto`
 * from a terminal, or any other program with the control token — waits here
 * for the user (issue 17, item 7). Nothing changes until Confirm is pressed.
 */
export function PolicyChanges() {
  const { api } = useControl();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const changes = useLoad(
    () => api.listPolicyChanges(),
    (e) => e.type === 'policy.change',
  );
  const pending = changes.data ?? [];
  if (pending.length === 0 && !error) return null;

  const decide = async (id: string, confirm: boolean) => {
    setBusy(id);
    setError(null);
    try {
      await api.decidePolicyChange(id, confirm);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
      changes.reload();
    }
  };

  return (
    <section
      className="policy-changes"
      aria-label="Changes waiting for you"
      data-testid="policy-changes"
    >
      <h2>Waiting for your confirmation</h2>
      <p className="hint">
        A program outside this window (a terminal, a script, possibly an agent with a shell) asked
        to loosen a policy. Confirm only if you asked for it.
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ul>
        {pending.map((c) => (
          <li key={c.id} data-testid="policy-change">
            <span className="summary">{c.summary}</span>{' '}
            <button
              type="button"
              className="danger"
              disabled={busy !== null}
              onClick={() => void decide(c.id, true)}
              data-testid="policy-change-confirm"
            >
              Confirm
            </button>{' '}
            <button
              type="button"
              disabled={busy !== null}
              onClick={() => void decide(c.id, false)}
              data-testid="policy-change-reject"
            >
              Reject
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
