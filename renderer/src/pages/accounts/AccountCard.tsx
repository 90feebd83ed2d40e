import { useId } from 'react';
import type { GoogleAccountView } from '../../../../common/contract';
import { formatDateTime, relativeTime } from '../../lib/format';
import { scopePurpose, visibleScopes } from './scopes';

interface Props {
  account: GoogleAccountView;
  busy: boolean;
  onReconnect: () => void;
  onDisconnect: () => void;
  /** Absent when there is only one account (it is the default anyway). */
  onMakeDefault?: (() => void) | undefined;
}

/** One Google account: address, what it may do, whether it still works; reconnect and disconnect. */
export function AccountCard({ account, busy, onReconnect, onDisconnect, onMakeDefault }: Props) {
  const id = useId();
  const broken = account.state === 'needs_reconnect';
  return (
    <article
      className={`card account${broken ? ' attention' : ''}`}
      aria-labelledby={`${id}-h`}
      data-testid="account-card"
      data-email={account.email}
      data-state={account.state}
    >
      <header className="card-head">
        <h3 id={`${id}-h`}>
          {account.email}
          {account.isDefault && <span className="badge tag customized">Default</span>}
        </h3>
        <span className={`badge state ${broken ? 'error' : 'ready'}`} data-testid="account-state">
          {broken ? 'Needs reconnecting' : 'Connected'}
        </span>
      </header>
      {broken && (
        <p className="error" data-testid="account-detail">
          {account.detail ?? 'Google no longer accepts this sign-in.'} Reconnect to fix it.
          {account.isDefault &&
            onMakeDefault === undefined &&
            ' Until then, Google tools called without an account answer that it needs reconnecting.'}
          {account.isDefault &&
            onMakeDefault !== undefined &&
            ' Until then, Google tools called without an account answer that it needs reconnecting — or make another account the default.'}
        </p>
      )}
      <p className="hint">
        {account.readOnly
          ? 'Read-only: agents can read, never send or change.'
          : 'Full: agents can read, and send or change after your approval.'}{' '}
        Connected{' '}
        <time dateTime={account.connectedAt} title={formatDateTime(account.connectedAt)}>
          {relativeTime(account.connectedAt)}
        </time>
        .
      </p>
      <ul className="scopes" aria-label={`What Airlock may do with ${account.email}`}>
        {visibleScopes(account.scopes).map((s) => (
          <li key={s} title={s}>
            {scopePurpose(s)}
          </li>
        ))}
      </ul>
      {account.missingScopes.length > 0 && (
        <p className="notice" data-testid="account-missing">
          Not granted on Google’s page: {account.missingScopes.map(scopePurpose).join('; ')}. Tools
          that need it will fail; reconnect and tick every box to grant it.
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className={broken ? 'primary' : undefined}
          disabled={busy}
          onClick={onReconnect}
          data-testid="account-reconnect"
        >
          Reconnect
        </button>
        {onMakeDefault && !account.isDefault && (
          <button
            type="button"
            disabled={busy}
            onClick={onMakeDefault}
            data-testid="account-make-default"
            title="Google tools called without an account use this one"
          >
            Make default
          </button>
        )}
        <button
          type="button"
          className="danger-outline"
          disabled={busy}
          onClick={onDisconnect}
          data-testid="account-disconnect"
        >
          Disconnect
        </button>
      </div>
    </article>
  );
}
