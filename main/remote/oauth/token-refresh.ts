import { OAuthError, refreshAuthorization, type FetchLike } from '@modelcontextprotocol/client';
import type { Logger } from '../../platform/log.js';
import { RefreshUnavailableError, sanitize, type SignInRequiredError } from './errors.js';
import type { OAuthRecord, OAuthStore, SavedTokens } from './store.js';

/** Refresh this long before expiry, or at half the lifetime of a short-lived token. */
const REFRESH_AHEAD_MS = 60_000;

/** Whether an access token is due for renewal at `now`. */
export function expiring(t: SavedTokens, now: number): boolean {
  if (t.expires_at === undefined) return false;
  const lifetime = t.expires_at - t.obtained_at;
  return t.expires_at - now <= Math.min(REFRESH_AHEAD_MS, lifetime / 2);
}

/** The OAuthSession a TokenRefresher renews for, read when used. */
export interface RefreshTarget {
  store: OAuthStore;
  fetch?: FetchLike;
  logger?: Logger;
  now: () => number;
  /** The stored record when it belongs to the session's server URL. */
  record: () => Promise<OAuthRecord | null>;
  /** The error to throw, recorded as the reason a sign-in is required. */
  require: (reason: string) => SignInRequiredError;
  dropTokens: () => Promise<void>;
}

/**
 * Renews one server's access token (issue 10) with the SDK's `refreshAuthorization`, carrying the
 * RFC 8707 `resource`. A refused refresh ends in SignInRequiredError; an unreachable authorization
 * server in RefreshUnavailableError.
 */
export class TokenRefresher {
  private refreshing: Promise<SavedTokens> | null = null;

  constructor(private readonly s: RefreshTarget) {}

  /** Single-flight: every caller during a refresh waits for the same request. */
  refresh(refused = false): Promise<SavedTokens> {
    this.refreshing ??= this.doRefresh(refused).finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async doRefresh(refused: boolean): Promise<SavedTokens> {
    const rec = await this.s.record();
    const t = rec?.tokens;
    if (!rec || !t?.refresh_token) throw this.s.require('not signed in');
    if (!refused && !expiring(t, this.s.now())) return t; // another caller refreshed meanwhile
    const client = rec.client ?? rec.preregistered;
    if (!rec.as || !client) {
      await this.s.dropTokens();
      throw this.s.require('the stored sign-in is incomplete');
    }
    let fresh;
    try {
      fresh = await refreshAuthorization(rec.as.authorizationServerUrl, {
        metadata: rec.as,
        clientInformation: client,
        refreshToken: t.refresh_token,
        // RFC 8707 §2.2: the resource indicator on every token request, refreshes included (MCP 2025-11-25, "Resource Parameter Implementation").
        ...(rec.resource ? { resource: new URL(rec.resource) } : {}),
        ...(this.s.fetch ? { fetchFn: this.s.fetch } : {}),
      });
    } catch (err) {
      if (err instanceof OAuthError) {
        // The authorization server answered: the grant is dead (invalid_grant: revoked, expired, reused).
        await this.s.dropTokens();
        throw this.s.require(
          `the authorization server refused to renew the sign-in (${sanitize(err.code, 60)})`,
        );
      }
      this.s.logger?.warn('oauth refresh failed', {
        server: this.s.store.name,
        error: err instanceof Error ? err.message : String(err),
      });
      throw new RefreshUnavailableError(
        `could not renew the sign-in: the authorization server did not answer (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    const now = this.s.now();
    const saved: SavedTokens = {
      access_token: fresh.access_token,
      token_type: fresh.token_type,
      // A refresh response without a refresh token keeps the old one (RFC 6749 §6; refreshAuthorization does this too).
      ...(fresh.refresh_token ? { refresh_token: fresh.refresh_token } : {}),
      ...((fresh.scope ?? t.scope) ? { scope: fresh.scope ?? t.scope } : {}),
      ...(fresh.expires_in !== undefined ? { expires_at: now + fresh.expires_in * 1000 } : {}),
      obtained_at: now,
    };
    // Only over the grant that was renewed: a sign-in that finished meanwhile keeps its new tokens.
    await this.s.store.update((r) =>
      r && r.tokens?.refresh_token === t.refresh_token ? { ...r, tokens: saved } : r,
    );
    this.s.logger?.info('oauth tokens renewed', { server: this.s.store.name });
    return saved;
  }
}
