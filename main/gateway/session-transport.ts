import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isInitializeRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { answerAsJson, EventStream, FIRST_EVENT_WAIT_MS, type RequestId } from './event-stream.js';
import { jsonRpcError } from './guards.js';
import { isRequest, isResponse, OpenAsks, reusedId, type Message } from './session-messages.js';

/** Longest JSON-RPC batch taken in one POST (the SDK's transport allows the same). */
const MAX_BATCH = 100;

export interface SessionTransportOptions {
  newSessionId: () => string;
  onsessioninitialized: (id: string) => void;
  onsessionclosed: (id: string) => void;
  /** Test hook: the keep-alive comment's interval. */
  keepAliveMs?: number;
}

/**
 * The 2025-era Streamable HTTP transport of one session (MCP spec 2025-11-25, "Transports":
 * a POST's answer as one JSON object or an event stream, the GET stream, DELETE, Mcp-Session-Id,
 * MCP-Protocol-Version) on Node's own request and response (issue 20).
 *
 * It replaces the SDK's WebStandardStreamableHTTPServerTransport for sessions: same status codes
 * and messages, without a web Request, Response and ReadableStream per call and without a second
 * zod pass over messages the entry's classifyInboundRequest has already checked. It keeps no
 * event store, as Airlock configured none: a client that drops a POST's stream loses that
 * stream's messages (the call itself goes on; 2025-era cancellation is notifications/cancelled).
 * Stricter than the SDK's where it would hang or grow: a request id still open in the session is
 * refused, a cancelled request's stream ends, and a stream whose client stops reading is cut off
 * past MAX_QUEUED_BYTES (event-stream.ts).
 */
export class SessionTransport implements Transport {
  sessionId: string | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  private initialized = false;
  private closed = false;
  private versions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  /**
   * Which stream each open request answers on; a request whose stream is gone maps to null. A
   * lone call (postLone) maps to its bare response until something other than its answer must
   * go there or its head is due: only then is its EventStream made (escalate).
   */
  private readonly requests = new Map<RequestId, EventStream | ServerResponse | null>();
  /**
   * Lone calls with no EventStream yet, by id, with their held head's timer: a bare Timeout whose
   * callback is the one headDue of the transport (no closure per call). No clock is read: each
   * fires when EventStream.holdHead's would, fake timers included.
   */
  private readonly held = new Map<RequestId, NodeJS.Timeout>();
  private readonly asked = new OpenAsks();
  private standalone: EventStream | undefined;

  constructor(private readonly o: SessionTransportOptions) {}

  async start(): Promise<void> {}

  setSupportedProtocolVersions(versions: string[]): void {
    this.versions = versions;
  }

  /** In flight (budgets.ts never ends it): a client request unanswered (its stream may be gone), or ours. */
  busy(): boolean {
    return this.requests.size > 0 || this.asked.size > 0;
  }

  /** The client holds the GET stream open: it is there, listening for messages outside requests. */
  listening(): boolean {
    return this.standalone !== undefined;
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
        return this.refuse(res, 405, 'Method not allowed.', -32000, {
          allow: 'GET, POST, DELETE',
        });
    }
  }

  /**
   * A POST carrying one lone call (mcp-handlers/lone-call.ts, issue 34), decided by its caller
   * before anything ran: post()'s checks for it, in post()'s order, terms and status codes, and
   * its id registered (busy(), a reused id refused, notifications/cancelled) — but no EventStream
   * or close listener, its held head a bare Timeout: the everyday answer goes alone as one JSON write
   * (answerAsJson, as EventStream.endWithAnswer writes it). The full stream is made only when a
   * relayed request, log line or progress must go on this POST first, when FIRST_EVENT_WAIT_MS
   * passes without an answer (its headers then go out as the held head's timer sends them), or on
   * cancellation or close. True when the caller should run the call.
   */
  postLone(req: IncomingMessage, res: ServerResponse, id: RequestId): boolean {
    if (this.closed) {
      jsonRpcError(res, 404, -32001, 'Session not found');
      return false;
    }
    // The everyday request passes accepts' and checkSession's checks in place (issue 34: two
    // functions less per call): both media types accepted, this initialized session's own id, a
    // protocol version header (if any) it serves. Any other runs both, in order, which answer it.
    const { headers } = req;
    const accept = headers.accept;
    const version = headers['mcp-protocol-version'];
    const everyday =
      accept !== undefined &&
      accept.includes('application/json') &&
      accept.includes('text/event-stream') &&
      this.initialized &&
      !!this.sessionId &&
      headers['mcp-session-id'] === this.sessionId &&
      (typeof version !== 'string' || this.versions.includes(version));
    if (!everyday && (!this.accepts(req, res) || !this.checkSession(req, res))) return false;
    if (this.requests.has(id)) {
      this.refuseReused(res, id);
      return false;
    }
    // A client already gone is found so when something is sent (escalate), as post()'s gone().
    this.requests.set(id, res);
    this.held.set(id, setTimeout(this.headDue, FIRST_EVENT_WAIT_MS, id));
    return true;
  }

  private post(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo: AuthInfo) {
    if (!this.accepts(req, res)) return;
    if (Array.isArray(body) && body.length > MAX_BATCH)
      return this.refuse(
        res,
        400,
        `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`,
        -32600,
      );
    // The entry's classifyInboundRequest has checked every message's JSON-RPC shape.
    const messages = (Array.isArray(body) ? body : [body]) as Message[];
    // A well-formed initialize only (the SDK's check): a malformed one opens no session.
    const initializing = hasInitialize(messages);
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
    } else if (!this.checkSession(req, res)) return;
    const requests = messages.filter(isRequest);
    const reused = reusedId(requests, this.requests);
    if (reused !== undefined) return this.refuseReused(res, reused);
    if (initializing) {
      this.sessionId = this.o.newSessionId();
      this.initialized = true;
      this.o.onsessioninitialized(this.sessionId);
    }

    this.asked.received(messages);
    if (requests.length === 0) {
      this.deliver(messages, authInfo);
      this.dropCancelled(messages);
      res.writeHead(202).end();
      return;
    }
    const stream = new EventStream(res, this, this.o.keepAliveMs);
    // One request, not in a batch: a JSON-RPC batch is answered with an array (JSON-RPC 2.0 §6).
    stream.lone = !Array.isArray(body) && requests.length === 1;
    for (let i = 0; i < requests.length; i++) {
      const { id } = requests[i]!;
      stream.pending.add(id);
      this.requests.set(id, stream);
    }
    stream.holdHead();
    this.watch(stream);
    this.deliver(messages, authInfo);
    this.dropCancelled(messages);
  }

  /** Marks a stream's requests as gone when its client goes away. */
  private watch(stream: EventStream): void {
    const { res } = stream;
    const gone = () => {
      if (res.writableFinished) return;
      // The client went away: later messages for its requests have nowhere to go.
      stream.release();
      for (const id of stream.pending)
        if (this.requests.get(id) === stream) this.requests.set(id, null);
    };
    // `on`, not `once` (no wrapper per call): Node emits a response's 'close' once (emitCloseNT
    // checks _closed), and gone() may run twice anyway.
    res.on('close', gone);
    if (res.destroyed) gone();
  }

  /**
   * A lone call's full stream, made now (postLone): its one request pending on it and watched as
   * post() watches its streams. Null when its client has gone (the response destroyed: Node
   * sets that as it emits 'close' for a closed socket), as post()'s gone() would have marked it.
   */
  private escalate(id: RequestId, res: ServerResponse): EventStream | null {
    this.unhold(id);
    if (res.destroyed) {
      this.requests.set(id, null);
      return null;
    }
    // Not marked `lone`: whatever made it writes its head at once (openNow, write, end), so its
    // answer can never go as JSON (endWithAnswer's case).
    const stream = new EventStream(res, this, this.o.keepAliveMs);
    stream.pending.add(id);
    this.requests.set(id, stream);
    this.watch(stream);
    return stream;
  }

  /** A lone call's held head, no longer needed (answered, or its full stream made). */
  private unhold(id: RequestId): void {
    clearTimeout(this.held.get(id));
    this.held.delete(id);
  }

  /**
   * The held head's promise (event-stream.ts FIRST_EVENT_WAIT_MS) for a lone call still without
   * an answer: its headers go out now, as EventStream.holdHead's timer sends them, on the full
   * stream made for it.
   */
  private readonly headDue = (id: RequestId): void => {
    this.held.delete(id);
    const res = this.requests.get(id);
    if (res && !(res instanceof EventStream)) this.escalate(id, res)?.openNow();
  };

  /** Accept of a POST (the SDK's check); false once refused. */
  private accepts(req: IncomingMessage, res: ServerResponse): boolean {
    const accept = req.headers.accept ?? '';
    if (accept.includes('application/json') && accept.includes('text/event-stream')) return true;
    this.refuse(
      res,
      406,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
    );
    return false;
  }

  private refuseReused(res: ServerResponse, id: RequestId): void {
    this.refuse(
      res,
      400,
      `Invalid Request: request ID ${JSON.stringify(id)} is already in use in this session`,
      -32600,
    );
  }

  /** Hands a POST's messages to the SDK in order (a method, not a closure per POST: issue 34). */
  private deliver(messages: Message[], authInfo: AuthInfo): void {
    for (let i = 0; i < messages.length; i++)
      this.onmessage?.(messages[i] as unknown as JSONRPCMessage, { authInfo });
  }

  /**
   * MCP "Cancellation": no answer follows a cancelled request, so its stream ends now rather than
   * sending keep-alives until the client hangs up (the SDK's transport keeps it open).
   */
  private dropCancelled(messages: Message[]): void {
    // Indexed loops here and in post (issue 34: an iterator per loop on every POST).
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      if (m.method !== 'notifications/cancelled') continue;
      const id = (m.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id !== 'string' && typeof id !== 'number') continue;
      const open = this.requests.get(id);
      if (open === undefined) continue;
      // A lone call without its stream yet: the stream post() would have made ends the same way.
      const stream = open instanceof EventStream || !open ? open : this.escalate(id, open);
      this.requests.delete(id);
      if (!stream) continue;
      stream.pending.delete(id);
      if (stream.pending.size === 0) stream.end();
    }
  }

  private get(req: IncomingMessage, res: ServerResponse) {
    if (!(req.headers.accept ?? '').includes('text/event-stream'))
      return this.refuse(res, 406, 'Not Acceptable: Client must accept text/event-stream');
    if (!this.checkSession(req, res)) return;
    if (this.standalone)
      return this.refuse(res, 409, 'Conflict: Only one SSE stream is allowed per session');
    if (res.destroyed) return;
    const stream = new EventStream(res, this, this.o.keepAliveMs);
    this.standalone = stream;
    stream.openNow();
    res.once('close', () => {
      stream.release();
      if (this.standalone === stream) this.standalone = undefined;
    });
  }

  private delete(req: IncomingMessage, res: ServerResponse) {
    if (!this.checkSession(req, res)) return;
    try {
      this.o.onsessionclosed(this.sessionId!);
      res.writeHead(200).end();
    } finally {
      void this.close();
    }
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
    if (isResponse(m)) return this.respond(message);
    const id = options?.relatedRequestId;
    if (id === undefined) {
      // A request outside any of the client's requests can only go on the GET stream; without one
      // it would wait unanswered until its timeout, so it fails now, saying why.
      if (isRequest(m) && !this.standalone)
        throw new Error(
          `The client has no GET stream open on session ${this.sessionId}: a ${m.method} request outside its requests cannot reach it`,
        );
      this.asked.sent(m);
      this.standalone?.write(m);
      return;
    }
    const open = this.requests.get(id);
    if (open === undefined) throw new Error(`No connection established for request ID: ${id}`);
    const stream = open === null || open instanceof EventStream ? open : this.escalate(id, open);
    // A request for a client that went away from this call (no cancel) would wait unanswered
    // until its timeout: it fails now, saying why (an approved call's relay can be such a
    // waiting request, approvals/engine.ts). A notification for it is dropped, as before.
    if (stream === null && isRequest(m))
      throw new Error(
        `The client went away from request ${id}: a ${m.method} request on it cannot reach it`,
      );
    this.asked.sent(m);
    stream?.write(m);
  }

  /**
   * A response (`send`'s answer branch), in the caller's turn: what throws, throws here (send's
   * promise rejects with it). A 2025 lone call answers through it directly (lone-call.ts runLone;
   * issue 34: not send's promise and its message sorting per call).
   */
  respond(message: JSONRPCMessage): void {
    const m = message as unknown as Message;
    const id = m.id as RequestId | undefined;
    if (id === undefined)
      throw new Error(
        'Cannot send a response on a standalone SSE stream unless resuming a previous client request',
      );
    const open = this.requests.get(id);
    if (open === undefined) throw new Error(`No connection established for request ID: ${id}`);
    let stream: EventStream | null;
    if (open === null || open instanceof EventStream) stream = open;
    else if (!open.destroyed) {
      // A lone call's answer with nothing before it: one JSON write, as endWithAnswer's. Its held
      // head goes (unhold, in place: issue 34, one function less per call).
      this.requests.delete(id);
      clearTimeout(this.held.get(id));
      this.held.delete(id);
      return answerAsJson(open, this.sessionId, m);
    } else stream = this.escalate(id, open);
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
    if (stream.pending.size > 0) stream.write(m);
    // A lone request's answer may go as JSON; a batch's answers stay one event stream.
    else if (stream.lone) stream.endWithAnswer(m);
    else stream.end(m);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const open = new Set<EventStream>();
    for (const [id, s] of this.requests) {
      const stream = s instanceof EventStream || s === null ? s : this.escalate(id, s);
      if (stream) open.add(stream);
    }
    if (this.standalone) open.add(this.standalone);
    for (const s of open) s.end();
    this.requests.clear();
    this.asked.clear();
    this.standalone = undefined;
    this.onclose?.();
  }

  private refuse(
    res: ServerResponse,
    status: number,
    message: string,
    code = -32000,
    headers?: Record<string, string>,
  ): void {
    this.onerror?.(new Error(message));
    jsonRpcError(res, status, code, message, headers);
  }
}

/** A well-formed initialize among the messages (the SDK's check), without a closure per POST. */
function hasInitialize(messages: Message[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.method === 'initialize' && isInitializeRequest(m)) return true;
  }
  return false;
}
