import { useEffect, useId, useState } from 'react';
import type { RemoteAuthView, RemoteView } from '../../../../common/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { formatDateTime, relativeTime } from '../../lib/format';
import {
  clientText,
  expiryOf,
  issuerText,
  loginOptions,
  logoutMessage,
  signInRequiredText,
  startErrorCode,
  type AdvancedFields,
} from './auth-model';
import { SignInProgress } from './SignInProgress';
import { loginOpen, useRemoteLogin } from './useRemoteLogin';

/**
 * A remote server's OAuth sign-in (issue 10; docs/remote.md "Servers that
 * require OAuth"): whether Airlock is signed in and to what, Sign in (with an
 * optional client ID / secret / scope), progress while the browser is open,
 * and Sign out (confirmed) with whether the provider confirmed the revocation.
 */
export function ServerAuth({
  server,
  auth,
  disabled,
  onChanged,
}: {
  server: RemoteView;
  auth: RemoteAuthView;
  disabled: boolean;
  onChanged: (r: RemoteView) => void;
}) {
  const { api } = useControl();
  const id = useId();
  const login = useRemoteLogin(server.name, (r) => r && onChanged(r));
  const [fields, setFields] = useState<AdvancedFields>({
    clientId: '',
    clientSecret: '',
    scope: '',
  });
  const [advanced, setAdvanced] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [logoutError, setLogoutError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const open = loginOpen(login);
  const needsClientId = login.error !== null && startErrorCode(login.error) === 'NEEDS_CLIENT_ID';

  // The server offers no automatic registration: show where the client ID goes.
  useEffect(() => {
    if (needsClientId) setAdvanced(true);
  }, [needsClientId]);

  const signIn = () => {
    setFormError(null);
    setNotice(null);
    try {
      void login.begin(loginOptions(fields));
      // Write-only, like the bearer token: it goes to the core (and the keychain) once.
      setFields((f) => ({ ...f, clientSecret: '' }));
    } catch (err) {
      setFormError(errorMessage(err));
    }
  };

  const signOut = async () => {
    setBusy(true);
    setLogoutError(null);
    try {
      const r = await api.logoutRemote(server.name);
      setNotice(logoutMessage(r));
      setConfirming(false);
      login.dismiss();
      // The page also reloads on the core's state.changed; this shows the result without waiting for it.
      const fresh = (await api.listRemotes().catch(() => [])).find((x) => x.name === server.name);
      if (fresh) onChanged(fresh);
    } catch (err) {
      setLogoutError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const set = (k: keyof AdvancedFields) => (e: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [k]: e.target.value }));
  const expiry = expiryOf(auth);
  const client = clientText(auth.client);

  return (
    <section
      className="server-auth"
      aria-labelledby={`${id}-h`}
      data-testid="server-auth"
      data-signed-in={auth.signedIn}
    >
      <h4 id={`${id}-h`}>OAuth sign-in</h4>
      {auth.signInRequired && (
        <p className="notice" data-testid="auth-required">
          {signInRequiredText(auth.signInRequired)}.{' '}
          {auth.signedIn
            ? 'Sign in again to grant it.'
            : 'Sign in to let your agents use its tools.'}
        </p>
      )}
      {auth.signedIn ? (
        <>
          <p data-testid="auth-status">
            <strong>Signed in</strong> at {issuerText(auth.issuer)}
            {auth.scopes?.length ? (
              <>
                {' '}
                with scope <span className="mono">{auth.scopes.join(' ')}</span>
              </>
            ) : (
              ' (no scope asked)'
            )}
            .
          </p>
          <p className="hint" data-testid="auth-expiry">
            {expiry?.kind === 'renews' && (
              <>
                Renews automatically before{' '}
                <time dateTime={expiry.at}>{formatDateTime(expiry.at)}</time>.{' '}
              </>
            )}
            {expiry?.kind === 'expires' && (
              <>
                Access ends <time dateTime={expiry.at}>{formatDateTime(expiry.at)}</time> (the
                server gave no renewal); sign in again then.{' '}
              </>
            )}
            {expiry?.kind === 'expired' && (
              <>
                Access ended <time dateTime={expiry.at}>{formatDateTime(expiry.at)}</time>; sign in
                again.{' '}
              </>
            )}
            {client && `Client: ${client}. `}
            {auth.signedInAt && (
              <>
                Signed in{' '}
                <time dateTime={auth.signedInAt} title={formatDateTime(auth.signedInAt)}>
                  {relativeTime(auth.signedInAt)}
                </time>
                .
              </>
            )}
          </p>
        </>
      ) : (
        !auth.signInRequired && (
          <p data-testid="auth-status">Not signed in. Sign in to let your agents use its tools.</p>
        )
      )}
      <details
        className="auth-advanced"
        open={advanced}
        onToggle={(e) => setAdvanced(e.currentTarget.open)}
      >
        <summary>Advanced sign-in options</summary>
        <p className="hint">
          Leave these empty: Airlock registers itself and asks for the scope the server suggests.
          Fill them in when the server wants a client you registered yourself (redirect URI{' '}
          <code>http://127.0.0.1/callback</code>, any port) or more access.
        </p>
        <fieldset className="auth-fields" disabled={open}>
          <legend className="visually-hidden">Sign-in options for {server.name}</legend>
          <div className="field">
            <label htmlFor={`${id}-cid`}>Client ID (optional)</label>
            <input
              id={`${id}-cid`}
              value={fields.clientId}
              onChange={set('clientId')}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-sec`}>Client secret (optional)</label>
            <input
              id={`${id}-sec`}
              type="password"
              value={fields.clientSecret}
              onChange={set('clientSecret')}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${id}-sec-h`}
            />
            <span id={`${id}-sec-h`} className="hint">
              Kept in your OS keychain, never shown again.
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-scope`}>Scope (optional)</label>
            <input
              id={`${id}-scope`}
              value={fields.scope}
              onChange={set('scope')}
              placeholder="read write"
              autoComplete="off"
              spellCheck={false}
            />
          </div>
        </fieldset>
      </details>
      <div className="actions">
        <button
          type="button"
          className={auth.signedIn && !auth.signInRequired ? undefined : 'primary'}
          disabled={disabled || open || busy}
          onClick={signIn}
          data-testid="server-sign-in"
        >
          {login.starting ? 'Starting…' : auth.signedIn ? 'Sign in again' : 'Sign in'}
        </button>
        {auth.signedIn && (
          <button
            type="button"
            className="danger-outline"
            disabled={disabled || open || busy}
            onClick={() => {
              setLogoutError(null);
              setConfirming(true);
            }}
            data-testid="server-sign-out"
          >
            Sign out
          </button>
        )}
      </div>
      {(formError ?? login.error) && (
        <div role="alert" data-testid="login-start-error">
          <p className="error">{formError ?? login.error}</p>
          {needsClientId && (
            <p>
              Register Airlock at the server’s provider, then put the client ID under “Advanced
              sign-in options” above and sign in again.
            </p>
          )}
        </div>
      )}
      <SignInProgress
        name={server.name}
        flow={login}
        onCancel={() => void login.cancel()}
        onDismiss={login.dismiss}
      />
      <div aria-live="polite">
        {notice && (
          <p className="notice-inline" data-testid="auth-notice">
            {notice}
          </p>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Sign out of ${server.name}?`}
        confirmLabel="Sign out"
        danger
        busy={busy}
        error={confirming ? logoutError : null}
        onConfirm={() => void signOut()}
        onCancel={() => setConfirming(false)}
        testId="sign-out-dialog"
      >
        <p>
          Airlock asks the server to revoke its tokens and deletes them from your keychain. Agents
          lose this server’s tools until you sign in again.
        </p>
      </ConfirmDialog>
    </section>
  );
}
