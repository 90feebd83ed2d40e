import { useState } from 'react';
import type { GrantView } from '../../../common/contract';
import { useControl } from '../lib/control';
import { errorMessage } from '../lib/errors';
import { formatDateTime } from '../lib/format';
import { useLoad } from '../lib/useLoad';
import { Revealed } from './Revealed';

export function grantScope(g: GrantView): string {
  const until = g.expiresAt ? `until ${formatDateTime(g.expiresAt)}` : 'until you revoke it';
  if (!g.constraint) return `any arguments, ${until}`;
  const c = g.constraint;
  const which =
    c.op === 'domain' ? `only when every ${c.path} is in @${c.value}` : `only when ${c.path} is`;
  return `${which}, ${until}`;
}

/** Standing grants, each revocable in one click where it is shown (issue 16 item 2). */
export function GrantsList() {
  const { api } = useControl();
  const grants = useLoad(
    () => api.listGrants(),
    (e) => e.type === 'state.changed' || e.type === 'tools.changed',
  );
  const [error, setError] = useState<string | null>(null);
  const list = grants.data ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="grants-heading" className="grants" data-testid="grants">
      <h2 id="grants-heading">Allowed without asking</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ul>
        {list.map((g) => (
          <li key={g.id} data-testid="grant-item" data-grant-id={g.id}>
            <code>{g.tool}</code> for <strong>{g.agent}</strong>: <span>{grantScope(g)}</span>
            {g.constraint?.op === 'equals' && (
              <>
                {' '}
                “<Revealed text={g.constraint.value} />”
              </>
            )}
            <span className="hint">
              {' '}
              · used {g.uses} time{g.uses === 1 ? '' : 's'}
            </span>{' '}
            <button
              type="button"
              className="small"
              data-testid="revoke-grant"
              onClick={() =>
                api.revokeGrant(g.id).then(
                  () => {
                    setError(null);
                    grants.reload();
                  },
                  (err: unknown) => setError(errorMessage(err)),
                )
              }
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
