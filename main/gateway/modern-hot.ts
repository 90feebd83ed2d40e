import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  isJsonContentType,
  PerRequestHTTPServerTransport,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type AuthInfo,
  type InboundClassificationOutcome,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
  type Server,
  type ServerContext,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { CallAbortController } from '../platform/abort-hooks.js';
import { EventStream, messageJson, type RequestId } from './event-stream.js';
import { directRequests } from './request-dispatch.js';
import { liftedEnvelope, liftSureEnvelope, withSureEnvelopes } from './modern-route.js';
import {
  Escalated,
  loneCall,
  loneResult,
  type LoneCall,
  type LoneEncoder,
  type LoneOutcome,
  type LoneSteps,
} from './mcp-handlers/modern-lone-call.js';
import { RenewingMap } from '../platform/renewing-map.js';

/** The 2026-07-28 revision this path serves (the SDK's only modern revision, 2.4.0). */
export const MODERN_REVISION = '2026-07-28';

/** The 2026-07-28 era has no session: its event streams carry no Mcp-Session-Id. */
const NO_SESSION = Object.freeze({ sessionId: undefined });
/** The methods an agent sends on every turn; anything else keeps the SDK's per-request handler. */
const HOT_METHODS = new Set(['tools/call', 'tools/list', 'ping']);

/**
 * A tool name whose Mcp-Name header can only be the name itself: no surrounding whitespace to
 * strip and no Base64 sentinel (`=?base64?…?=`) to decode (SEP-2243). Any other name, and any
 * header that is not exactly the name, goes to the SDK, which answers the mismatches.
 */
const PLAIN_NAME = /^[A-Za-z0-9_.:/-]{1,256}$/;

/**
 * The HTTP status the SDK's per-request transport gives a JSON-RPC error sent while the message
 * is being dispatched (its pre-handler ladder), or a -32021 at any time; 200 for the rest. The SDK
 * keeps this table internal (LADDER_ERROR_HTTP_STATUS); modern-hot.test.ts holds the two equal.
 */
const LADDER_STATUS: Record<number, number> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
  [-32020]: 400,
};

/**
 * Whether a 2026-07-28 request may take the hot path: a single request the SDK's
 * createMcpHandler would accept up to its factory call (JSON Content-Type, classified modern on
 * the served revision, the standard headers present and naming the same tool; the SDK's table of
 * required client capabilities is empty for these methods), with nothing unusual in it — no
 * task augmentation, no multi-round-trip retry (`requestState`, `inputResponses`). Everything
 * else, including each of the SDK's refusals, is left to the SDK.
 */
export function hotModernRequest(
  req: IncomingMessage,
  outcome: InboundClassificationOutcome,
): outcome is InboundClassificationOutcome & {
  kind: 'modern';
  messageKind: 'request';
  message: JSONRPCRequest;
} {
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request') return false;
  if (outcome.classification.revision !== MODERN_REVISION) return false;
  if (req.method !== 'POST') return false;
  // The everyday value first, which the SDK's isJsonContentType takes at its own first line.
  const type = req.headers['content-type'];
  if (type !== 'application/json' && !isJsonContentType(type)) return false;
  const { method, params } = outcome.message;
  if (!HOT_METHODS.has(method)) return false;
  if (typeof req.headers['mcp-protocol-version'] !== 'string') return false;
  if (req.headers['mcp-method'] !== method) return false;
  if (params && ('task' in params || 'requestState' in params || 'inputResponses' in params))
    return false;
  if (method !== 'tools/call') return req.headers['mcp-name'] === undefined;
  const name = params?.name;
  return typeof name === 'string' && PLAIN_NAME.test(name) && req.headers['mcp-name'] === name;
}

/** A JSON-RPC answer as the agent gets it: with its own request's id. */
type AgentAnswer = { jsonrpc: '2.0'; id: RequestId } & ({ result: unknown } | { error: unknown });

interface Exchange {
  id: RequestId;
  res: ServerResponse;
  /** Open while the message is delivered: an error sent then is the ladder's (see LADDER_STATUS). */
  dispatching: boolean;
  stream?: EventStream;
  /** Notifications held for the rest of this turn (see send). */
  held?: unknown[];
  /**
   * Aborts the call when the client goes away (2026-07-28 has no notifications/cancelled): the
   * controller the server's dispatch made for the request (see `server`), else this one's.
   */
  abort?: AbortController;
}

/**
 * One agent's 2026-07-28 hot requests, on one SDK `Server` for all of them (issue 34): the same
 * handlers, dispatch, request and result checks and result encoding as the per-request server
 * createMcpHandler builds, without a Server, a web Request, Response and ReadableStream per call.
 *
 * It extends the SDK's PerRequestHTTPServerTransport only so that `Server.connect` binds the
 * server to the classified modern revision, as the SDK does for its own per-request transport;
 * what it sends goes on Node's own response: JSON, or an event stream once a notification (a
 * progress update) precedes the answer — the SDK's `auto` response mode. Requests share the
 * server, so each gets its own JSON-RPC id inside (two agents' requests may both be id 1) and
 * its own id back in the answer. Client identity is per request on this era: handlers read the
 * client's capabilities from the request's envelope (clientView below), never from
 * the shared server.
 */
export class ModernHotTransport extends PerRequestHTTPServerTransport {
  // Renewed every 64 calls: a long-lived Map's rehashes pinned the calls in flight (issue 34,
  // renewing-map.ts).
  private readonly exchanges = new RenewingMap<number, Exchange>();
  private count = 0;
  /**
   * The connected server (set by `useServerSignals`), whose own per-request abort controllers
   * (Protocol's private `_requestHandlerAbortControllers`, keyed by the id this transport gives
   * each request) stand in for one of this transport's per call. `_onrequest` makes one for every
   * request it hands a handler, and its signal is the handler's `ctx.mcpReq.signal`; aborting it
   * is what Protocol does to each request when its transport closes — what the SDK's per-request
   * server gets when the client goes away. So a call needs no second controller (issue 34: one
   * AbortController and AbortSignal less per call). Read at each request: Protocol replaces the
   * map when it closes. Where there is none (an SDK without it), each exchange has its own.
   */
  private server?: { _requestHandlerAbortControllers?: unknown };
  /**
   * Hands requests over with their envelope already lifted (modern-route.ts liftSureEnvelope):
   * only for a server withSureEnvelopes has wrapped, which reads the lifted envelope.
   */
  liftsEnvelopes = false;
  /**
   * The lone path (mcp-handlers/modern-lone-call.ts): an everyday tools/call's steps and the
   * served codec's encoder. Unset: every hot request goes to the server.
   */
  private lone?: { steps: LoneSteps; encoder: LoneEncoder };
  /** Settled lone calls handed to the server (escalate), by the id this transport gave them. */
  private readonly presets = new Map<number, LoneOutcome>();

  constructor() {
    super({ classification: { era: 'modern', revision: MODERN_REVISION } });
  }

  override async start(): Promise<void> {}

  /** Requests taken and not yet answered nor abandoned by their client. */
  get inFlight(): number {
    return this.exchanges.size;
  }

  /** Call right after `server.connect(this)`: see `server`. */
  useServerSignals(server: Server): void {
    this.server = server as unknown as { _requestHandlerAbortControllers?: unknown };
  }

  /** Call after `useServerSignals`: everyday tools/calls take the lone path from then on. */
  useLoneCalls(steps: LoneSteps, encoder: LoneEncoder): void {
    this.lone = { steps, encoder };
  }

  /**
   * The outcome of an escalated lone call, taken once by the server's tools/call handler
   * (mcp-endpoint.ts) in place of running the call again: what the call's steps gave, as a
   * promise settled the same way. Undefined for every other request.
   */
  presetOf(internalId: RequestId): Promise<unknown> | undefined {
    const outcome = typeof internalId === 'number' ? this.presets.get(internalId) : undefined;
    if (!outcome) return undefined;
    this.presets.delete(internalId as number);
    return outcome.ok ? Promise.resolve(outcome.value) : Promise.reject(outcome.error);
  }

  private controllers(): Map<RequestId, AbortController> | undefined {
    const map = this.server?._requestHandlerAbortControllers;
    return map instanceof Map ? (map as Map<RequestId, AbortController>) : undefined;
  }

  /** The signal of the request behind a handler's context (by the id this transport gave it). */
  signalOf(internalId: RequestId): AbortSignal | undefined {
    return this.controllerOf(internalId)?.signal;
  }

  /**
   * The controller behind signalOf. Only the request's going away while it is open, and this
   * transport's or its server's close, abort it: once the request is answered its exchange is
   * gone (so its `close` does nothing) and Protocol drops the controller from its map. So a call
   * that outlives its request (an input round, input-rounds.ts `start`) may take it as its own.
   */
  controllerOf(internalId: RequestId): AbortController | undefined {
    return typeof internalId === 'number' ? this.exchanges.get(internalId)?.abort : undefined;
  }

  serve(
    message: JSONRPCRequest,
    classification: MessageClassification,
    res: ServerResponse,
    authInfo: AuthInfo,
  ): void {
    // Gone before it was dispatched: the SDK's transport runs nothing for it either.
    if (res.destroyed) return;
    const key = ++this.count;
    const lifted = this.liftsEnvelopes ? liftSureEnvelope(message) : undefined;
    // Decided before anything runs (modern-lone-call.ts): an everyday call runs its steps here.
    const lone =
      this.lone && lifted ? loneCall(message.method, lifted.params, lifted.envelope) : undefined;
    // A lone call's signal is its own controller's: no SDK dispatch makes one for it.
    // Its signal takes the remote call's cancel as a hook, not a listener (abort-hooks.ts).
    const own = lone || !this.controllers() ? new CallAbortController() : undefined;
    const ex: Exchange = { id: message.id, res, dispatching: !lone, abort: own };
    this.exchanges.set(key, ex);
    // `on`, not `once`: a response emits 'close' once (and the listener checks its exchange), so
    // once's wrapper, its state and its removal are work for nothing (issue 34: per 2026 call).
    res.on('close', () => {
      if (res.writableFinished || this.exchanges.get(key) !== ex) return;
      this.exchanges.delete(key);
      ex.stream?.release();
      // What the SDK's per-request server gets when its transport closes under a handler.
      ex.abort?.abort(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    });
    if (lone) return this.runLone(key, ex, lone, message, lifted, classification, authInfo);
    this.deliver(key, ex, message, lifted, classification, authInfo);
  }

  /** Hands a request to the server (Protocol._onrequest, request-dispatch.ts). */
  private deliver(
    key: number,
    ex: Exchange,
    message: JSONRPCRequest,
    lifted: ReturnType<typeof liftSureEnvelope>,
    classification: MessageClassification,
    authInfo: AuthInfo,
  ): void {
    ex.dispatching = true;
    const inner = lifted ? { ...message, id: key, params: lifted.params } : { ...message, id: key };
    try {
      liftedEnvelope(lifted?.envelope);
      this.onmessage?.(inner as JSONRPCMessage, { classification, authInfo });
    } finally {
      liftedEnvelope(undefined);
      ex.dispatching = false;
    }
    // None when the server answered in dispatch (its ladder's refusals run no handler). A request
    // still open whose controller the map does not hold (an SDK keying or keeping it otherwise)
    // gets its own, so that its client going away still aborts it.
    if (!ex.abort && this.exchanges.get(key) === ex)
      ex.abort = this.controllers()?.get(key) ?? new AbortController();
  }

  /**
   * An everyday tools/call (modern-lone-call.ts): its steps run now, and a plain result is
   * answered here, encoded as Protocol._onrequest encodes it. Anything else it settles with (an
   * error, input_required, a result the SDK's check must see) is escalated: the same request goes
   * to the server with the outcome preset, so the SDK answers it as it would have. Nothing is
   * answered once the request has gone (its controller aborted), as the SDK sends nothing then.
   */
  private runLone(
    key: number,
    ex: Exchange,
    call: LoneCall,
    message: JSONRPCRequest,
    lifted: ReturnType<typeof liftSureEnvelope>,
    classification: MessageClassification,
    authInfo: AuthInfo,
  ): void {
    const { steps, encoder } = this.lone!;
    const own = ex.abort!;
    // The steps' value, or (`failed`) their error. Called by the promise itself for a value
    // (issue 34: not a second function per call between the reaction and this one).
    const settled = (value: unknown, failed?: { error: unknown }) => {
      if (own.signal.aborted || this.exchanges.get(key) !== ex) return;
      const result = failed ? undefined : loneResult(value, encoder);
      // The answer is made once, with the agent's own id: no internal-id message to copy in
      // `respond`, and no preset to drop (one is set only on escalation, below). Issue 34: one
      // object and a spread less per 2026-07-28 call.
      if (result !== undefined) {
        this.exchanges.delete(key);
        return this.answer(ex, { result, jsonrpc: '2.0', id: ex.id });
      }
      // An Escalated value is preset as the steps' own (modern-lone-call.ts).
      this.presets.set(
        key,
        failed
          ? { ok: false, error: failed.error }
          : { ok: true, value: value instanceof Escalated ? value.value : value },
      );
      this.deliver(key, ex, message, lifted, classification, authInfo);
    };
    let running: Promise<unknown>;
    try {
      running = steps(call, own, key);
    } catch (error) {
      running = Promise.reject(error);
    }
    running
      .then(settled, (error: unknown) => settled(undefined, { error }))
      // As Protocol._onrequest reports an answer its transport could not send (through the
      // onerror it set on connect): never an unhandled rejection (review of h-in26).
      .catch((error: unknown) =>
        this.onerror?.(new Error(`Failed to send response: ${String(error)}`)),
      );
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // The SDK's own Protocol wrote it: a response has an id and a result or an error (no second
    // zod pass, as session-messages.ts).
    const response = 'id' in message && ('result' in message || 'error' in message);
    const key = response ? message.id : options?.relatedRequestId;
    const ex = typeof key === 'number' ? this.exchanges.get(key) : undefined;
    // Unrelated to a request (nothing outside requests on this era), or its client has gone.
    if (!ex) return;
    if (!response) {
      // Held to the end of this turn of the event loop, as web-bridge.ts holds a chunk: progress
      // and the answer right behind it leave in one write.
      if (!ex.held) {
        ex.held = [];
        setImmediate(() => this.flush(ex));
      }
      ex.held.push(message);
      return;
    }
    this.respond(key as number, ex, message);
  }

  /** A request's answer: JSON, or the end of its event stream. */
  private respond(key: number, ex: Exchange, message: JSONRPCMessage): void {
    this.exchanges.delete(key);
    this.presets.delete(key);
    this.answer(ex, { ...message, id: ex.id } as AgentAnswer);
  }

  /** An answer that already carries the agent's id, its exchange already taken out. */
  private answer(ex: Exchange, answer: AgentAnswer): void {
    // A notification went first: the answer is an event stream (the SDK's `auto` mode).
    if (ex.stream || ex.held) return this.streamOf(ex).end(answer, this.take(ex));
    const code = 'error' in answer ? (answer.error as { code: number }).code : undefined;
    const ladder =
      code !== undefined &&
      (ex.dispatching || code === (ProtocolErrorCode.MissingRequiredClientCapability as number))
        ? LADDER_STATUS[code]
        : undefined;
    // Never throws: an answer it cannot write becomes an error answer (event-stream.ts).
    const body = messageJson(answer);
    ex.res
      .writeHead(ladder ?? 200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  }

  private flush(ex: Exchange): void {
    if (ex.held && !ex.res.writableEnded) this.streamOf(ex).writeAll(this.take(ex));
  }

  private take(ex: Exchange): unknown[] {
    const held = ex.held ?? [];
    ex.held = undefined;
    return held;
  }

  private streamOf(ex: Exchange): EventStream {
    return (ex.stream ??= new EventStream(ex.res, NO_SESSION));
  }

  override async close(): Promise<void> {
    for (const ex of this.exchanges.values()) {
      ex.abort?.abort(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
      if (ex.stream || ex.held) this.streamOf(ex).end(undefined, this.take(ex));
      else ex.res.destroy();
    }
    this.exchanges.clear();
    this.presets.clear();
    this.onclose?.();
  }
}

/**
 * The client identity of one request on the shared hot server: what createMcpHandler seeds into
 * its per-request server from the request's envelope (the relay's capability checks read it).
 */
export function clientView(server: Server, ctx: ServerContext): Server {
  return clientViewOf(
    server,
    (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY],
  );
}

/** clientView for the client capabilities of a request's envelope. */
export function clientViewOf(server: Server, caps: unknown): Server {
  const view = Object.create(server) as Server;
  view.getClientCapabilities = () => caps as ReturnType<Server['getClientCapabilities']>;
  return view;
}

interface Agent {
  server: Server;
  transport: ModernHotTransport;
  ready: Promise<void>;
  /** `ready` has settled well: requests go straight to the transport. */
  connected: boolean;
}

/** One shared server per agent for its hot 2026-07-28 requests. */
export class ModernHotPath {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly build: (agent: string, transport: ModernHotTransport) => Server,
    private readonly onerror: (err: Error) => void,
    /** An agent's lone-call steps (modern-lone-call.ts); none: every call goes to its server. */
    private readonly loneSteps?: (agent: string, server: Server) => LoneSteps,
  ) {}

  /**
   * Served at once on a connected server: no promise to wait on per call (issue 34); only the
   * agent's first requests wait for its server to connect.
   */
  serve(
    agent: string,
    message: JSONRPCRequest,
    classification: MessageClassification,
    res: ServerResponse,
    authInfo: AuthInfo,
  ): Promise<void> | void {
    const entry = this.agents.get(agent) ?? this.open(agent);
    if (entry.connected) return entry.transport.serve(message, classification, res, authInfo);
    return entry.ready.then(() => entry.transport.serve(message, classification, res, authInfo));
  }

  private open(agent: string): Agent {
    const transport = new ModernHotTransport();
    // Its envelope check answers at once where the classification already proved it.
    const server = withSureEnvelopes(this.build(agent, transport));
    transport.liftsEnvelopes = true;
    server.onerror = this.onerror;
    const entry: Agent = { server, transport, ready: Promise.resolve(), connected: false };
    // Registered before connecting, so requests arriving together share one server.
    entry.ready = server.connect(transport).then(
      () => {
        directRequests(server, transport);
        transport.useServerSignals(server);
        const encoder = this.loneSteps && encoderOf(server);
        if (encoder) transport.useLoneCalls(this.loneSteps!(agent, server), encoder);
        entry.connected = true;
      },
      (err: unknown) => {
        // Not kept: the agent's next request builds afresh.
        if (this.agents.get(agent) === entry) this.agents.delete(agent);
        throw err;
      },
    );
    this.agents.set(agent, entry);
    return entry;
  }

  /** A revoked agent's next request builds afresh; requests in flight finish as on the SDK path. */
  forget(agent: string): void {
    this.agents.delete(agent);
  }

  async close(): Promise<void> {
    const all = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(all.map((e) => e.server.close().catch(() => {})));
  }
}

/**
 * The served codec's result encoder, as Protocol._onrequest calls it: `codec.encodeResult(method,
 * result, this._outboundServerInfo())`. Both are the SDK's private members (it exports neither
 * the codec nor the stamp); the codec is the server's own (withSureEnvelopes shadows only its
 * envelope check), read once the server is bound to the modern revision. Undefined where an SDK
 * has either otherwise, or another era's codec: then no call takes the lone path.
 */
function encoderOf(server: Server): LoneEncoder | undefined {
  const own = server as unknown as {
    _negotiatedWireCodec?: () => { era?: unknown; encodeResult?: LoneEncoder['encodeResult'] };
    _outboundServerInfo?: () => unknown;
  };
  if (typeof own._negotiatedWireCodec !== 'function') return undefined;
  if (typeof own._outboundServerInfo !== 'function') return undefined;
  const codec = own._negotiatedWireCodec();
  if (codec.era !== MODERN_REVISION || typeof codec.encodeResult !== 'function') return undefined;
  return {
    encodeResult: codec.encodeResult.bind(codec),
    serverInfo: own._outboundServerInfo(),
  };
}
