import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import type { Vault } from '../platform/vault/vault.js';
import {
  GoogleToolError,
  type GoogleAccountAccess,
  type GoogleAccountInfo,
} from './account-access.js';
import { authorizedFetch } from './authorized-fetch.js';
import { GoogleClientStore } from './client-store.js';
import type { GoogleClientCredentials } from './client-config.js';
import { resolveEndpoints, type GoogleEndpoints } from './endpoints.js';
import { refreshError, revokedMessage, vaultToolError } from './errors.js';
import type { Grant } from './oauth/connect-flow.js';
import { GoogleOAuth } from './oauth/google-oauth.js';
import { revokeAtGoogle } from './revoke.js';
import type { GoogleAccountSettings } from '../platform/google-settings-schema.js';
import { AccountRoster } from './account-roster.js';
import { TokenStore, type TokenBundle } from './token-store.js';
import { isVaultError } from '../platform/vault/vault.js';

export interface GoogleAccountsDeps {
  settings: SettingsStore;
  vault: Vault;
  logger?: Logger;
  /** Where AIRLOCK_GOOGLE_* endpoint overrides are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** Refresh this long before expiry (issue 5, item 6: 2 minutes). */
  refreshAheadMs?: number;
  /** Timeout of each request to Google's OAuth endpoints. */
  requestTimeoutMs?: number;
}

export interface DisconnectResult {
  email: string;
  /** Whether Google confirmed the grant is revoked (or already was). */
  revoked: boolean;
  detail?: string;
}

/**
 * Connected Google accounts and their tokens (issue 5, items 3, 5–7). The
 * list lives in settings (AccountRoster); each grant lives in the vault as `google:<email>`.
 * Access tokens are refreshed ahead of expiry with one refresh in flight per
 * account; a revoked grant turns the account `needs_reconnect` and every
 * caller gets an error that says so — never a silent failure.
 */
export class GoogleAccounts implements GoogleAccountAccess {
  readonly client: GoogleClientStore;
  /** The account list and the default, in settings. */
  readonly roster: AccountRoster;
  private readonly tokens: TokenStore;
  private readonly cache = new Map<string, TokenBundle>();
  private readonly inflight = new Map<string, Promise<string>>();
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;

  constructor(private readonly d: GoogleAccountsDeps) {
    this.client = new GoogleClientStore(d);
    this.roster = new AccountRoster(d.settings, () => this.changed(), d.logger);
    this.tokens = new TokenStore(d.vault);
    this.now = d.now ?? Date.now;
  }

  endpoints(): GoogleEndpoints {
    return resolveEndpoints(this.d.settings.get().google.endpoints, this.d.env ?? process.env);
  }

  apiRoot(): string {
    return this.endpoints().apiRoot;
  }

  /** Every account in settings, the default first (see AccountRoster). */
  accounts(): GoogleAccountInfo[] {
    return this.roster.all();
  }

  /** The settings entries in connection order (for views: connectedAt, detail). */
  accountSettings(): GoogleAccountSettings[] {
    return this.roster.entries();
  }

  /** The preferred consent-callback port from settings, if any. */
  settingsPort(): number | undefined {
    return this.d.settings.get().google.callbackPort || undefined;
  }

  /** The default account, even while it needs reconnecting (issue 18.2). */
  defaultAccount(): GoogleAccountInfo | null {
    return this.roster.defaultAccount();
  }

  setDefault(email: string): GoogleAccountInfo {
    return this.roster.setDefault(email);
  }

  /** The account asked for (case-insensitive), or the default; NO_ACCOUNT otherwise. */
  resolve(email?: string): GoogleAccountInfo {
    return this.roster.resolve(email);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A valid access token, refreshed 2 minutes ahead of expiry; throws GoogleToolError. */
  async accessToken(email: string): Promise<string> {
    const acct = this.resolve(email);
    if (acct.state === 'needs_reconnect')
      throw new GoogleToolError(
        'OAUTH_REVOKED',
        revokedMessage(acct.email, this.roster.of(acct.email)?.detail),
      );
    const cached = this.cache.get(acct.email);
    if (cached && this.fresh(cached)) return cached.accessToken;
    // Single-flight: the first caller loads (and if needed refreshes); everyone else awaits the same promise.
    let pending = this.inflight.get(acct.email);
    if (!pending) {
      pending = this.load(acct.email).finally(() => this.inflight.delete(acct.email));
      this.inflight.set(acct.email, pending);
    }
    return pending;
  }

  /**
   * `fetch` with the account's bearer token. A 401 gets one forced refresh and
   * one retry; any other non-2xx becomes a GoogleToolError (OAUTH_SCOPE,
   * RATE_LIMITED with its retry hint, …).
   */
  fetch(email: string, url: string | URL, init: RequestInit = {}): Promise<Response> {
    return authorizedFetch(this, this.resolve(email).email, url, init);
  }

  /** An API answered 401 to this token: the next use refreshes, unless a newer token already replaced it. */
  tokenRejected(email: string, token: string): void {
    const b = this.cache.get(email.toLowerCase());
    if (b?.accessToken !== token || b.expiry === 0) return;
    this.d.logger?.info('google rejected an access token before its expiry; refreshing', { email });
    this.expire(email);
  }

  /** Forgets the cached access token, so the next use refreshes. */
  expire(email: string): void {
    const b = this.cache.get(email.toLowerCase());
    if (b) this.cache.set(email.toLowerCase(), { ...b, expiry: 0 });
  }

  /** Stores a fresh grant from the consent flow and lists the account (vault first, then settings). */
  async saveGrant(grant: Grant): Promise<void> {
    const email = grant.email.toLowerCase();
    const { clientId } = await this.client.credentials();
    const scopes = grant.tokens.scopes ?? grant.asked;
    const bundle: TokenBundle = {
      refreshToken: grant.tokens.refreshToken,
      accessToken: grant.tokens.accessToken,
      expiry: grant.tokens.expiry,
      scopes,
      grantedAt: new Date(this.now()).toISOString(),
      clientId,
    };
    this.secret(bundle);
    await this.tokens.write(email, bundle);
    this.cache.set(email, bundle);
    this.d.logger?.info('google account connected', { email, readOnly: grant.readOnly, scopes });
    this.roster.put({
      email,
      readOnly: grant.readOnly,
      scopes,
      state: 'connected',
      connectedAt: bundle.grantedAt,
    });
  }

  /** Revokes the grant at Google (best effort), deletes the vault entry, removes the account. */
  async disconnect(email: string): Promise<DisconnectResult> {
    const acct = this.resolve(email);
    const bundle = await this.tokens.read(acct.email); // a keychain failure throws here: nothing changed
    const { revoked, detail } = await revokeAtGoogle(
      async () => this.oauth(await this.client.credentials(), 15_000),
      bundle?.refreshToken,
    );
    await this.tokens.delete(acct.email);
    this.cache.delete(acct.email);
    this.d.logger?.info('google account disconnected', { email: acct.email, revoked });
    this.roster.remove(acct.email);
    return { email: acct.email, revoked, ...(detail ? { detail } : {}) };
  }

  private async load(email: string): Promise<string> {
    let bundle: TokenBundle | null;
    try {
      bundle = this.cache.get(email) ?? (await this.tokens.read(email));
    } catch (err) {
      throw isVaultError(err) ? vaultToolError(err.code, err.message) : err;
    }
    if (!bundle) {
      this.markNeedsReconnect(email, 'Its stored grant is missing from the system keychain.');
      throw new GoogleToolError(
        'OAUTH_REVOKED',
        revokedMessage(email, 'Its stored grant is missing from the system keychain.'),
      );
    }
    this.secret(bundle);
    if (this.fresh(bundle)) {
      this.cache.set(email, bundle);
      return bundle.accessToken;
    }
    return this.refresh(email, bundle);
  }

  private async refresh(email: string, bundle: TokenBundle): Promise<string> {
    let client;
    try {
      client = await this.client.credentials();
    } catch (err) {
      if (isVaultError(err)) throw vaultToolError(err.code, err.message);
      throw new GoogleToolError('GOOGLE_API', err instanceof Error ? err.message : String(err));
    }
    if (client.clientId !== bundle.clientId) {
      // Refresh tokens are bound to the client that obtained them.
      const detail = 'The OAuth client was replaced after this account was connected.';
      this.markNeedsReconnect(email, detail);
      throw new GoogleToolError('OAUTH_REVOKED', revokedMessage(email, detail));
    }
    let oauth: GoogleOAuth;
    try {
      oauth = this.oauth(client, 30_000);
    } catch (err) {
      throw new GoogleToolError('GOOGLE_API', err instanceof Error ? err.message : String(err)); // a bad endpoint override
    }
    let answer;
    try {
      answer = await oauth.refresh(bundle.refreshToken);
    } catch (err) {
      const r = refreshError(err, email);
      if (r.revoked) this.markNeedsReconnect(email, r.detail ?? 'Google revoked access.');
      this.d.logger?.warn('google token refresh failed', { email, code: r.error.code });
      throw r.error;
    }
    // A refresh answer usually has no refresh_token: keep the old one (RFC 6749 §6).
    const next: TokenBundle = {
      ...bundle,
      accessToken: answer.accessToken,
      expiry: answer.expiry,
      refreshToken: answer.refreshToken ?? bundle.refreshToken,
      scopes: answer.scopes ?? bundle.scopes,
    };
    this.secret(next);
    this.cache.set(email, next);
    try {
      await this.tokens.write(email, next);
    } catch (err) {
      // The old refresh token still works unless Google rotated it; only then is a failed write fatal.
      if (answer.refreshToken && answer.refreshToken !== bundle.refreshToken)
        throw isVaultError(err) ? vaultToolError(err.code, err.message) : err;
      this.d.logger?.warn('could not store the refreshed google access token', { email });
    }
    if (answer.scopes && answer.scopes.join(' ') !== bundle.scopes.join(' '))
      this.roster.update(email, (a) => void (a.scopes = next.scopes));
    return next.accessToken;
  }

  private oauth(client: GoogleClientCredentials, timeoutMs: number): GoogleOAuth {
    return new GoogleOAuth({
      client,
      endpoints: this.endpoints(),
      timeoutMs: this.d.requestTimeoutMs ?? timeoutMs,
    });
  }

  private markNeedsReconnect(email: string, detail: string): void {
    this.cache.delete(email);
    this.roster.markNeedsReconnect(email, detail);
  }

  private fresh(b: TokenBundle): boolean {
    return b.expiry - this.now() > (this.d.refreshAheadMs ?? 120_000);
  }

  private secret(b: TokenBundle): void {
    this.d.logger?.registerSecret(b.accessToken);
    this.d.logger?.registerSecret(b.refreshToken);
  }

  private changed(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch (err) {
        this.d.logger?.warn('google account listener failed', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }
}
