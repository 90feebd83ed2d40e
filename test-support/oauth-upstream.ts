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
import { json, MockAuthorizationServer } from './oauth-authorization-server.js';

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

export class OAuthUpstream {
  /** The authorization server (oauth-authorization-server.ts). */
  readonly auth: MockAuthorizationServer;
  url = '';
  prmUrl = '';
  readonly tokenRequests: Record<string, string>[];
  readonly authorizeRequests: Record<string, string>[];
  readonly registrations: { client_id: string; redirect_uris: string[] }[];
  readonly revocations: { token: string; token_type_hint?: string }[];
  readonly calls: { name: string; args: Record<string, unknown> }[] = [];
  /** The request target (path and query) of every request the resource server got. */
  readonly requested: string[] = [];
  /** Every request the resource server refused, by OAuth error code (invalid_token, insufficient_scope). */
  readonly refusals: string[] = [];
  /** Every token value the authorization server issued (for "no secret in files/output" checks). */
  readonly issued: Set<string>;
  private http: HttpServer | null = null;
  private readonly sessions = new Map<string, NodeStreamableHTTPServerTransport>();

  constructor(
    readonly tools: OAuthTool[],
    private readonly o: {
      scopesSupported?: string[];
      ttlSeconds?: number;
      /** The MCP endpoint's path (`/mcp` by default), e.g. a per-user path holding a token. */
      path?: string;
      /** The `resource` its metadata names (RFC 9728 §2); its own URL by default. */
      resource?: string;
    } = {},
  ) {
    this.auth = new MockAuthorizationServer(o);
    this.tokenRequests = this.auth.tokenRequests;
    this.authorizeRequests = this.auth.authorizeRequests;
    this.registrations = this.auth.registrations;
    this.revocations = this.auth.revocations;
    this.issued = this.auth.issued;
  }

  get issuer(): string {
    return this.auth.issuer;
  }

  async start(): Promise<void> {
    await this.auth.start();
    this.http = createServer(
      (req, res) =>
        void this.handle(req, res).catch(() => !res.headersSent && res.writeHead(500).end()),
    );
    await new Promise<void>((resolve) => this.http!.listen(0, '127.0.0.1', resolve));
    const port = (this.http.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${port}${this.path}`;
    this.prmUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource${this.path}`;
  }

  async stop(): Promise<void> {
    for (const t of this.sessions.values()) await t.close().catch(() => {});
    this.sessions.clear();
    this.http?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.http ? this.http.close(() => resolve()) : resolve(),
    );
    this.http = null;
    await this.auth.stop();
  }

  /** The next access token(s) live this many seconds. */
  expireNextIn(...seconds: number[]): void {
    this.auth.expireNextIn(...seconds);
  }

  /** The next authorization is refused (error=access_denied). */
  denyNextAuthorization(): void {
    this.auth.denyNextAuthorization();
  }

  /** The user revoked Airlock's access at the provider: every token stops working. */
  revokeEverything(): void {
    this.auth.revokeEverything();
  }

  refreshRequests(): Record<string, string>[] {
    return this.auth.refreshRequests();
  }

  private get path(): string {
    return this.o.path ?? '/mcp';
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requested.push(req.url ?? '');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === `/.well-known/oauth-protected-resource${this.path}`) {
      return json(res, 200, {
        resource: this.o.resource ?? this.url,
        authorization_servers: [this.issuer],
        ...(this.o.scopesSupported ? { scopes_supported: this.o.scopesSupported } : {}),
      });
    }
    if (path !== this.path) return json(res, 404, { error: 'not_found' });
    let body: unknown;
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    }
    let info: AuthInfo;
    try {
      info = await verifyBearerToken(req.headers.authorization, {
        verifier: { verifyAccessToken: (t) => this.auth.verify(t) },
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

async function send(res: ServerResponse, r: Response): Promise<void> {
  res.writeHead(r.status, Object.fromEntries(r.headers.entries()));
  res.end(await r.text());
}
