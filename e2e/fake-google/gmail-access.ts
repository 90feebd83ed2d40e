import {
  GoogleToolError,
  type GoogleAccountAccess,
  type GoogleAccountInfo,
} from '../../main/google/account-access.js';

/** A fixed GoogleAccountAccess for Gmail tests: accounts with static tokens, pointed at the fake. */
export class StaticGoogleAccess implements GoogleAccountAccess {
  private readonly listeners = new Set<() => void>();
  tokenRequests = 0;

  constructor(
    private readonly root: string,
    private list: (GoogleAccountInfo & { token: string })[],
  ) {}

  accounts(): GoogleAccountInfo[] {
    return this.list.map(({ token: _token, ...info }) => info);
  }

  async accessToken(email: string): Promise<string> {
    this.tokenRequests++;
    const found = this.list.find((a) => a.email === email);
    if (!found) throw new GoogleToolError('NO_ACCOUNT', `No connected Google account ${email}.`);
    if (found.state === 'needs_reconnect')
      throw new GoogleToolError('OAUTH_REVOKED', `${email} needs to be reconnected in Airlock.`);
    return found.token;
  }

  apiRoot(): string {
    return this.root;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Replaces the accounts and tells listeners, as the accounts service does. */
  setAccounts(list: (GoogleAccountInfo & { token: string })[]): void {
    this.list = list;
    for (const l of this.listeners) l();
  }
}

export function account(
  email: string,
  token: string,
  readOnly = false,
): GoogleAccountInfo & { token: string } {
  const scopes = readOnly
    ? ['https://www.googleapis.com/auth/gmail.readonly']
    : [
        'https://www.googleapis.com/auth/gmail.modify',
        'https://www.googleapis.com/auth/gmail.compose',
        'https://www.googleapis.com/auth/gmail.settings.basic',
      ];
  return { email, token, readOnly, scopes, state: 'connected' };
}
