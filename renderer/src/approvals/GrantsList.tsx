import { useState } from 'react';
import type { GrantView } from '../../../common/contract';
import { useControl } from '../lib/control';
import { errorMessage } from '../lib/errors';
import { formatDateTime } from '../lib/format';
import { useLoad } from '../lib/useLoad';
import { Revealed } from './Revealed';

/**
 * What a grant covers, in the words main made for it (issue 27 item 1: which recipients it
 * reads, what may differ, everything else as approved); an exact value is shown revealed.
 */
export function GrantScope({ g }: { g: GrantView }) {
  const until = g.expiresAt ? `until ${formatDateTime(g.expiresAt)}` : 'until you revoke it';
  const c = g.constraint;
  if (!c) return <span>any arguments, {until}</span>;
  const lead =
    g.scope?.lead ??
    (c.op === 'domain' ? `only when every ${c.path} is in @${c.value}` : `only when ${c.path} is`);
  // The lead names the argument, the agent's word (a key such as `to\u200b` beside `to`), and
  // the tail the recipients read from a draft or event: named as on the card (red-team R3).
  return (
    <span>
      <Revealed text={lead} />
      {c.op === 'equals' && (
        <>
          {' '}
          “<Revealed text={c.value} />”
        </>
      )}
      <Revealed text={g.scope?.tail ?? ''} />, {until}
    </span>
  );
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
            <code>{g.tool}</code> for <strong>{g.agent}</strong>: <GrantScope g={g} />
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
