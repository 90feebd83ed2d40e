import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { jsonRpcError } from './guards.js';

type RequestId = string | number;
type Message = Record<string, unknown>;

/** Longest JSON-RPC batch taken in one POST (the SDK's transport allows the same). */
const MAX_BATCH = 100;
/** A comment line on every open event stream this often, so proxies and clients keep it open. */
const KEEP_ALIVE_MS = 15_000;
/**
 * How long a POST's event stream may wait for its first event before its headers go out alone.
 * A tools/call answer is ready in a few ms: headers and answer then leave in one write (one
 * syscall, one wake-up of the client). A call waiting for approval still gets its headers
 * promptly, so the client sees its response start.
 */
const FIRST_EVENT_WAIT_MS = 25;

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** One open event stream: a POST's (its requests' messages) or the session's GET stream. */
interface Stream {
  res: ServerResponse;
  /** Requests on this stream still waiting for their answer (POST streams). */
  pending: Set<RequestId>;
  headTimer?: NodeJS.Timeout;
  keepAlive?: NodeJS.Timeout;
}

export interface SessionTransportOptions {
  newSessionId: () => string;
  onsessioninitialized: (id: string) => void;
  onsessionclosed: (id: string) => void;
  /** Test hook: the keep-alive comment's interval. */
  keepAliveMs?: number;
}

/**
 * The 2025-era Streamable HTTP transport of one session (MCP spec 2025-11-25, "Transports":
 * POST answers as an event stream, the GET stream, DELETE, Mcp-Session-Id,
 * MCP-Protocol-Version) on Node's own request and response (issue 20).
 *
 * It replaces the SDK's WebStandardStreamableHTTPServerTransport for sessions: same status codes
 * and messages, without a web Request, Response and ReadableStream per call and without a second
 * zod pass over messages the entry's classifyInboundRequest has already checked. It keeps no
 * event store, as Airlock configured none: a client that drops a POST's stream loses that
 * stream's messages (the call itself goes on; 2025-era cancellation is notifications/cancelled).
 */
export class SessionTransport implements Transport {
  sessionId: string | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  private initialized = false;
  private closed = false;
  private versions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  /** Which stream each open request answers on; a request whose stream is gone maps to null. */
  private readonly requests = new Map<RequestId, Stream | null>();
  private standalone: Stream | undefined;

  constructor(private readonly o: SessionTransportOptions) {}

  async start(): Promise<void> {}

  setSupportedProtocolVersions(versions: string[]): void {
    this.versions = versions;
  }

  /** An HTTP request for this session (or the POST that opens it). */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo: AuthInfo): void {
    if (this.closed) return jsonRpcError(res, 404, -32001, 'Session not found');
    switch (req.method) {
      case 'POST':
        return this.post(req, res, body, authInfo);
      case 'GET':
        return this.get(req, res);
      case 'DELETE':
        return this.delete(req, res);
      default:
        return jsonRpcError(res, 405, -32000, 'Method not allowed.', {
          allow: 'GET, POST, DELETE',
        });
    }
  }

  private post(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo: AuthInfo) {
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
      return this.refuse(
        res,
        406,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    if (Array.isArray(body) && body.length > MAX_BATCH)
      return this.refuse(
        res,
        400,
        `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`,
        -32600,
      );
    // The entry's classifyInboundRequest has checked every message's JSON-RPC shape.
    const messages = (Array.isArray(body) ? body : [body]) as Message[];
    const initializing = messages.some((m) => isRequest(m) && m.method === 'initialize');
    if (initializing) {
      if (this.initialized)
        return this.refuse(res, 400, 'Invalid Request: Server already initialized', -32600);
      if (messages.length > 1)
        return this.refuse(
          res,
          400,
          'Invalid Request: Only one initialization request is allowed',
          -32600,
        );
      this.sessionId = this.o.newSessionId();
      this.initialized = true;
      this.o.onsessioninitialized(this.sessionId);
    } else if (!this.checkSession(req, res)) return;

    const deliver = (m: Message) => this.onmessage?.(m as unknown as JSONRPCMessage, { authInfo });
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      for (const m of messages) deliver(m);
      res.writeHead(202).end();
      return;
    }
    const stream: Stream = { res, pending: new Set() };
    for (const m of requests) {
      stream.pending.add(m.id);
      this.requests.set(m.id, stream);
    }
    // Headers wait for the first event (see FIRST_EVENT_WAIT_MS).
    stream.headTimer = setTimeout(
      () => this.head(stream) && res.flushHeaders(),
      FIRST_EVENT_WAIT_MS,
    );
    res.once('close', () => {
      if (res.writableFinished) return;
      // The client went away: later messages for its requests have nowhere to go.
      this.release(stream);
      for (const id of stream.pending) this.requests.set(id, null);
    });
    for (const m of messages) deliver(m);
  }

  private get(req: IncomingMessage, res: ServerResponse) {
    if (!(req.headers.accept ?? '').includes('text/event-stream'))
      return this.refuse(res, 406, 'Not Acceptable: Client must accept text/event-stream');
    if (!this.checkSession(req, res)) return;
    if (this.standalone)
      return this.refuse(res, 409, 'Conflict: Only one SSE stream is allowed per session');
    const stream: Stream = { res, pending: new Set() };
    this.standalone = stream;
    this.head(stream);
    res.flushHeaders();
    res.once('close', () => {
      this.release(stream);
      if (this.standalone === stream) this.standalone = undefined;
    });
  }

  private delete(req: IncomingMessage, res: ServerResponse) {
    if (!this.checkSession(req, res)) return;
    this.o.onsessionclosed(this.sessionId!);
    res.writeHead(200).end();
    void this.close();
  }

  /** Mcp-Session-Id and MCP-Protocol-Version of a request after initialize; false once refused. */
  private checkSession(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.initialized) {
      this.refuse(res, 400, 'Bad Request: Server not initialized');
      return false;
    }
    const sid = req.headers['mcp-session-id'];
    if (!sid) {
      this.refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required');
      return false;
    }
    if (sid !== this.sessionId) {
      this.refuse(res, 404, 'Session not found', -32001);
      return false;
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !this.versions.includes(version)) {
      this.refuse(
        res,
        400,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${this.versions.join(', ')})`,
      );
      return false;
    }
    return true;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as unknown as Message;
    const response = isResponse(m);
    const id = response ? (m.id as RequestId) : options?.relatedRequestId;
    if (id === undefined) {
      if (response)
        throw new Error(
          'Cannot send a response on a standalone SSE stream unless resuming a previous client request',
        );
      if (this.standalone) this.write(this.standalone, m);
      return;
    }
    const stream = this.requests.get(id);
    if (stream === undefined) throw new Error(`No connection established for request ID: ${id}`);
    if (!response) {
      if (stream) this.write(stream, m);
      return;
    }
    this.requests.delete(id);
    if (!stream) {
      this.onerror?.(
        new Error(
          `Response for request ID ${id} is undeliverable: per-request stream is disconnected and no eventStore is configured`,
        ),
      );
      return;
    }
    stream.pending.delete(id);
    if (stream.pending.size > 0) return this.write(stream, m);
    // The stream's last answer: headers (if still held), event and end leave in one write.
    this.head(stream, false);
    this.release(stream);
    stream.res.end(event(m));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const open = new Set<Stream>([...this.requests.values()].filter((s) => s !== null));
    if (this.standalone) open.add(this.standalone);
    for (const s of open) {
      this.head(s, false);
      this.release(s);
      s.res.end();
    }
    this.requests.clear();
    this.standalone = undefined;
    this.onclose?.();
  }

  private write(stream: Stream, m: Message): void {
    if (stream.res.destroyed) return;
    this.head(stream);
    stream.res.write(event(m));
  }

  /**
   * Writes a stream's status line and headers (held by Node until the first body bytes), and
   * arms its keep-alive unless the stream is ending now.
   */
  private head(stream: Stream, staysOpen = true): boolean {
    const { res } = stream;
    if (res.headersSent || res.destroyed) return false;
    clearTimeout(stream.headTimer);
    res.writeHead(200, {
      ...SSE_HEADERS,
      ...(this.sessionId !== undefined ? { 'mcp-session-id': this.sessionId } : {}),
    });
    if (staysOpen)
      stream.keepAlive = setInterval(() => {
        if (!res.destroyed) res.write(': keepalive\n\n');
      }, this.o.keepAliveMs ?? KEEP_ALIVE_MS).unref();
    return true;
  }

  private release(stream: Stream): void {
    clearTimeout(stream.headTimer);
    clearInterval(stream.keepAlive);
  }

  private refuse(res: ServerResponse, status: number, message: string, code = -32000): void {
    this.onerror?.(new Error(message));
    jsonRpcError(res, status, code, message);
  }
}

function event(m: Message): string {
  return `event: message\ndata: ${JSON.stringify(m)}\n\n`;
}

const isRequest = (m: Message): m is Message & { id: RequestId; method: string } =>
  typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number');

/** Messages the SDK's own Protocol wrote: a response has an id and a result or an error. */
const isResponse = (m: Message): boolean =>
  m.method === undefined && m.id !== undefined && ('result' in m || 'error' in m);
