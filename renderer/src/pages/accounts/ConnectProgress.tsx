import type { ConnectState } from './useGoogleConnect';
import { formatLeft, useNow } from '../../lib/time';

/** What to do about a failed consent, by the core's error code. */
const FIX: Record<string, string> = {
  ACCESS_DENIED:
    'If you did not decline, check that the account is a test user of your OAuth app (consent screen settings), then try again.',
  TIMEOUT: 'Start again and finish the sign-in in the browser within 5 minutes.',
  NO_REFRESH_TOKEN:
    'Remove Airlock’s access at myaccount.google.com/permissions, then connect again.',
  EXCHANGE_FAILED:
    'Check that the imported OAuth client is a “Desktop app” client and has not been deleted, then try again.',
  AUTHORIZATION_ERROR:
    'Check the OAuth client and its consent screen in Google Cloud Console, then try again.',
  SAVE_FAILED: 'Make sure the OS keychain is unlocked, then try again.',
};

/** Progress of a Google consent, while the browser is open, and how it ended. */
export function ConnectProgress({
  flow,
  onCancel,
  onDismiss,
}: {
  flow: ConnectState;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  const now = useNow(1000);
  const { start, view } = flow;
  if (!start || !view) return null;
  const left = Date.parse(start.expiresAt) - now;
  return (
    <div
      className={`card connect-progress state-${view.state}`}
      data-testid="connect-progress"
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
                ? 'Google’s sign-in page opened in your browser. Choose the account, allow access, and come back here.'
                : 'Open Google’s sign-in page, choose the account and allow access; this page updates by itself.'}
            </p>
          </>
        )}
        {view.state === 'exchanging' && (
          <p>
            <span className="spinner" aria-hidden="true" /> <strong>Finishing the sign-in…</strong>
          </p>
        )}
        {view.state === 'connected' && (
          <p>
            <strong>Connected{view.account ? ` as ${view.account.email}` : ''}.</strong> Its Gmail
            and Calendar tools are now offered to your agents.
          </p>
        )}
        {view.state === 'cancelled' && <p>Sign-in cancelled; nothing was connected.</p>}
        {view.state === 'failed' && (
          <div role="alert">
            <p className="error">{view.error?.message ?? 'The sign-in failed.'}</p>
            {view.error && FIX[view.error.code] && <p>{FIX[view.error.code]}</p>}
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
            data-testid="consent-link"
          >
            {start.browserOpened ? 'Open the sign-in page again' : 'Open Google’s sign-in page'}
          </a>
        )}
        {(view.state === 'waiting' || view.state === 'exchanging') && (
          <button type="button" onClick={onCancel} data-testid="connect-cancel">
            Cancel
          </button>
        )}
        {(view.state === 'connected' || view.state === 'failed' || view.state === 'cancelled') && (
          <button type="button" onClick={onDismiss}>
            Close
          </button>
        )}
      </div>
    </div>
  );
}
