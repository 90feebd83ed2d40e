import { FlowProgress, type FlowWording } from '../../components/FlowProgress';
import type { RemoteLoginView } from '../../../../common/contract';
import { issuerText, LOGIN_FIX } from './auth-model';
import type { LoginState } from './useRemoteLogin';

const TEST_IDS = {
  box: 'login-progress',
  link: 'login-link',
  cancel: 'login-cancel',
  error: 'login-error',
};

/** Progress of a remote server's sign-in (issue 10), the way ConnectProgress shows a Google consent. */
export function SignInProgress({
  name,
  ...props
}: {
  name: string;
  flow: LoginState;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  const where = issuerText(props.flow.start ? originOf(props.flow.start.authUrl) : undefined);
  const wording: FlowWording<RemoteLoginView> = {
    waiting: (browserOpened) =>
      browserOpened
        ? `The sign-in page of ${where} opened in your browser. Sign in, allow access, and come back here.`
        : `Open the sign-in page of ${where}, sign in and allow access; this page updates by itself.`,
    link: (browserOpened) => (
      <>
        {browserOpened ? 'Open the sign-in page again' : 'Open the sign-in page'}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </>
    ),
    success: () => (
      <>
        <strong>Signed in to {name}.</strong> Its tools are now offered to your agents.
      </>
    ),
    cancelled: (view) => view.error?.message ?? 'Sign-in cancelled; nothing changed.',
    fixes: LOGIN_FIX,
  };
  return <FlowProgress {...props} wording={wording} testIds={TEST_IDS} />;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
