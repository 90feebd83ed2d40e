import { FlowProgress, type FlowWording } from '../../components/FlowProgress';
import type { GoogleConnectView } from '../../../../common/contract';
import type { ConnectState } from './useGoogleConnect';

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

const WORDING: FlowWording<GoogleConnectView> = {
  waiting: (browserOpened) =>
    browserOpened
      ? 'Google’s sign-in page opened in your browser. Choose the account, allow access, and come back here.'
      : 'Open Google’s sign-in page, choose the account and allow access; this page updates by itself.',
  link: (browserOpened) =>
    browserOpened ? 'Open the sign-in page again' : 'Open Google’s sign-in page',
  success: (view) => (
    <>
      <strong>Connected{view.account ? ` as ${view.account.email}` : ''}.</strong> Its Gmail and
      Calendar tools are now offered to your agents.
    </>
  ),
  cancelled: () => 'Sign-in cancelled; nothing was connected.',
  fixes: FIX,
};

const TEST_IDS = { box: 'connect-progress', link: 'consent-link', cancel: 'connect-cancel' };

/** Progress of a Google consent, while the browser is open, and how it ended. */
export function ConnectProgress(props: {
  flow: ConnectState;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  return <FlowProgress {...props} wording={WORDING} testIds={TEST_IDS} />;
}
