import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** What the gateway needs of /mcp (McpEndpoint, or main/app/lazy-mcp.ts loading it on first use). */
export interface McpHandler {
  handle(
    request: Request,
    agent: string,
    parsedBody: unknown,
    /** The token's digest: sessions are bound to it, not to the agent's name (issue 17.8). */
    credential?: string,
  ): Promise<Response>;
  close(): Promise<void>;
}

export interface GatewayOptions {
  mcp: McpHandler;
  control: ControlRoutes;
  authenticateAgent: (token: string) => string | null;
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
      this.route(req, res).catch((err: unknown) => {
        this.o.logger.error('request failed', {
          path: req.url,
          error: err instanceof Error ? err.message : String(err),
        });
        if (!res.headersSent) sendJson(res, 500, { error: 'INTERNAL', message: 'Internal error' });
        else res.end();
      });
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

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host)) {
      return sendJson(res, 403, {
        error: 'FORBIDDEN_HOST',
        message: 'Airlock only answers requests addressed to localhost, 127.0.0.1 or [::1].',
      });
    }
    if (!originAllowed(req.headers.origin)) {
      return sendJson(res, 403, {
        error: 'FORBIDDEN_ORIGIN',
        message: "Requests from web pages other than Airlock's own are refused.",
      });
    }
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/mcp') return this.mcp(req, res);
    if (path === '/healthz')
      return sendJson(res, 200, { ok: true, name: 'airlock', version: this.o.version });
    if (path === '/api/rpc' || path === '/api/events') {
      if (!this.o.control.authorize(req, res)) return;
      return path === '/api/rpc' ? this.o.control.rpc(req, res) : this.o.control.events(req, res);
    }
    if (
      req.method === 'GET' &&
      !path.startsWith('/api/') &&
      !path.startsWith('/.well-known/') &&
      (await serveStatic(this.o.uiDir, path, res))
    )
      return;
    sendJson(res, 404, { error: 'NOT_FOUND', message: `Nothing at ${path}` });
  }

  private async mcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = bearerToken(req);
    const agent = token ? this.o.authenticateAgent(token) : null;
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
      if (!/^application\/json\b/i.test(type))
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
    // Cancels the call when the client goes away before its answer is complete. A response that
    // finished normally also closes; aborting then would only cost a DOMException and its listeners
    // on every call (issue 20).
    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const response = await this.o.mcp.handle(
      // The body is already parsed and goes to the SDK as `parsedBody`; the web Request need not
      // carry it a second time (undici's body extraction was ≈ 1% of a passthrough call, issue 20).
      webRequest(req, parsed === undefined ? raw : undefined, abort.signal),
      agent,
      parsed,
      token ? this.o.credentialOf?.(token) : undefined,
    );
    await writeResponse(response, res);
  }
}

/**
 * The web-standard Request the SDK's transports take. Built here rather than with
 * @modelcontextprotocol/node's toWebRequest, which re-serializes the parsed body (JSON.stringify
 * and a byte count on every call) and whose package pulls Hono in at start (≈9 MB of idle RSS):
 * the bytes already read are the body, unchanged.
 */
function webRequest(req: IncomingMessage, raw: Buffer | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'transfer-encoding') continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  if (raw) headers.set('content-length', String(raw.length));
  const method = req.method ?? 'GET';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    signal,
    ...(raw && method !== 'GET' && method !== 'HEAD' ? { body: raw } : {}),
  });
}

/**
 * How long an event stream may wait for its first event before its headers go out alone. A
 * tools/call answer is ready in a few ms: headers and event then leave in one write (one syscall,
 * one wake-up of the client) instead of two. An idle stream (the 2025-era GET stream, a call
 * waiting for approval) still gets its headers promptly, so the client sees its response start.
 */
const FIRST_EVENT_WAIT_MS = 25;
const LATER = Symbol('later');
type Read = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  // Node holds the headers until the first body write and sends both together.
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.once('close', cancel);
  let ended = false;
  try {
    let next = reader.read();
    if (headers['content-type']?.startsWith('text/event-stream')) {
      const first = await settledWithin(next, afterMs(FIRST_EVENT_WAIT_MS));
      if (first === LATER) res.flushHeaders();
    }
    // A chunk is held until the next read settles or the event loop turns: when the stream closes
    // right behind its last event (a POST's answer), res.end(chunk) sends both in one write.
    let held: Uint8Array | undefined;
    for (;;) {
      const r = held ? await settledWithin(next, nextTurn) : await next;
      if (r === LATER || !r.done) {
        if (held && !res.write(held))
          await new Promise<void>((f) => res.once('drain', f).once('close', f));
        held = undefined;
        if (res.destroyed) break;
        if (r === LATER) continue;
        held = r.value;
        next = reader.read();
        continue;
      }
      ended = true;
      res.end(held);
      break;
    }
  } catch {
    // The client went away mid-stream; nothing to answer.
  } finally {
    res.off('close', cancel);
    if (!ended) {
      // Left early (client gone, or the stream failed): release the stream's source too.
      cancel();
      res.end();
    }
  }
}

/** `read`'s result if it settles before `arm`'s timer fires, else LATER (`read` keeps going). */
function settledWithin(
  read: Promise<Read>,
  arm: (fire: () => void) => () => void,
): Promise<Read | typeof LATER> {
  return new Promise((resolve, reject) => {
    const disarm = arm(() => resolve(LATER));
    read.then(
      (r) => {
        disarm();
        resolve(r);
      },
      (err: unknown) => {
        disarm();
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

const afterMs =
  (ms: number) =>
  (fire: () => void): (() => void) => {
    const t = setTimeout(fire, ms);
    return () => clearTimeout(t);
  };

const nextTurn = (fire: () => void): (() => void) => {
  const i = setImmediate(fire);
  return () => clearImmediate(i);
};
