import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OAuthError, type AuthInfo } from '@modelcontextprotocol/server';
import { Events, OAuth2Server } from 'oauth2-mock-server';

interface Issued {
  scopes: string[];
  exp: number;
  resource?: string;
  refresh?: string;
  revoked: boolean;
}

/**
 * The authorization server of OAuthUpstream (oauth-upstream.ts): `oauth2-mock-server`
 * (discovery, authorize with PKCE S256 checked, token, refresh), plus the two routes it lacks —
 * dynamic client registration and an RFC 7009 revocation endpoint that records what it revokes.
 * It keeps what it issued, so the resource server can verify a token (verify) and a test can
 * expire, deny or revoke.
 */
export class MockAuthorizationServer {
  readonly as = new OAuth2Server(undefined, undefined, {
    endpoints: { revoke: '/builtin-revoke' },
  });
  issuer = '';
  readonly tokenRequests: Record<string, string>[] = [];
  readonly authorizeRequests: Record<string, string>[] = [];
  readonly registrations: { client_id: string; redirect_uris: string[] }[] = [];
  readonly revocations: { token: string; token_type_hint?: string }[] = [];
  /** Every token value issued (for "no secret in files/output" checks). */
  readonly issued = new Set<string>();
  private readonly access = new Map<string, Issued>();
  private readonly refresh = new Map<string, { scopes: string[]; revoked: boolean }>();
  private readonly codes = new Map<string, string>();
  private nextTtl: number[] = [];
  private denyNext = false;

  constructor(private readonly o: { scopesSupported?: string[]; ttlSeconds?: number }) {}

  async start(): Promise<void> {
    await this.as.issuer.keys.generate('RS256');
    this.wireAuthorizationServer();
    await this.as.start(0, '127.0.0.1');
    this.issuer = this.as.issuer.url!;
  }

  async stop(): Promise<void> {
    if (this.as.listening) await this.as.stop();
  }

  /** The next access token(s) live this many seconds. */
  expireNextIn(...seconds: number[]): void {
    this.nextTtl.push(...seconds);
  }

  /** The next authorization is refused (error=access_denied). */
  denyNextAuthorization(): void {
    this.denyNext = true;
  }

  /** The user revoked Airlock's access at the provider: every token stops working. */
  revokeEverything(): void {
    for (const t of this.access.values()) t.revoked = true;
    for (const r of this.refresh.values()) r.revoked = true;
  }

  refreshRequests(): Record<string, string>[] {
    return this.tokenRequests.filter((r) => r.grant_type === 'refresh_token');
  }

  async verify(token: string): Promise<AuthInfo> {
    const t = this.access.get(token);
    if (!t || t.revoked)
      throw new OAuthError('invalid_token', t ? 'Token revoked' : 'Unknown token');
    return {
      token,
      clientId: 'airlock',
      scopes: t.scopes,
      expiresAt: t.exp,
      ...(t.resource ? { resource: new URL(t.resource) } : {}),
    };
  }

  private wireAuthorizationServer(): void {
    const svc = this.as.service;
    svc.on(Events.BeforeWellKnownOpenIdConfiguration, (cfg: { body: Record<string, unknown> }) => {
      Object.assign(cfg.body, {
        registration_endpoint: `${this.issuer}/register`,
        revocation_endpoint: `${this.issuer}/revoke`,
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['none'],
        code_challenge_methods_supported: ['S256'],
        ...(this.o.scopesSupported ? { scopes_supported: this.o.scopesSupported } : {}),
      });
    });
    // Two tokens signed in the same second would otherwise be the same string.
    svc.on(
      Events.BeforeTokenSigning,
      (token: { payload: Record<string, unknown> }) => void (token.payload.jti = randomUUID()),
    );
    svc.on(
      Events.BeforeAuthorizeRedirect,
      (redirect: { url: URL }, req: IncomingMessage & { query?: Record<string, string> }) => {
        const q = { ...(req.query ?? {}) };
        this.authorizeRequests.push(q);
        const code = redirect.url.searchParams.get('code');
        if (this.denyNext) {
          this.denyNext = false;
          redirect.url.searchParams.delete('code');
          redirect.url.searchParams.set('error', 'access_denied');
        } else if (code) this.codes.set(code, q.scope ?? '');
      },
    );
    svc.on(
      Events.BeforeResponse,
      (
        response: { body: Record<string, unknown>; statusCode: number },
        req: IncomingMessage & { body?: Record<string, string> },
      ) => {
        const body = { ...(req.body ?? {}) };
        this.tokenRequests.push(body);
        if (response.statusCode !== 200) return;
        let scopes: string[];
        if (body.grant_type === 'refresh_token') {
          const grant = this.refresh.get(body.refresh_token ?? '');
          if (!grant || grant.revoked) {
            response.statusCode = 400;
            response.body = {
              error: 'invalid_grant',
              error_description: 'refresh token revoked or unknown',
            };
            return;
          }
          grant.revoked = true; // rotation: each refresh token works once
          scopes = grant.scopes;
        } else {
          scopes = (this.codes.get(body.code ?? '') ?? '').split(' ').filter(Boolean);
        }
        const ttl = this.nextTtl.shift() ?? this.o.ttlSeconds ?? 3600;
        const access = String(response.body.access_token);
        const refresh = String(response.body.refresh_token ?? randomUUID());
        response.body.expires_in = ttl;
        response.body.refresh_token = refresh;
        if (scopes.length) response.body.scope = scopes.join(' ');
        else delete response.body.scope;
        delete response.body.id_token;
        this.access.set(access, {
          scopes,
          exp: Date.now() / 1000 + ttl,
          ...(body.resource ? { resource: body.resource } : {}),
          refresh,
          revoked: false,
        });
        this.refresh.set(refresh, { scopes, revoked: false });
        this.issued.add(access).add(refresh);
      },
    );
    svc.addRoute('POST', '/register', (req, res) => {
      const meta = (req.body ?? {}) as Record<string, unknown>;
      const client = {
        client_id: `client-${this.registrations.length + 1}`,
        redirect_uris: (meta.redirect_uris as string[]) ?? [],
      };
      this.registrations.push(client);
      json(res, 201, {
        ...meta,
        ...client,
        client_id_issued_at: Math.floor(Date.now() / 1000),
        token_endpoint_auth_method: 'none',
      });
    });
    svc.addRoute('POST', '/revoke', (req, res) => {
      const form = (req.body ?? {}) as Record<string, string>;
      const token = form.token ?? '';
      this.revocations.push({
        token,
        ...(form.token_type_hint ? { token_type_hint: form.token_type_hint } : {}),
      });
      const a = this.access.get(token);
      if (a) a.revoked = true;
      const r = this.refresh.get(token);
      if (r) {
        r.revoked = true;
        for (const t of this.access.values()) if (t.refresh === token) t.revoked = true;
      }
      res.writeHead(200).end();
    });
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
