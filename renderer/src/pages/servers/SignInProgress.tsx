import { formatLeft, useNow } from '../../lib/time';
import { issuerText, LOGIN_FIX } from './auth-model';
import type { LoginState } from './useRemoteLogin';

/**
 * Progress of a remote server's sign-in while the browser is open, and how
 * it ended (the Accounts page's ConnectProgress, for issue 10). The link to
 * the authorization page is always there: headless `airlock serve` cannot
 * open a browser, and a browser the shell opened may be behind this window.
 */
export function SignInProgress({
  name,
  flow,
  onCancel,
  onDismiss,
}: {
  name: string;
  flow: LoginState;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  const now = useNow(1000);
  const { start, view } = flow;
  if (!start || !view) return null;
  const left = Date.parse(start.expiresAt) - now;
  const where = issuerText(originOf(start.authUrl));
  return (
    <div
      className={`card connect-progress state-${view.state}`}
      data-testid="login-progress"
      data-state={view.state}
    >
      <div role="status" aria-live="polite">
        {view.state === 'waiting' && (
          <>
            <p>
              <span className="spinner" aria-hidden="true" />{' '}
              <strong>Waiting for you in the browser…</strong>{' '}
              <span className="hint">({formatLeft(left)} left)</span>
            </p>
            <p>
              {start.browserOpened
                ? `The sign-in page of ${where} opened in your browser. Sign in, allow access, and come back here.`
                : `Open the sign-in page of ${where}, sign in and allow access; this page updates by itself.`}
            </p>
          </>
        )}
        {view.state === 'exchanging' && (
          <p>
            <span className="spinner" aria-hidden="true" /> <strong>Finishing the sign-in…</strong>
          </p>
        )}
        {view.state === 'signed-in' && (
          <p>
            <strong>Signed in to {name}.</strong> Its tools are now offered to your agents.
          </p>
        )}
        {view.state === 'cancelled' && (
          <p>{view.error?.message ?? 'Sign-in cancelled; nothing changed.'}</p>
        )}
        {view.state === 'failed' && (
          <div role="alert">
            <p className="error" data-testid="login-error">
              {view.error?.message ?? 'The sign-in failed.'}
            </p>
            {view.error && LOGIN_FIX[view.error.code] && <p>{LOGIN_FIX[view.error.code]}</p>}
          </div>
        )}
      </div>
      <div className="actions">
        {view.state === 'waiting' && (
          <a
            className="button primary"
            href={start.authUrl}
            target="_blank"
            rel="noreferrer"
            data-testid="login-link"
          >
            {start.browserOpened ? 'Open the sign-in page again' : 'Open the sign-in page'}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        )}
        {(view.state === 'waiting' || view.state === 'exchanging') && (
          <button type="button" onClick={onCancel} data-testid="login-cancel">
            Cancel
          </button>
        )}
        {DONE_STATES.has(view.state) && (
          <button type="button" onClick={onDismiss}>
            Close
          </button>
        )}
      </div>
    </div>
  );
}

const DONE_STATES = new Set(['signed-in', 'failed', 'cancelled']);

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
