import { useId, useState } from 'react';
import type { GoogleAccountView, GoogleClientView } from '../../../../common/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { useLoad } from '../../lib/useLoad';
import { AccountCard } from './AccountCard';
import { ClientSetup } from './ClientSetup';
import { ConnectProgress } from './ConnectProgress';
import { useGoogleConnect } from './useGoogleConnect';

interface Data {
  client: GoogleClientView | null;
  accounts: GoogleAccountView[];
}

/** Google accounts (issue 8 "Accounts"; the core side is issue 5). */
export function AccountsPage() {
  const { api } = useControl();
  const id = useId();
  const data = useLoad<Data>(
    async () => {
      const [client, accounts] = await Promise.all([
        api.getGoogleClient(),
        api.listGoogleAccounts(),
      ]);
      return { client, accounts };
    },
    (e) => e.type === 'state.changed',
  );
  const connect = useGoogleConnect(data.reload);
  const [readOnly, setReadOnly] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const [disconnecting, setDisconnecting] = useState<GoogleAccountView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const client = data.data?.client ?? null;
  const accounts = data.data?.accounts ?? [];
  const flowOpen =
    connect.view?.state === 'waiting' || connect.view?.state === 'exchanging' || connect.starting;

  const disconnect = async () => {
    if (!disconnecting) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api.disconnectGoogle(disconnecting.email);
      setNotice(
        r.revoked
          ? `${r.email} is disconnected and its access revoked at Google.`
          : `${r.email} is disconnected here, but Google did not confirm the revocation${r.detail ? ` (${r.detail})` : ''}. Remove Airlock at myaccount.google.com/permissions to be sure.`,
      );
      data.setData((old) =>
        old ? { ...old, accounts: old.accounts.filter((a) => a.email !== r.email) } : old,
      );
      setDisconnecting(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const makeDefault = async (email: string) => {
    setBusy(true);
    setError(null);
    try {
      const list = await api.setDefaultGoogleAccount(email);
      data.setData((old) => (old ? { ...old, accounts: list } : old));
      setNotice(`${email} is now the default: Google tools called without an account use it.`);
    } catch (err) {
      setNotice(`Could not make ${email} the default: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page" aria-labelledby="accounts-heading">
      <div className="page-head">
        <h1 id="accounts-heading">Accounts</h1>
      </div>
      <p className="lead">
        Google accounts whose Gmail and Calendar your agents may use. Tokens stay in your OS
        keychain; anything that sends or changes asks you first.
      </p>
      {data.error && (
        <p className="error" role="alert">
          Could not load the accounts: {data.error}{' '}
          <button type="button" onClick={data.reload}>
            Try again
          </button>
        </p>
      )}
      {data.data === null && !data.error && <p className="empty">Loading…</p>}
      {data.data !== null && (!client || replacing) && (
        <ClientSetup
          current={client}
          onSaved={(c) => {
            setReplacing(false);
            data.setData((old) => (old ? { ...old, client: c } : old));
          }}
          {...(client ? { onCancel: () => setReplacing(false) } : {})}
        />
      )}
      {client && !replacing && (
        <>
          <div className="card connect" data-testid="connect-panel">
            <h2>Connect a Google account</h2>
            <div className="field checkbox">
              <input
                id={`${id}-ro`}
                type="checkbox"
                checked={readOnly}
                onChange={(e) => setReadOnly(e.target.checked)}
                disabled={flowOpen}
              />
              <label htmlFor={`${id}-ro`}>
                Read-only (agents can search and read, never send or change)
              </label>
            </div>
            <div className="actions">
              <button
                type="button"
                className="primary"
                disabled={flowOpen}
                onClick={() => void connect.begin({ readOnly })}
                data-testid="connect-google"
              >
                {connect.starting ? 'Starting…' : 'Connect Google account'}
              </button>
            </div>
            {connect.error && (
              <p className="error" role="alert" data-testid="connect-error">
                {connect.error}
              </p>
            )}
            <ConnectProgress
              flow={connect}
              onCancel={() => void connect.cancel()}
              onDismiss={connect.dismiss}
            />
            <p className="hint client-line" data-testid="client-info">
              OAuth client <code>{client.clientId}</code>
              {client.projectId && <> (project {client.projectId})</>}
              {!client.hasSecret &&
                ' — its secret is missing from the keychain; import the client again'}
              .{' '}
              <button type="button" className="link" onClick={() => setReplacing(true)}>
                Replace
              </button>
            </p>
          </div>
          <h2>Connected accounts</h2>
          <div aria-live="polite">
            {notice && (
              <p className="notice" data-testid="accounts-notice">
                {notice}
              </p>
            )}
          </div>
          {accounts.length === 0 ? (
            <div className="empty" data-testid="accounts-empty">
              <p>
                <strong>No account connected yet.</strong> Use “Connect Google account” above;
                Google’s page opens in your browser.
              </p>
            </div>
          ) : (
            <div className="stack" role="list" aria-label="Google accounts">
              {accounts.map((a) => (
                <div role="listitem" key={a.email}>
                  <AccountCard
                    account={a}
                    busy={flowOpen || busy}
                    onReconnect={() => void connect.begin({ account: a.email })}
                    onDisconnect={() => {
                      setError(null);
                      setDisconnecting(a);
                    }}
                    onMakeDefault={
                      accounts.length > 1 ? () => void makeDefault(a.email) : undefined
                    }
                  />
                </div>
              ))}
            </div>
          )}
        </>
      )}
      <ConfirmDialog
        open={disconnecting !== null}
        title={`Disconnect ${disconnecting?.email ?? ''}?`}
        confirmLabel="Disconnect"
        danger
        busy={busy}
        error={error}
        onConfirm={() => void disconnect()}
        onCancel={() => setDisconnecting(null)}
      >
        <p>
          Airlock revokes its access at Google and deletes the tokens from your keychain. Agents
          lose this account’s Gmail and Calendar tools at once.
        </p>
      </ConfirmDialog>
    </section>
  );
}
