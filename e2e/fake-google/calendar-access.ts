import {
  GoogleToolError,
  type GoogleAccountAccess,
  type GoogleAccountInfo,
} from '../../main/google/account-access.js';

/**
 * A fixed GoogleAccountAccess for calendar tests: accounts and their tokens
 * are given; `setAccounts` stands in for connecting/disconnecting.
 */
export class StaticGoogleAccess implements GoogleAccountAccess {
  private readonly listeners = new Set<() => void>();
  tokenCalls = 0;

  constructor(
    private list: GoogleAccountInfo[],
    private readonly tokens: Record<string, string>,
    private readonly root: string,
  ) {}

  accounts(): GoogleAccountInfo[] {
    return this.list;
  }

  async accessToken(email: string): Promise<string> {
    this.tokenCalls++;
    const account = this.list.find((a) => a.email === email);
    if (!account)
      throw new GoogleToolError('NO_ACCOUNT', `No Google account ${email} is connected.`);
    if (account.state === 'needs_reconnect')
      throw new GoogleToolError(
        'OAUTH_REVOKED',
        `Google access for ${email} has ended; reconnect it in Airlock.`,
      );
    const token = this.tokens[email];
    if (!token) throw new GoogleToolError('NO_ACCOUNT', `No token for ${email}.`);
    return token;
  }

  apiRoot(): string {
    return this.root;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setAccounts(list: GoogleAccountInfo[]): void {
    this.list = list;
    for (const l of this.listeners) l();
  }
}

export const CAL_SCOPES = {
  read: ['https://www.googleapis.com/auth/calendar.readonly'],
  write: [
    'https://www.googleapis.com/auth/calendar.readonly',
    'https://www.googleapis.com/auth/calendar.events',
  ],
};

export function account(email: string, readOnly = false): GoogleAccountInfo {
  return {
    email,
    readOnly,
    scopes: readOnly ? CAL_SCOPES.read : CAL_SCOPES.write,
    state: 'connected',
  };
}
