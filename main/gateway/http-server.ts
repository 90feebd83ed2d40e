import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPEN_CODE_REDEEM_PATH } from '../../common/open-code.js';
import type { Logger } from '../platform/log.js';
import { http } from '../platform/node-http.js';
import type { ControlRoutes } from './control-routes.js';
import {
  BodyTooLargeError,
  bearerToken,
  hostAllowed,
  isJsonRpcShaped,
  jsonRpcError,
  originAllowed,
  parseJsonBody,
  readBody,
  sendJson,
} from './guards.js';
import { serveStatic } from './static-files.js';

/** What the gateway needs of /mcp (McpEndpoint, or main/gateway/lazy-mcp.ts loading it on first use). */
export interface McpHandler {
  /**
   * Answers one authenticated /mcp request on `res`: in this turn (undefined), or by the promise
   * it returns (issue 34: an everyday request costs no promise per layer).
   */
  handle(exchange: McpExchange): Promise<void> | void;
  close(): Promise<void>;
}

/** One authenticated /mcp request, its body read, checked and parsed (POST) by the gateway. */
export interface McpExchange {
  req: IncomingMessage;
  res: ServerResponse;
  agent: string;
  parsedBody: unknown;
  /** The body's bytes as read (POST). */
  raw: Buffer | undefined;
  /** The token's digest: sessions are bound to it, not to the agent's name (issue 17.8). */
  credential: string | undefined;
}

export interface GatewayOptions {
  mcp: McpHandler;
  control: ControlRoutes;
  /** `credential`: credentialOf(token) when the gateway has it, so the token is hashed once per request. */
  authenticateAgent: (token: string, credential?: string) => string | null;
  /** What identifies the token itself (a digest); MCP sessions are bound to it (issue 17.8). */
  credentialOf?: (token: string) => string;
  logger: Logger;
  version: string;
  maxBodyBytes: () => number;
  uiDir: string;
}

/**
 * The loopback HTTP server: `/mcp`, `/healthz`, the control API and the UI.
 * Bound to 127.0.0.1 only; every request passes the Host and Origin checks
 * first, whatever its path.
 */
export class Gateway {
  private server: HttpServer | null = null;

  constructor(private readonly o: GatewayOptions) {}

  async start(port: number): Promise<number> {
    const server = http.createServer((req, res) => {
      // route() is not async (issue 34: no promise for it per request); what it throws now and
      // what its promise rejects with are answered alike.
      let waits: Promise<void> | void;
      try {
        waits = this.route(req, res);
      } catch (err) {
        return this.failed(req, res, err);
      }
      waits?.catch((err: unknown) => this.failed(req, res, err));
    });
    server.on('clientError', (_err, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  /** Stops accepting, lets in-flight requests finish (bounded), then closes what remains. */
  async stop(graceMs = 3000): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    this.o.control.closeStreams();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Ends MCP sessions and their GET streams; their keep-alive sockets then go idle.
    await this.o.mcp.close();
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    await closed;
    clearTimeout(timer);
  }

  private failed(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    const error = err instanceof Error ? err.message : String(err);
    // A client that hangs up mid-request is its own business, not a failure (issue 27.8).
    if (clientWentAway(req, err)) {
      this.o.logger.debug('request ended: the client went away', { path: req.url, error });
      if (!res.destroyed) res.destroy();
      return;
    }
    this.o.logger.error('request failed', { path: req.url, error });
    if (!res.headersSent) sendJson(res, 500, { error: 'INTERNAL', message: 'Internal error' });
    else res.end();
  }

  private route(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
    if (!hostAllowed(req.headers.host)) {
      return sendJson(res, 403, {
        error: 'FORBIDDEN_HOST',
        message: 'Airlock only answers requests addressed to localhost, 127.0.0.1 or [::1].',
      });
    }
    // No Origin (a non-browser client, every agent) passes in place, as originAllowed passes it
    // (issue 34: one function less per request); a present one is always checked.
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin)) {
      return sendJson(res, 403, {
        error: 'FORBIDDEN_ORIGIN',
        message: "Requests from web pages other than Airlock's own are refused.",
      });
    }
    // The agents' everyday URL is its own path (pathOf('/mcp') is '/mcp'): no call for it.
    const path = req.url === '/mcp' ? '/mcp' : pathOf(req.url);
    if (path === '/mcp') return this.mcp(req, res);
    if (path === '/healthz')
      return sendJson(res, 200, { ok: true, name: 'airlock', version: this.o.version });
    if (path === OPEN_CODE_REDEEM_PATH) return this.o.control.redeemOpenCode(req, res);
    if (path === '/api/rpc' || path === '/api/events') {
      if (!this.o.control.authorize(req, res)) return;
      return path === '/api/rpc' ? this.o.control.rpc(req, res) : this.o.control.events(req, res);
    }
    if (req.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/.well-known/'))
      return this.uiFile(path, res);
    notFound(res, path);
  }

  private async uiFile(path: string, res: ServerResponse): Promise<void> {
    if (!(await serveStatic(this.o.uiDir, path, res))) notFound(res, path);
  }

  private async mcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = bearerToken(req);
    const credential = token ? this.o.credentialOf?.(token) : undefined;
    const agent = token ? this.o.authenticateAgent(token, credential) : null;
    if (!agent) {
      return jsonRpcError(
        res,
        401,
        -32001,
        token
          ? 'Invalid or revoked agent token.'
          : 'Missing bearer token: send "Authorization: Bearer <agent token>" (airlock agent add NAME).',
        {
          'www-authenticate': `Bearer realm="airlock", error="invalid_token"`,
        },
      );
    }
    let parsed: unknown;
    let raw: Buffer | undefined;
    if (req.method === 'POST') {
      const type = req.headers['content-type'] ?? '';
      // The everyday value first: it is one the pattern takes (issue 34: no regex run per call).
      if (type !== 'application/json' && !JSON_TYPE.test(type))
        return jsonRpcError(res, 415, -32000, 'Content-Type must be application/json');
      try {
        raw = await readBody(req, this.o.maxBodyBytes());
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          return jsonRpcError(
            res,
            413,
            -32600,
            `Request body exceeds ${this.o.maxBodyBytes()} bytes`,
            { connection: 'close' },
          );
        }
        throw err;
      }
      const body = parseJsonBody(raw);
      if (!body.ok) return jsonRpcError(res, 400, body.code, body.message);
      parsed = body.value;
      if (!isJsonRpcShaped(parsed))
        return jsonRpcError(
          res,
          400,
          -32600,
          'Invalid Request: the body is not a JSON-RPC 2.0 message',
        );
    }
    const waits = this.o.mcp.handle({
      req,
      res,
      agent,
      parsedBody: parsed,
      raw,
      credential,
    });
    if (waits) await waits;
  }
}

function notFound(res: ServerResponse, path: string): void {
  sendJson(res, 404, { error: 'NOT_FOUND', message: `Nothing at ${path}` });
}

const JSON_TYPE = /^application\/json\b/i;

/** The URL's path: what precedes its first '?' (as `split('?')[0]`, without the array per request). */
export function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Errors Node raises when the peer closed the connection under a request or its answer. */
const HANG_UP_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
]);

/** Did this request fail because its client hung up (`aborted`: its body was cut off)? */
function clientWentAway(req: IncomingMessage, err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && HANG_UP_CODES.has(code)) return true;
  return req.readableAborted || req.socket.destroyed;
}
