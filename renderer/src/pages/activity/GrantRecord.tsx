import { useCallback, useEffect, useState } from 'react';
import type { GrantView } from '../../../../common/contract';
import { GrantScope } from '../../approvals/GrantsList';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';

/** The grant an Activity row was made or run under, revocable right there (issue 16 item 2). */
export function GrantRecord({ grantId }: { grantId: string }) {
  const { api } = useControl();
  const [grant, setGrant] = useState<GrantView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api.listGrants({ includeInactive: true }).then(
      (all) => setGrant(all.find((g) => g.id === grantId) ?? null),
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [api, grantId]);
  useEffect(load, [load]);

  if (error) return <p className="hint">The grant could not be loaded ({error}).</p>;
  if (!grant) return null;
  return (
    <div className="grant-record" data-testid="grant-record">
      <h3>Grant</h3>
      <p>
        <code>{grant.tool}</code> for <strong>{grant.agent}</strong>: <GrantScope g={grant} /> ·
        used {grant.uses} time{grant.uses === 1 ? '' : 's'} ·{' '}
        {grant.active ? 'active' : `no longer applies (${grant.inactiveReason})`}
      </p>
      {grant.active && (
        <button
          type="button"
          className="small"
          data-testid="revoke-grant"
          onClick={() =>
            api.revokeGrant(grant.id).then(load, (e: unknown) => setError(errorMessage(e)))
          }
        >
          Revoke
        </button>
      )}
    </div>
  );
}
