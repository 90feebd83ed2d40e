import type {
  RemoteAuthView,
  RemoteLoginOptions,
  RemoteLogoutResult,
  RemoteView,
} from '../../../../common/contract';

/**
 * Words for a remote server's OAuth sign-in (issue 10, docs/remote.md
 * "Servers that require OAuth"): pure, so the card stays small and this is
 * unit-tested.
 */

/** "sign-in required: <reason>" from the core, as a sentence: "Sign-in required: <reason>". */
export function signInRequiredText(detail: string): string {
  const s = detail.trim();
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : 'Sign-in required';
}

/** Whether the server waits for a sign-in; the sign-in panel then says why, instead of a bare error line. */
export function needsSignIn(server: RemoteView): boolean {
  return Boolean(server.auth?.signInRequired);
}

const CLIENT_TEXT: Record<NonNullable<RemoteAuthView['client']>, string> = {
  dynamic: 'registered automatically',
  'metadata-document': 'client metadata document',
  'pre-registered': 'your client ID',
};

export function clientText(client: RemoteAuthView['client']): string | null {
  return client ? CLIENT_TEXT[client] : null;
}

/** The issuer as a person reads it: its host and path, without the scheme. */
export function issuerText(issuer: string | undefined): string {
  if (!issuer) return 'the server’s authorization server';
  try {
    const u = new URL(issuer);
    return `${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return issuer;
  }
}

export type Expiry =
  | { kind: 'renews'; at: string }
  | { kind: 'expires'; at: string }
  | { kind: 'expired'; at: string }
  | null;

/** What to say about the access token's expiry: renewed before it, or ending (the user must sign in again). */
export function expiryOf(auth: RemoteAuthView, now = Date.now()): Expiry {
  if (!auth.expiresAt) return null;
  if (auth.renews) return { kind: 'renews', at: auth.expiresAt };
  return Date.parse(auth.expiresAt) <= now
    ? { kind: 'expired', at: auth.expiresAt }
    : { kind: 'expires', at: auth.expiresAt };
}

/** What Sign out reports: whether the provider confirmed the revocation. */
export function logoutMessage(r: RemoteLogoutResult): string {
  if (r.revoked)
    return `Signed out of ${r.name}: its tokens are deleted from your keychain and the server confirmed the revocation.`;
  return `Signed out of ${r.name}: its tokens are deleted from your keychain, but the server did not confirm the revocation${r.detail ? ` (${r.detail})` : ''}. Remove Airlock’s access in your account settings at the provider to be sure.`;
}

/** What to do about a failed sign-in, by the core's error code (RemoteLoginView.error.code). */
export const LOGIN_FIX: Record<string, string> = {
  ACCESS_DENIED:
    'If you did not decline, check that your account may use this server, then sign in again.',
  AUTHORIZATION_ERROR:
    'The authorization server refused the request. If it wants a client you registered yourself, give its client ID under “Advanced”, then sign in again.',
  EXCHANGE_FAILED:
    'Check the client ID and secret under “Advanced” (or leave them empty to register automatically), then sign in again.',
  TIMEOUT: 'Sign in again and finish in the browser within 5 minutes.',
  SAVE_FAILED: 'Make sure the OS keychain is unlocked, then sign in again.',
};

/** Start errors are ControlErrors whose message ends in "[CODE]" (main/remote/oauth/logins.ts). */
export function startErrorCode(message: string): string | null {
  return /\[([A-Z_]+)\]\s*$/.exec(message)?.[1] ?? null;
}

export interface AdvancedFields {
  clientId: string;
  clientSecret: string;
  scope: string;
}

/**
 * The loginRemote options from the advanced fields; empty fields are left
 * out so the core's defaults apply (dynamic registration, the server's scope).
 * The browser is opened by the core where it can (Electron); headless serve
 * cannot, so the page always offers the link too.
 */
export function loginOptions(f: AdvancedFields): RemoteLoginOptions {
  const clientId = f.clientId.trim();
  const clientSecret = f.clientSecret.trim();
  const scope = f.scope.trim().split(/\s+/).filter(Boolean).join(' ');
  if (clientSecret && !clientId) throw new Error('A client secret needs its client ID.');
  return {
    openBrowser: true,
    ...(clientId ? { clientId } : {}),
    ...(clientId && clientSecret ? { clientSecret } : {}),
    ...(scope ? { scope } : {}),
  };
}
