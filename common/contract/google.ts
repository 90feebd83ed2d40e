/** The user's Google OAuth client and accounts. */

/** The user's Google OAuth client as the UI sees it: the ID, never the secret. */
export interface GoogleClientView {
  clientId: string;
  projectId?: string;
  hasSecret: boolean;
  importedAt: string;
}

/** Google's downloaded `client_secret_….json` ("Desktop app"), or the ID and secret typed in. */
export type GoogleClientInput = { json: string } | { clientId: string; clientSecret: string };

/** A connected Google account (issue 5): what was granted and whether it still works; never a token. */
export interface GoogleAccountView {
  email: string;
  readOnly: boolean;
  scopes: string[];
  /** Asked for but not granted (the consent screen lets users untick some). */
  missingScopes: string[];
  state: 'connected' | 'needs_reconnect';
  /** Why it needs reconnecting. */
  detail?: string;
  connectedAt: string;
  /** The account Google tools use when no `account` argument is given. */
  isDefault: boolean;
  hasToken: true;
}

export interface GoogleConnectOptions {
  /** Ask only for read-only scopes; write tools are not offered for the account. */
  readOnly?: boolean;
  /** Reconnect this account (Google preselects it; read-only follows its current mode unless given). */
  account?: string;
  /** Open the system browser from the core (default true); the CLI opens it itself. */
  openBrowser?: boolean;
}

export interface GoogleConnectStart {
  flowId: string;
  /** The consent URL (no secret: its `state` only works with this flow's listener). */
  authUrl: string;
  redirectUri: string;
  expiresAt: string;
  browserOpened: boolean;
}

export interface GoogleConnectView {
  flowId: string;
  state: 'waiting' | 'exchanging' | 'connected' | 'failed' | 'cancelled';
  account?: GoogleAccountView;
  /** ACCESS_DENIED, TIMEOUT, NO_REFRESH_TOKEN, EXCHANGE_FAILED, AUTHORIZATION_ERROR, CANCELLED, SAVE_FAILED. */
  error?: { code: string; message: string };
}

export interface GoogleDisconnectResult {
  email: string;
  /** Whether Google confirmed the grant is revoked. */
  revoked: boolean;
  detail?: string;
}

export interface GoogleApi {
  getGoogleClient(): Promise<GoogleClientView | null>;
  /** Imports or replaces the OAuth client (ID to settings, secret to the vault). */
  setGoogleClient(input: GoogleClientInput): Promise<GoogleClientView>;
  listGoogleAccounts(): Promise<GoogleAccountView[]>;
  /** Starts a loopback consent; progress arrives as `google.connect` events and through waitGoogleConnect. */
  startGoogleConnect(options?: GoogleConnectOptions): Promise<GoogleConnectStart>;
  /** Waits up to `waitMs` (≤ 30 s) for the flow to leave `waiting`/`exchanging`; call again while it has not. */
  waitGoogleConnect(flowId: string, waitMs?: number): Promise<GoogleConnectView>;
  cancelGoogleConnect(flowId: string): Promise<GoogleConnectView>;
  /** Revokes the grant at Google, deletes its tokens from the vault and removes the account. */
  disconnectGoogle(email: string): Promise<GoogleDisconnectResult>;
  /**
   * Makes a connected account the default: the one Google tools use without an `account`
   * argument. It stays the default while it needs reconnecting. Answers the accounts.
   */
  setDefaultGoogleAccount(email: string): Promise<GoogleAccountView[]>;
}
