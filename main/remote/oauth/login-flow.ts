import { randomBytes, randomUUID } from 'node:crypto';
import {
  auth,
  OAuthError,
  type FetchLike,
  type OAuthServerInfo,
} from '@modelcontextprotocol/client';
import type { Logger } from '../../platform/log.js';
import { endpointRule, serverReach, systemResolver, type Resolver } from '../http/address-guard.js';
import type { AddressPin } from '../http/address-pin.js';
import { followAuthorization } from './auto-follow.js';
import { LoginError, sanitize, type LoginErrorCode } from './errors.js';
import { LoopbackListener, type RedirectPage } from '../../platform/loopback-redirect.js';
import {
  checkAuthorizationHost,
  discoverServer,
  guardedFetch,
  usableMetadata,
} from './login-discovery.js';
import { saveChoices, saveClient, saveSignIn } from './login-records.js';
import { clientFor, isDynamic, preferredPort, startError } from './login-support.js';
import { FlowProvider } from './provider.js';
import type { LoginHints } from './session.js';
import type { OAuthStore } from './store.js';

export type LoginStatus = 'waiting' | 'exchanging' | 'signed-in' | 'failed' | 'cancelled';

export interface LoginFlowOptions {
  name: string;
  /** The server URL exactly as in settings (tokens are bound to it). */
  serverUrl: string;
  store: OAuthStore;
  hints?: LoginHints;
  /** Scope the user asked for; otherwise the challenge's, else the server's `scopes_supported`. */
  scope?: string;
  preregistered?: { client_id: string; client_secret?: string };
  clientMetadataUrl?: string;
  timeoutMs: number;
  fetch?: FetchLike;
  /** The resolver the sign-in's requests connect by (address-guard.ts); the system's by default. */
  resolve?: Resolver;
  /** Where the server was first reached (address-pin.ts), judged as its connection judges it. */
  pin?: AddressPin;
  /** Testing aid (probe --oauth-auto): follow the authorization redirects without a browser. */
  autoFollow?: boolean;
  logger?: Logger;
  /** Called on every status change. */
  onUpdate?: (flow: LoginFlow) => void;
  /**
   * Takes the credentials of `serverUrl` (its path or query; url-secrets.ts) out of an error's
   * text: the SDK's discovery errors quote the metadata address, which carries the server's path.
   */
  redact?: (text: string) => string;
}

/**
 * One interactive sign-in to a remote MCP server (issue 10): protected
 * resource metadata (RFC 9728) → authorization server metadata (RFC 8414 /
 * OpenID discovery) → client (pre-registered, metadata document, or dynamic
 * registration) → authorization code + PKCE S256 through the browser and a
 * 127.0.0.1 loopback redirect → tokens with `resource` (RFC 8707), saved to
 * the vault bound to the issuer. The SDK's `auth()` runs each step.
 */
export class LoginFlow {
  readonly id = randomUUID();
  status: LoginStatus = 'waiting';
  error: { code: LoginErrorCode; message: string } | undefined;
  authUrl = '';
  redirectUri = '';
  expiresAt = '';
  readonly done: Promise<void>;
  private settle!: () => void;
  private listener: LoopbackListener | null = null;
  private timer: NodeJS.Timeout | undefined;
  private provider: FlowProvider | null = null;
  private info: OAuthServerInfo | null = null;
  private readonly state = randomBytes(32).toString('base64url');

  constructor(private readonly o: LoginFlowOptions) {
    this.done = new Promise((resolve) => (this.settle = resolve));
  }

  get name(): string {
    return this.o.name;
  }

  /** Every request of the sign-in (discovery, registration, token, revocation lookup), checked first. */
  private get fetchFn(): FetchLike {
    return guardedFetch(this.o.name, this.o.serverUrl, {
      ...(this.o.fetch ? { fetch: this.o.fetch } : {}),
      ...(this.o.resolve ? { resolve: this.o.resolve } : {}),
      ...(this.o.pin ? { pin: this.o.pin } : {}),
    });
  }

  /** Runs discovery and registration and opens the listener; afterwards `authUrl` is set. Throws LoginError. */
  async start(): Promise<void> {
    try {
      await this.begin();
    } catch (err) {
      if (err instanceof LoginError) throw new LoginError(err.code, this.redact(err.message));
      if (err instanceof Error) err.message = this.redact(err.message);
      throw err;
    }
  }

  private redact(text: string): string {
    return this.o.redact ? this.o.redact(text) : text;
  }

  private async begin(): Promise<void> {
    const serverUrl = new URL(this.o.serverUrl);
    const resourceMetadataUrl = this.o.hints?.resourceMetadataUrl
      ? new URL(this.o.hints.resourceMetadataUrl)
      : undefined;
    this.info = await discoverServer(this.o.name, serverUrl, resourceMetadataUrl, this.fetchFn);
    // How far in the server's metadata may send the sign-in: no further than the server is.
    const resolve = this.o.resolve ?? systemResolver;
    const rule = endpointRule(await serverReach(this.o.serverUrl, resolve, this.o.pin));
    const md = usableMetadata(this.o.name, this.info, this.o.serverUrl, rule);
    await checkAuthorizationHost(this.o.name, md, rule, resolve);

    const rec = await saveChoices(this.o, md);
    let client = clientFor(rec, md.issuer);
    this.listener = await LoopbackListener.open({
      state: this.state,
      onCallback: (p) => this.callback(p),
      ...(preferredPort(client) ? { preferredPort: preferredPort(client)! } : {}),
    });
    this.redirectUri = this.listener.redirectUri;
    // A dynamic registration names exact redirect URIs; on another port, register again. Pre-registered and
    // metadata-document clients use any loopback port (RFC 8252 §7.3).
    if (client && isDynamic(client) && !client.redirect_uris.includes(this.redirectUri))
      client = undefined;
    this.provider = new FlowProvider({
      redirectUrl: this.redirectUri,
      state: this.state,
      discovery: {
        authorizationServerUrl: this.info.authorizationServerUrl,
        authorizationServerMetadata: md,
        ...(this.info.resourceMetadata ? { resourceMetadata: this.info.resourceMetadata } : {}),
        ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
      },
      ...(client ? { client } : {}),
      ...(rec.clientMetadataUrl ? { clientMetadataUrl: rec.clientMetadataUrl } : {}),
      onClient: (c) => saveClient(this.o, md, this.info!.authorizationServerUrl, c),
      onRedirect: (url) => void (this.authUrl = url.href),
    });
    try {
      await auth(this.provider, {
        serverUrl,
        ...this.authScope(),
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
        fetchFn: this.fetchFn,
        forceReauthorization: true,
      });
      // With a redirect URL and no code, auth() always ends in an authorization request.
      if (!this.authUrl) throw new Error('the SDK built no authorization URL');
    } catch (err) {
      this.listener.close();
      throw startError(this.o.name, err);
    }
    this.expiresAt = new Date(Date.now() + this.o.timeoutMs).toISOString();
    this.timer = setTimeout(
      () =>
        this.finish('failed', {
          code: 'TIMEOUT',
          message: `No sign-in arrived within ${Math.round(this.o.timeoutMs / 60_000)} minutes; nothing changed.`,
        }),
      this.o.timeoutMs,
    );
    this.timer.unref();
    this.o.logger?.info('remote sign-in started', {
      server: this.o.name,
      redirectUri: this.redirectUri,
      issuer: md.issuer,
    });
    if (this.o.autoFollow) {
      void followAuthorization(this.authUrl, this.redirectUri, this.o.fetch ?? fetch).catch(
        (err: unknown) => {
          this.finish('failed', {
            code: 'AUTO_FOLLOW_FAILED',
            message: err instanceof Error ? err.message : String(err),
          });
        },
      );
    }
  }

  cancel(message = 'The sign-in was cancelled; nothing changed.'): void {
    this.finish('cancelled', { code: 'CANCELLED', message });
  }

  private async callback(params: URLSearchParams): Promise<RedirectPage> {
    if (this.status !== 'waiting' || !this.provider)
      return {
        ok: false,
        title: 'Sign-in over',
        message: this.error?.message ?? 'This sign-in has already finished.',
      };
    const error = params.get('error');
    const code = params.get('code');
    if (error || !code) {
      // The error text comes from whoever sent the browser here: show its code only.
      const denied = error === 'access_denied';
      const message = denied
        ? `Access to "${this.o.name}" was not granted; nothing changed.`
        : `The authorization server reported an error (${sanitize(error ?? 'no code', 60)}); nothing changed.`;
      this.finish('failed', { code: denied ? 'ACCESS_DENIED' : 'AUTHORIZATION_ERROR', message });
      return { ok: false, title: denied ? 'Access not granted' : 'Sign-in failed', message };
    }
    this.status = 'exchanging';
    this.o.onUpdate?.(this);
    try {
      const iss = params.get('iss');
      // RFC 9207 `iss` is checked by the SDK against the recorded issuer before the code is redeemed.
      const r = await auth(this.provider, {
        serverUrl: new URL(this.o.serverUrl),
        authorizationCode: code,
        ...(iss ? { iss } : {}),
        ...this.authScope(),
        fetchFn: this.fetchFn,
      });
      if (r !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens');
    } catch (err) {
      const message = `Exchanging the authorization code failed: ${err instanceof OAuthError ? sanitize(err.code, 60) : err instanceof Error ? err.message : String(err)}. Nothing changed.`;
      this.finish('failed', { code: 'EXCHANGE_FAILED', message });
      return { ok: false, title: 'Sign-in failed', message };
    }
    try {
      await saveSignIn(this.o, this.provider, this.info!, this.fetchFn);
    } catch (err) {
      const message = `The tokens could not be saved to the keychain (${err instanceof Error ? err.message : String(err)}).`;
      this.finish('failed', { code: 'SAVE_FAILED', message });
      return { ok: false, title: 'Sign-in failed', message };
    }
    this.finish('signed-in');
    return {
      ok: true,
      title: 'Signed in',
      message: `Airlock is signed in to "${this.o.name}". You can close this tab.`,
    };
  }

  private authScope(): { scope?: string } {
    const scope = this.o.scope ?? this.o.hints?.scope;
    return scope ? { scope } : {};
  }

  private finish(
    status: 'signed-in' | 'failed' | 'cancelled',
    error?: { code: LoginErrorCode; message: string },
  ): void {
    if (this.status === 'signed-in' || this.status === 'failed' || this.status === 'cancelled')
      return;
    this.status = status;
    this.error = error && { ...error, message: this.redact(error.message) };
    clearTimeout(this.timer);
    this.listener?.close();
    if (error)
      this.o.logger?.info('remote sign-in ended', {
        server: this.o.name,
        status,
        code: error.code,
      });
    this.o.onUpdate?.(this);
    this.settle();
  }
}
