import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Grants } from './grants.js';
import { apiError, bearer, json } from './http.js';
import { authorize, consent, revoke, token, userinfo } from './oauth-routes.js';
import { RefreshHold } from './refresh-hold.js';

/** A route a Gmail/Calendar fake mounts on the same server; returns false when it does not handle the request. */
export type ExtraRoute = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => boolean | Promise<boolean>;

export interface FakeGoogleOptions {
  clientId?: string;
  clientSecret?: string;
  /** The account that "signs in" (default alice@example.com). */
  user?: string;
  accessTtlSeconds?: number;
}

/**
 * A fake of the Google endpoints Airlock calls (issue 5): OAuth authorize,
 * token, revoke, userinfo, plus Gmail's `users/me/profile`. Knobs make it
 * misbehave the ways Google does; records let tests check what was sent.
 * Loopback only; start it with `start()`, point Airlock at it with `env()`.
 */
export class FakeGoogle {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly grants = new Grants();
  accessTtlSeconds: number;

  // Knobs.
  /** 'auto': the authorization URL redirects at once; 'page': a consent page with Allow / Cancel buttons. */
  consent: 'auto' | 'page' = 'auto';
  user: string;
  /** 'auto' mode answers error=access_denied. */
  deny = false;
  /** Answer the code exchange without a refresh_token (as Google does when consent was not re-prompted). */
  omitRefreshToken = false;
  /** Grant fewer scopes than asked (granular consent). */
  grantScopes: ((asked: string[]) => string[]) | null = null;
  /** Every refresh_token grant answers this (e.g. 400 invalid_grant). */
  refreshFailure: { status: number; body: unknown } | null = null;
  /** Set by holdRefreshes(): refresh_token grants wait here until the test releases them. */
  refreshHold: RefreshHold | null = null;
  /** Queued answers for the next API calls (e.g. a 429 with Retry-After). */
  apiFailures: {
    status: number;
    statusText: string;
    message: string;
    reason: string;
    headers?: Record<string, string>;
  }[] = [];

  // Records.
  readonly authRequests: URLSearchParams[] = [];
  readonly tokenRequests: { grantType: string; form: URLSearchParams }[] = [];
  readonly revoked: string[] = [];
  refreshCount = 0;
  apiCalls = 0;

  private server: Server | null = null;
  private base = '';
  private readonly pending = new Map<string, URLSearchParams>();
  private readonly previouslyGranted = new Map<string, Set<string>>();
  private readonly extra: ExtraRoute[] = [];

  constructor(o: FakeGoogleOptions = {}) {
    this.clientId = o.clientId ?? 'fake-client-1234.apps.googleusercontent.com';
    this.clientSecret = o.clientSecret ?? `GOCSPX-${randomBytes(18).toString('base64url')}`;
    this.user = o.user ?? 'alice@example.com';
    this.accessTtlSeconds = o.accessTtlSeconds ?? 3599;
  }

  get url(): string {
    return this.base;
  }

  async start(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      this.route(req, res).catch((err: unknown) => {
        if (!res.headersSent)
          json(res, 500, { error: { code: 500, message: String(err), status: 'INTERNAL' } });
        else res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.base;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** Environment that points Airlock at this fake (docs/google.md, "Endpoints"). */
  env(): Record<string, string> {
    return {
      AIRLOCK_GOOGLE_AUTH_URL: `${this.base}/o/oauth2/v2/auth`,
      AIRLOCK_GOOGLE_TOKEN_URL: `${this.base}/token`,
      AIRLOCK_GOOGLE_REVOKE_URL: `${this.base}/revoke`,
      AIRLOCK_GOOGLE_USERINFO_URL: `${this.base}/v1/userinfo`,
      AIRLOCK_GOOGLE_API_ROOT: `${this.base}/`,
    };
  }

  /** The `client_secret_….json` Google Cloud Console downloads for a Desktop client. */
  clientFile(): string {
    return JSON.stringify({
      installed: {
        client_id: this.clientId,
        project_id: 'airlock-fake',
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: 'https://oauth2.googleapis.com/token',
        auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
        client_secret: this.clientSecret,
        redirect_uris: ['http://localhost'],
      },
    });
  }

  get lastAuthRequest(): URLSearchParams | undefined {
    return this.authRequests.at(-1);
  }

  /**
   * From now until `release()`, every refresh_token grant is counted and then held: the test
   * keeps a refresh in flight until it has seen what it waits for, with no clock involved.
   */
  holdRefreshes(): RefreshHold {
    const hold = new RefreshHold(() => {
      if (this.refreshHold === hold) this.refreshHold = null;
    });
    this.refreshHold = hold;
    return hold;
  }

  /** Mounts another fake API (Gmail, Calendar) on this server. */
  use(route: ExtraRoute): void {
    this.extra.push(route);
  }

  /** The live grant behind a request's bearer token, or null. */
  grantOf(req: IncomingMessage): { email: string; scopes: string[] } | null {
    const g = this.grants.check(bearer(req));
    return typeof g === 'string' ? null : { email: g.email, scopes: g.scopes };
  }

  // -- used by the OAuth routes --

  pendingConsent(p: URLSearchParams): string {
    const id = randomBytes(12).toString('base64url');
    this.pending.set(id, new URLSearchParams(p));
    return id;
  }

  takeConsent(id: string): URLSearchParams | undefined {
    const p = this.pending.get(id);
    this.pending.delete(id);
    return p;
  }

  /** Where the browser goes after the user decides: the app's redirect URI with code or error, and the state. */
  decide(p: URLSearchParams, decision: 'allow' | 'deny', email: string): string {
    const target = new URL(p.get('redirect_uri')!);
    const state = p.get('state');
    if (decision === 'deny') {
      target.searchParams.set('error', 'access_denied');
    } else {
      const asked = (p.get('scope') ?? '').split(/\s+/).filter(Boolean);
      const key = `${this.clientId}\n${email}`;
      const granted = new Set(this.grantScopes ? this.grantScopes(asked) : asked);
      // include_granted_scopes=true: the new grant also carries earlier ones (incremental auth).
      if (p.get('include_granted_scopes') === 'true')
        for (const s of this.previouslyGranted.get(key) ?? []) granted.add(s);
      this.previouslyGranted.set(key, granted);
      const scopes = [...granted];
      const code = this.grants.newCode({
        clientId: p.get('client_id')!,
        redirectUri: p.get('redirect_uri')!,
        ...(p.get('code_challenge')
          ? {
              challenge: p.get('code_challenge')!,
              challengeMethod: p.get('code_challenge_method') ?? 'plain',
            }
          : {}),
        scopes,
        email,
        offline: p.get('access_type') === 'offline',
        forceConsent: (p.get('prompt') ?? '').split(' ').includes('consent'),
      });
      target.searchParams.set('code', code);
      target.searchParams.set('scope', scopes.join(' '));
    }
    if (state !== null) target.searchParams.set('state', state);
    return target.href;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const path = url.pathname;
    if (req.method === 'GET' && path === '/o/oauth2/v2/auth') return authorize(this, url, res);
    if (req.method === 'POST' && path === '/o/oauth2/v2/consent') return consent(this, req, res);
    if (req.method === 'POST' && path === '/token') return token(this, req, res);
    if (req.method === 'POST' && path === '/revoke') return revoke(this, req, url, res);
    if (req.method === 'GET' && (path === '/v1/userinfo' || path === '/oauth2/v3/userinfo'))
      return userinfo(this, req, res);
    if (path.startsWith('/gmail/') || path.startsWith('/calendar/')) {
      this.apiCalls += 1;
      const failure = this.apiFailures.shift();
      if (failure)
        return apiError(
          res,
          failure.status,
          failure.statusText,
          failure.message,
          failure.reason,
          failure.headers,
        );
    }
    if (req.method === 'GET' && path === '/gmail/v1/users/me/profile')
      return this.gmailProfile(req, res);
    for (const r of this.extra) if (await r(req, res, url)) return;
    json(res, 404, {
      error: { code: 404, message: `No fake for ${req.method} ${path}`, status: 'NOT_FOUND' },
    });
  }

  /** GET gmail/v1/users/me/profile (developers.google.com/gmail/api/reference/rest/v1/users/getProfile). */
  private gmailProfile(req: IncomingMessage, res: ServerResponse): void {
    const g = this.grants.check(bearer(req));
    if (typeof g === 'string') {
      return apiError(
        res,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        'authError',
        {
          'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
        },
      );
    }
    if (!g.scopes.some((s) => s.startsWith('https://www.googleapis.com/auth/gmail.'))) {
      return apiError(
        res,
        403,
        'PERMISSION_DENIED',
        'Request had insufficient authentication scopes.',
        'insufficientPermissions',
      );
    }
    json(res, 200, { emailAddress: g.email, messagesTotal: 0, threadsTotal: 0, historyId: '1' });
  }
}
