import {
  UnauthorizedError,
  computeScopeUnion,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  InsufficientScopeError,
  type AuthProvider,
  type FetchLike,
} from '@modelcontextprotocol/client';
import type { RemoteAuthView } from '../../../common/contract/index.js';
import type { Logger } from '../../platform/log.js';
import {
  describeSignIn,
  isSignInError,
  RefreshUnavailableError,
  sanitize,
  SignInRequiredError,
} from './errors.js';
import { guardedFetch, secureEndpoint } from './login-discovery.js';
import type { Resolver } from '../http/address-guard.js';
import type { AddressPin } from '../http/address-pin.js';
import { revokeGrant } from './revoke.js';
import { authView } from './view.js';
import type { OAuthRecord, OAuthStore } from './store.js';
import { expiring, TokenRefresher } from './token-refresh.js';

/** What the next sign-in should ask for, learned from the server's challenges. */
export interface LoginHints {
  resourceMetadataUrl?: string;
  scope?: string;
}

export interface OAuthSessionOptions {
  store: OAuthStore;
  serverUrl: string;
  logger?: Logger;
  /**
   * For requests to the authorization server: plain fetch, never the MCP server's extra headers.
   * Every request goes through guardedFetch (login-discovery.ts) either way.
   */
  fetch?: FetchLike;
  /** The resolver the guarded requests connect by (address-guard.ts); the system's by default. */
  resolve?: Resolver;
  /** Where the server was first reached (address-pin.ts): its token requests follow it too. */
  pin?: AddressPin;
  now?: () => number;
  /** `remote probe --oauth-auto`: sign in on the spot instead of reporting "sign-in required". */
  signIn?: (hints: LoginHints) => Promise<void>;
  /** Sign-in state changed (for UIs). */
  onChange?: () => void;
}

/**
 * One remote server's OAuth credentials as the transports see them (the
 * SDK's minimal AuthProvider: `token()` before every request,
 * `onUnauthorized()` on a 401, after which the transport retries once).
 *
 * - Access tokens are refreshed ahead of expiry, single-flight, with the
 *   RFC 8707 `resource` on the refresh request (SDK `refreshAuthorization`,
 *   token-refresh.ts).
 * - A refused refresh (invalid_grant, …) or a missing refresh token ends in
 *   SignInRequiredError with the reason; an unreachable authorization server
 *   in RefreshUnavailableError (the connection retries later).
 * - A 401 without stored tokens becomes "sign-in required" only when the
 *   server speaks OAuth: a Bearer `WWW-Authenticate` challenge or published
 *   protected-resource metadata (RFC 9728). Otherwise it stays a plain 401.
 *
 * Deliberately not an OAuthClientProvider: the transports would then run the
 * whole authorization flow (registration included) from a background
 * reconnect. The interactive flow is LoginFlow's, started by the user.
 */
export class OAuthSession implements AuthProvider {
  private readonly refresher: TokenRefresher;
  private required: { reason?: string; scope?: string } | null = null;
  private hints: LoginHints = {};
  private serverUrl: string;
  private pin: AddressPin | undefined;

  /**
   * The refresh, the revocation and the metadata reads of a 401, judged as a sign-in's requests are
   * (guardedFetch): by then a token endpoint's name may resolve elsewhere than at the sign-in.
   */
  private readonly fetch: FetchLike = (input, init) =>
    guardedFetch(new URL(this.serverUrl).host, this.serverUrl, {
      ...(this.o.fetch ? { fetch: this.o.fetch } : {}),
      ...(this.o.resolve ? { resolve: this.o.resolve } : {}),
      ...(this.pin ? { pin: this.pin } : {}),
    })(input, init);

  constructor(private readonly o: OAuthSessionOptions) {
    this.serverUrl = o.serverUrl;
    this.pin = o.pin;
    this.refresher = new TokenRefresher({
      store: o.store,
      fetch: this.fetch,
      ...(o.logger ? { logger: o.logger } : {}),
      now: () => this.now(),
      record: () => this.record(),
      require: (reason) => this.require(reason),
      dropTokens: () => this.dropTokens(),
    });
  }

  get store(): OAuthStore {
    return this.o.store;
  }

  /** The URL this session acts on (the real one, credentials in its path or query included). */
  get url(): string {
    return this.serverUrl;
  }

  /**
   * Loads the record and drops tokens issued for another URL. A record bound to `formerly` (the
   * same server's URL as settings show it, credentials masked) is rebound to `serverUrl` whole.
   * `pin`: the server's, which a new URL replaces (RemoteManager.pinFor).
   */
  async load(serverUrl = this.serverUrl, formerly?: string, pin = this.pin): Promise<void> {
    this.serverUrl = serverUrl;
    this.pin = pin;
    let rec = await this.o.store.load();
    if (rec && formerly !== undefined && rec.serverUrl === formerly && formerly !== serverUrl)
      rec = await this.o.store.update((r) => (r ? { ...r, serverUrl } : r));
    if (rec && rec.serverUrl !== serverUrl && (rec.tokens || rec.resource)) {
      // Tokens are bound to the resource they were issued for: never send them to another server.
      await this.o.store.update((r) => (r ? { v: 1, serverUrl, ...pick(r) } : r));
    }
  }

  async token(): Promise<string | undefined> {
    const t = (await this.record())?.tokens;
    if (!t) return undefined;
    if (!expiring(t, this.now())) return t.access_token;
    if (t.refresh_token) {
      try {
        return (await this.refresher.refresh()).access_token;
      } catch (err) {
        // Renewing ahead of time failed for now (authorization server down): the token still works until it expires.
        if (
          err instanceof RefreshUnavailableError &&
          t.expires_at !== undefined &&
          t.expires_at > this.now()
        )
          return t.access_token;
        throw err;
      }
    }
    if (t.expires_at !== undefined && t.expires_at <= this.now()) {
      await this.dropTokens();
      throw this.require('the sign-in expired and the server gave no refresh token');
    }
    return t.access_token;
  }

  /**
   * What token() gives when it needs no wait: the record is loaded and its token, or its absence,
   * stands. `null` when only token() can tell (not loaded, due for renewal). lean-send.ts puts a
   * call's headers together with it without a promise per call (issue 34).
   */
  tokenNow(): string | undefined | null {
    const rec = this.o.store.cached();
    if (rec === undefined) return null;
    const t = rec?.serverUrl === this.serverUrl ? rec.tokens : undefined;
    if (!t) return undefined;
    return expiring(t, this.now()) ? null : t.access_token;
  }

  async onUnauthorized(ctx: { response: Response; serverUrl: URL }): Promise<void> {
    const challenge = extractWWWAuthenticateParams(ctx.response);
    const named = challenge.resourceMetadataUrl;
    const metadataUrl = ownOrigin(this.serverUrl, named);
    this.noteHints(signInMetadataUrl(this.serverUrl, named)?.href, challenge.scope);
    const t = (await this.record())?.tokens;
    if (t?.refresh_token) {
      // Refused before expiry: revoked, or rotated keys. One refresh decides; the transport then retries once.
      try {
        await this.refresher.refresh(true);
        return;
      } catch (err) {
        if (!(err instanceof SignInRequiredError) || !this.o.signIn) throw err;
      }
    } else if (t) {
      await this.dropTokens();
      if (!this.o.signIn)
        throw this.require('the server refused the access token and gave no refresh token');
    } else if (
      !(await this.speaksOAuth(ctx.response, metadataUrl)) &&
      // Named elsewhere and not read now: the challenge itself says OAuth (RFC 9728 §5.1); the
      // sign-in the user starts reads it.
      !(named && !metadataUrl && signInMetadataUrl(this.serverUrl, named))
    ) {
      throw new UnauthorizedError();
    }
    if (this.o.signIn) return this.o.signIn(this.loginHints());
    throw this.require(undefined);
  }

  /** Records what a failed connection or call tells about the sign-in (status view, next sign-in's scope). */
  observe(err: unknown): void {
    if (err instanceof InsufficientScopeError) {
      const scope = computeScopeUnion(
        this.hints.scope,
        this.o.store.peek()?.tokens?.scope,
        sanitize(err.requiredScope),
      );
      this.noteHints(signInMetadataUrl(this.serverUrl, err.resourceMetadataUrl)?.href, scope);
      this.setRequired({ ...(scope ? { scope } : {}) });
    } else if (err instanceof SignInRequiredError) {
      this.setRequired({
        ...(err.reason ? { reason: err.reason } : {}),
        ...(err.neededScope ? { scope: err.neededScope } : {}),
      });
    } else if (isSignInError(err)) {
      this.setRequired({ reason: 'the server refused the renewed access token' });
    }
  }

  describe(err: unknown): string | undefined {
    // After observe(): the scope to ask for is the union of what was granted and what the server wants.
    if (err instanceof InsufficientScopeError && this.required?.scope)
      return describeSignIn(new SignInRequiredError(undefined, this.required.scope));
    return describeSignIn(err);
  }

  needsSignIn(err: unknown): boolean {
    return isSignInError(err);
  }

  /** The connection works: nothing is required any more. */
  connected(): void {
    if (this.required) this.setRequired(null);
  }

  /** A sign-in completed (LoginFlow saved new tokens). */
  signedIn(): void {
    this.hints = {};
    this.setRequired(null);
  }

  loginHints(): LoginHints {
    return { ...this.hints };
  }

  /** Current token values, for redaction of anything the upstream echoes back. */
  secrets(): readonly string[] {
    // Asked on every call of the server and at each redaction (redact.ts sync): the values in
    // the order the filtered pair gave them, without the pair and the filter's array, and one
    // shared empty list when there is no token (issue 34, wave 3 session 32).
    const t = this.o.store.peek()?.tokens;
    const access = t?.access_token;
    const refresh = t?.refresh_token;
    if (access) return refresh ? [access, refresh] : [access];
    return refresh ? [refresh] : NO_TOKENS;
  }

  view(): RemoteAuthView | undefined {
    const rec = this.o.store.peek();
    const required = this.required
      ? describeSignIn(new SignInRequiredError(this.required.reason, this.required.scope))
      : undefined;
    return authView(rec && rec.serverUrl === this.serverUrl ? rec : null, required);
  }

  /**
   * Forgets the tokens and revokes them where the authorization server
   * publishes a revocation endpoint (RFC 7009). The client registration stays
   * for the next sign-in.
   */
  async logout(
    o: { timeoutMs?: number } = {},
  ): Promise<{ revoked: boolean; hadTokens: boolean; detail?: string }> {
    const rec = await this.o.store.load();
    const r = await revokeGrant(rec, {
      fetch: this.fetch,
      ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
    });
    await this.o.store.update((x) => (x ? withoutTokens(x) : x));
    this.setRequired({ reason: 'signed out' });
    return { ...r, hadTokens: !!rec?.tokens };
  }

  private async record(): Promise<OAuthRecord | null> {
    const rec = await this.o.store.load();
    return rec && rec.serverUrl === this.serverUrl ? rec : null;
  }

  /**
   * OAuth per the MCP spec (2025-11-25, "Authorization Server Discovery"): the server publishes
   * protected-resource metadata (RFC 9728), named by the challenge's `resource_metadata` or at the
   * well-known location. A bare `WWW-Authenticate: Bearer` is what any token-protected API sends
   * (RFC 6750 §3), so on its own it stays a plain 401 ("the token is missing, wrong or expired").
   */
  private async speaksOAuth(
    _res: Response,
    resourceMetadataUrl: URL | undefined,
  ): Promise<boolean> {
    try {
      const prm = await discoverOAuthProtectedResourceMetadata(
        this.serverUrl,
        resourceMetadataUrl ? { resourceMetadataUrl } : {},
        this.fetch,
      );
      return Array.isArray(prm.authorization_servers) && prm.authorization_servers.length > 0;
    } catch {
      return false;
    }
  }

  private noteHints(resourceMetadataUrl: string | undefined, scope: string | undefined): void {
    if (resourceMetadataUrl) this.hints.resourceMetadataUrl = resourceMetadataUrl;
    if (scope) this.hints.scope = computeScopeUnion(this.hints.scope, sanitize(scope));
  }

  private require(reason: string | undefined): SignInRequiredError {
    const err = new SignInRequiredError(reason);
    this.setRequired(reason ? { reason } : {});
    return err;
  }

  private setRequired(r: { reason?: string; scope?: string } | null): void {
    this.required = r;
    this.o.onChange?.();
  }

  private async dropTokens(): Promise<void> {
    await this.o.store.update((r) => (r ? withoutTokens(r) : r));
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }
}

function withoutTokens(r: OAuthRecord): OAuthRecord {
  const { tokens: _t, ...rest } = r;
  return rest;
}

/** What survives a URL change: the user's client choices (registrations are per authorization server, not per URL). */
function pick(r: OAuthRecord): Partial<OAuthRecord> {
  return {
    ...(r.client ? { client: r.client } : {}),
    ...(r.preregistered ? { preregistered: r.preregistered } : {}),
    ...(r.clientMetadataUrl ? { clientMetadataUrl: r.clientMetadataUrl } : {}),
  };
}

/**
 * A challenge's `resource_metadata` URL when it is on the server's own origin; otherwise none, and
 * discovery reads the well-known URL of the server's origin (RFC 9728 §3, built from the resource
 * identifier). Any 401 — in the background, on every reconnect, with no user action — made
 * Airlock GET whatever URL the server named: a router's or a local service's address on the
 * user's network included (red-team redteam2 F4, `oauth-metadata-origin.security.test.ts`).
 */
function ownOrigin(serverUrl: string, url: URL | undefined): URL | undefined {
  try {
    return url && url.origin === new URL(serverUrl).origin ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `resource_metadata` URL a sign-in the user starts reads. MCP 2025-11-25 ("Protected Resource
 * Metadata Discovery Requirements"): a client MUST use the URL the challenge names, and RFC 9728
 * §5.1 lets it be on another host (a central authorization gateway), so a sign-in follows it there
 * too — over HTTPS, and on this machine only when the server is itself on it (secureEndpoint's
 * loopback rule). That reaches nothing the sign-in did not already reach: it reads the
 * authorization server the metadata names, wherever that is.
 */
export function signInMetadataUrl(serverUrl: string, url: URL | undefined): URL | undefined {
  if (!url || ownOrigin(serverUrl, url)) return url;
  return secureEndpoint(url.href, serverUrl) ? url : undefined;
}

/** secrets() with no token: frozen, shared (redact.ts only reads it). */
const NO_TOKENS: readonly string[] = Object.freeze([]);
