/**
 * What Gmail and Calendar tools need from the Google accounts layer, and
 * nothing more. The accounts service (OAuth, keychain, refresh) implements
 * it; tool tests use a static fake.
 */
export interface GoogleAccountInfo {
  email: string;
  /** Connected with read-only scopes only: write tools are not offered for it. */
  readOnly: boolean;
  scopes: string[];
  state: 'connected' | 'needs_reconnect';
}

export type GoogleErrorCode =
  | 'OAUTH_REVOKED'
  | 'OAUTH_SCOPE'
  | 'RATE_LIMITED'
  | 'VAULT_LOCKED'
  | 'KEYCHAIN_UNAVAILABLE'
  | 'NO_ACCOUNT'
  | 'GOOGLE_API';

/** An error a Google tool turns into an `isError` result the agent can read. */
export class GoogleToolError extends Error {
  constructor(
    readonly code: GoogleErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'GoogleToolError';
  }
}

export interface GoogleAccountAccess {
  /** Connected accounts, the default first (even while it needs reconnecting). */
  accounts(): GoogleAccountInfo[];
  /** A valid access token for the account, refreshed when needed; throws GoogleToolError. */
  accessToken(email: string): Promise<string>;
  /** API root for googleapis clients (`rootUrl`), overridable for tests. Ends with '/'. */
  apiRoot(): string;
  /** Called when accounts are added, removed or change state. */
  onChange(listener: () => void): () => void;
  /**
   * Google answered 401 to `token` before its expiry (clock skew, or the grant
   * was revoked at myaccount.google.com): drop it, so the next accessToken()
   * refreshes — and a revoked grant turns needs_reconnect at once.
   */
  tokenRejected?(email: string, token: string): void;
}
