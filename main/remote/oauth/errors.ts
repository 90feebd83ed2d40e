import { InsufficientScopeError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/**
 * The server wants the user to sign in (again). Airlock never opens a
 * browser on its own for this: the connection shows "sign-in required" and
 * the user signs in from the UI or `airlock remote login NAME` (issue 10).
 */
export class SignInRequiredError extends Error {
  override name = 'SignInRequiredError';
  constructor(
    readonly reason?: string,
    /** Scope the server asked for (403 insufficient_scope), to request at the next sign-in. */
    readonly neededScope?: string,
  ) {
    super(signInDetail(reason, neededScope));
  }
}

/**
 * Refreshing failed for a reason that may pass (the authorization server is
 * unreachable): the connection retries with backoff instead of asking the
 * user to sign in.
 */
export class RefreshUnavailableError extends Error {
  override name = 'RefreshUnavailableError';
}

/** A sign-in that could not start or finish; `code` is stable for UIs and scripts. */
export type LoginErrorCode =
  | 'NO_OAUTH'
  | 'NO_PKCE'
  | 'INSECURE_ENDPOINT'
  | 'PRIVATE_ENDPOINT'
  | 'RESOURCE_MISMATCH'
  | 'NEEDS_CLIENT_ID'
  | 'REGISTRATION_FAILED'
  | 'ACCESS_DENIED'
  | 'AUTHORIZATION_ERROR'
  | 'EXCHANGE_FAILED'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'SAVE_FAILED'
  | 'AUTO_FOLLOW_FAILED';

export class LoginError extends Error {
  override name = 'LoginError';
  constructor(
    readonly code: LoginErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The status line: "sign-in required", "sign-in required: <reason>", "sign-in required (needs scope …)". */
export function signInDetail(reason?: string, neededScope?: string): string {
  if (neededScope) return `sign-in required (needs scope ${neededScope})`;
  return reason ? `sign-in required: ${reason}` : 'sign-in required';
}

/**
 * Values from a resource or authorization server (scope strings, error
 * codes) are untrusted: keep printable ASCII, bounded, before they reach a
 * status line or a tool error.
 */
export function sanitize(value: string | undefined, max = 200): string | undefined {
  if (value === undefined) return undefined;
  const clean = value
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, max);
  return clean || undefined;
}

/** Errors that mean "only a new sign-in helps" for an OAuth connection. */
export function isSignInError(err: unknown): boolean {
  return (
    err instanceof SignInRequiredError ||
    err instanceof InsufficientScopeError ||
    // The transport's one retry after a refresh was refused again.
    (err instanceof SdkError && err.code === SdkErrorCode.ClientHttpAuthentication)
  );
}

/** Status text for a sign-in error of an OAuth connection. */
export function describeSignIn(err: unknown): string | undefined {
  if (err instanceof SignInRequiredError) return err.message;
  if (err instanceof InsufficientScopeError)
    return signInDetail(undefined, sanitize(err.requiredScope) ?? 'more access');
  if (err instanceof SdkError && err.code === SdkErrorCode.ClientHttpAuthentication)
    return signInDetail('the server refused the renewed access token');
  return undefined;
}
