import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  bearerAuthChallengeResponse,
  OAuthError,
  Server,
  verifyBearerToken,
  type AuthInfo,
  type CallToolResult,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { Events, OAuth2Server } from 'oauth2-mock-server';

/**
 * An OAuth-protected MCP server for issue 10's tests, from real parts:
 * - authorization server: `oauth2-mock-server` (discovery, authorize with
 *   PKCE S256 checked, token, refresh), plus the two routes it lacks —
 *   dynamic client registration and an RFC 7009 revocation endpoint that
 *   records what it revokes;
 * - resource server: the SDK's `verifyBearerToken` / `bearerAuthChallengeResponse`
 *   (401 with `resource_metadata`, 403 `insufficient_scope`), RFC 9728
 *   metadata, and an SDK `Server` with 2025-era sessions.
 * Tokens are accepted only for this server's URL as resource (RFC 8707): a
 * client that leaves `resource` off a token request gets tokens the server refuses.
 */
export interface OAuthTool {
  name: string;
  annotations?: ToolAnnotations;
  /** tools/call needs this scope (403 insufficient_scope otherwise). */
  scope?: string;
  run?: (args: Record<string, unknown>, auth: AuthInfo) => CallToolResult;
}

interface Issued {
  scopes: string[];
  exp: number;
  resource?: string;
  refresh?: string;
  revoked: boolean;
}

export class OAuthUpstream {
  readonly as = new OAuth2Server(undefined, undefined, {
    endpoints: { revoke: '/builtin-revoke' },
  });
  url = '';
  prmUrl = '';
  issuer = '';
  readonly tokenRequests: Record<string, string>[] = [];
  readonly authorizeRequests: Record<string, string>[] = [];
  readonly registrations: { client_id: string; redirect_uris: string[] }[] = [];
  readonly revocations: { token: string; token_type_hint?: string }[] = [];
  readonly calls: { name: string; args: Record<string, unknown> }[] = [];
  /** Every request the resource server refused, by OAuth error code (invalid_token, insufficient_scope). */
  readonly refusals: string[] = [];
  /** Every token value the authorization server issued (for "no secret in files/output" checks). */
  readonly issued = new Set<string>();
  private readonly access = new Map<string, Issued>();
  private readonly refresh = new Map<string, { scopes: string[]; revoked: boolean }>();
  private readonly codes = new Map<string, string>();
  private nextTtl: number[] = [];
  private denyNext = false;
  private http: HttpServer | null = null;
  private readonly sessions = new Map<string, NodeStreamableHTTPServerTransport>();

  constructor(
    readonly tools: OAuthTool[],
    private readonly o: { scopesSupported?: string[]; ttlSeconds?: number } = {},
  ) {}

  async start(): Promise<void> {
    await this.as.issuer.keys.generate('RS256');
    this.wireAuthorizationServer();
    await this.as.start(0, '127.0.0.1');
    this.issuer = this.as.issuer.url!;
    this.http = createServer(
      (req, res) =>
        void this.handle(req, res).catch(() => !res.headersSent && res.writeHead(500).end()),
    );
    await new Promise<void>((resolve) => this.http!.listen(0, '127.0.0.1', resolve));
    const port = (this.http.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${port}/mcp`;
    this.prmUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
  }

  async stop(): Promise<void> {
    for (const t of this.sessions.values()) await t.close().catch(() => {});
    this.sessions.clear();
    this.http?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.http ? this.http.close(() => resolve()) : resolve(),
    );
    this.http = null;
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

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/.well-known/oauth-protected-resource/mcp') {
      return json(res, 200, {
        resource: this.url,
        authorization_servers: [this.issuer],
        ...(this.o.scopesSupported ? { scopes_supported: this.o.scopesSupported } : {}),
      });
    }
    if (path !== '/mcp') return json(res, 404, { error: 'not_found' });
    let body: unknown;
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    }
    let info: AuthInfo;
    try {
      info = await verifyBearerToken(req.headers.authorization, {
        verifier: { verifyAccessToken: (t) => this.verify(t) },
        resourceMetadataUrl: this.prmUrl,
        expectedResource: new URL(this.url),
      });
      const call = body as { method?: string; params?: { name?: string } } | undefined;
      const needed =
        call?.method === 'tools/call'
          ? this.tools.find((t) => t.name === call.params?.name)?.scope
          : undefined;
      if (needed && !info.scopes.includes(needed))
        throw Object.assign(new OAuthError('insufficient_scope', 'Insufficient scope'), { needed });
    } catch (err) {
      const needed = (err as { needed?: string }).needed;
      this.refusals.push(err instanceof OAuthError ? err.code : 'server_error');
      return send(
        res,
        bearerAuthChallengeResponse(err, {
          resourceMetadataUrl: this.prmUrl,
          ...(needed ? { requiredScopes: [needed] } : {}),
        }),
      );
    }
    const sid = req.headers['mcp-session-id'];
    const existing = typeof sid === 'string' ? this.sessions.get(sid) : undefined;
    if (typeof sid === 'string' && !existing)
      return json(res, 404, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32001, message: 'Session not found' },
      });
    if (existing) return existing.handleRequest(Object.assign(req, { auth: info }), res, body);
    if ((body as { method?: string } | undefined)?.method !== 'initialize')
      return json(res, 400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Bad Request: initialize first' },
      });
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, transport),
    });
    await this.buildServer().connect(transport);
    await transport.handleRequest(Object.assign(req, { auth: info }), res, body);
  }

  private async verify(token: string): Promise<AuthInfo> {
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

  private buildServer(): Server {
    const server = new Server(
      { name: 'oauth-upstream', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler('tools/list', async () => ({
      tools: this.tools.map((t) => ({
        name: t.name,
        description: `${t.name} tool`,
        inputSchema: { type: 'object' as const, properties: {} },
        ...(t.annotations ? { annotations: t.annotations } : {}),
      })),
    }));
    server.setRequestHandler('tools/call', async (req, ctx) => {
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      this.calls.push({ name: req.params.name, args });
      const tool = this.tools.find((t) => t.name === req.params.name);
      const auth = ctx.http?.authInfo as AuthInfo | undefined;
      if (!tool || !auth)
        return { isError: true, content: [{ type: 'text', text: `no tool ${req.params.name}` }] };
      return tool.run
        ? tool.run(args, auth)
        : {
            content: [
              { type: 'text', text: `${tool.name} ran with scopes [${auth.scopes.join(' ')}]` },
            ],
          };
    });
    return server;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function send(res: ServerResponse, r: Response): Promise<void> {
  res.writeHead(r.status, Object.fromEntries(r.headers.entries()));
  res.end(await r.text());
}
