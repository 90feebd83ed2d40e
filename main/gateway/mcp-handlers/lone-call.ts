import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { CallAbortController } from '../../platform/abort-hooks.js';
import type { RequestId } from '../event-stream.js';
import { requestShaped } from '../session-route.js';
import { cancelled } from './answerable-server.js';
import { supportsUrlElicitation } from './approval-url.js';
import type { PlainCall } from './call-server.js';
import { TaskServer } from './tasks.js';
import { parsedToolCall, plainToolCall, plainToolResult } from './tool-call-shapes.js';

/**
 * A 2025 session's lone call (issue 34, wave 3 session 16): a POST carrying one plain tools/call
 * runs tools.ts's own steps for it (`plainCall`: the relay, the pipeline, the URL-required error)
 * straight from the session's transport, without the SDK Server's dispatch (`_onrequest`: the
 * lift, the era and envelope checks, the context and its buildContext copy, a chain of six
 * promises), the tools/call wrapper (call-server.ts), `_invokeInputRequiredCapableHandler`,
 * tools.ts's task and progress branches, and — for a client without URL elicitation —
 * approval-url.ts's per-call choice (a client with it runs that choice: `urlCall`). What it keeps,
 * in `_onrequest`'s order and terms (SDK 2.4.0, `Protocol._onrequest` in
 * @modelcontextprotocol/server/dist/src-*.mjs):
 * - an AbortController per call, aborted by the session's `notifications/cancelled` for its id
 *   (through the SDK's own handler and parse of that notification) and, with the SDK's
 *   ConnectionClosed error, when the session closes (`Protocol._onclose`);
 * - the handler's context members tools.ts's 2025 steps read: the session id, the request's id
 *   and signal, `send` and `notify` carrying the id as `relatedRequestId` (the same public
 *   `request` / `notification` funnels the SDK's context uses), quiet once the call is cancelled
 *   as AnswerableServer makes the SDK's (answerable-server.ts `buildContext`);
 * - the result finished as the tools/call wrapper finishes it (PlainCallServer.finishedCall: an
 *   input-required one through the SDK's legacy shim, anything but a plain one through the SDK's
 *   CallToolResult check);
 * - nothing sent once the call's signal is aborted; an error (thrown or rejected, by the steps
 *   or the result's finishing, as `_onrequest`'s promise catches both) mapped as it maps it:
 *   `code` if a safe integer else -32603, through the 2025 codec's `encodeErrorCode` (-32002 →
 *   -32602), `message` or "Internal error", `data` if any (a rejection with null or undefined,
 *   which `_onrequest` cannot answer, as an Internal error: call-server.ts `answerable`); a
 *   failed send to `onerror`.
 * The transport side (post()'s checks, the id's registration, the held head, the answer as one
 * JSON write, the full event stream only once something else must go first) is
 * SessionTransport.postLone (session-transport.ts). lone-call.property.test.ts holds a session with the lone path
 * to one without, over generated scenarios.
 */
export class LoneCallServer extends TaskServer {
  /** Lone calls in flight by request id (the SDK keeps its handlers' the same way). */
  private readonly loneCalls = new Map<RequestId, AbortController>();

  /**
   * The SDK's Protocol constructor registers its `notifications/cancelled` handler through this
   * method; a lone call's controller is aborted beside the SDK's own, after the same parse.
   */
  override setNotificationHandler(...args: unknown[]): void {
    const last = args.length - 1;
    if (args[0] === 'notifications/cancelled' && typeof args[last] === 'function') {
      const sdk = args[last] as (n: CancelledLike, ...rest: unknown[]) => unknown;
      args[last] = (n: CancelledLike, ...rest: unknown[]) => {
        const id = n.params?.requestId;
        // `this.loneCalls` is not set yet while the SDK's constructor registers this handler.
        if (id !== undefined) this.loneCalls?.get(id)?.abort(n.params?.reason);
        return sdk(n, ...rest);
      };
    }
    (super.setNotificationHandler as (...a: unknown[]) => void)(...args);
  }

  /** `Protocol._onclose` aborts its handlers' controllers with ConnectionClosed; lone calls too. */
  protected override _onclose(): void {
    const open = [...this.loneCalls.values()];
    this.loneCalls.clear();
    try {
      super._onclose();
    } finally {
      const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
      for (const controller of open) controller.abort(error);
    }
  }

  /**
   * The call a POST body is, when it may take the lone path: one plain tools/call (no task, no
   * progress token, no 2026-07-28 envelope key the SDK would lift, arguments the SDK's parse
   * gives back as they are), on a session bound to a 2025 revision, with tools.ts's own handler
   * registered. Its steps are tools.ts's plainCall, or — for a client that declared URL
   * elicitation — urlCall, approval-url.ts's per-call choice around them (noWait on the first
   * try; a "waiting for approval" answer becomes input_required, which finishedCall hands to the
   * SDK's legacy shim as the tools/call wrapper does), where this server's wrapper hands such a
   * result to the SDK's step (finishesInputRequired). Undefined for anything else.
   */
  loneCallOf(body: unknown): LoneCall | undefined {
    let steps = this.plainCall;
    if (!steps || !requestShaped(body) || !plainToolCall(body)) return undefined;
    const meta = body.params?.['_meta'] as Record<string, unknown> | undefined;
    if (meta !== undefined && ENVELOPE_OR_PROGRESS.some((key) => key in meta)) return undefined;
    const kind = this.loneKind ?? this.decideLoneKind();
    if (kind === undefined || kind === 'none') return undefined;
    if (kind === 'url') {
      steps = this.finishesInputRequired() ? this.urlCall : undefined;
      if (!steps) return undefined;
    }
    const parsed = parsedToolCall(body);
    return parsed && { request: body, params: parsed.params, steps };
  }

  /**
   * Which steps this session's lone calls take, decided once initialize has run (issue 34: not
   * the negotiated version and the client's capabilities read again on every call): 'none' where
   * the negotiated revision is not a 2025 one, 'url' for a client that declared URL elicitation,
   * else 'plain'. Both are the session's, set by its initialize alone (a second one is refused,
   * session-transport.ts; should one reach the SDK's handler, it starts over: `_wrapHandler`
   * below). Undefined, and not kept, before initialize.
   */
  private loneKind?: 'none' | 'url' | 'plain';

  private decideLoneKind(): 'none' | 'url' | 'plain' | undefined {
    const version = this.getNegotiatedProtocolVersion();
    if (version === undefined) return undefined;
    return (this.loneKind =
      version >= FIRST_MODERN
        ? 'none'
        : supportsUrlElicitation(this, NO_ENVELOPE)
          ? 'url'
          : 'plain');
  }

  /** The SDK's initialize handler sets the version and capabilities loneKind was read from. */
  protected override _wrapHandler(
    method: string,
    handler: Parameters<TaskServer['_wrapHandler']>[1],
  ): ReturnType<TaskServer['_wrapHandler']> {
    if (method !== 'initialize') return super._wrapHandler(method, handler);
    return super._wrapHandler(method, (request, ctx) => {
      this.loneKind = undefined;
      return handler(request, ctx);
    });
  }

  /**
   * Runs a lone call whose request the transport has registered (SessionTransport.postLone)
   * and sends its answer there, as `_onrequest` would.
   */
  runLone(call: LoneCall, transport: LoneTransport): void {
    const { request } = call;
    const id = request.id;
    // Its signal takes the remote call's cancel as a hook, not a listener (abort-hooks.ts).
    const controller = new CallAbortController();
    this.loneCalls.set(id, controller);
    const { signal } = controller;
    const ctx = {
      sessionId: transport.sessionId,
      mcpReq: {
        id,
        method: 'tools/call',
        _meta: call.params['_meta'],
        signal,
        requestState: noState,
        // Quiet once the call is cancelled, as AnswerableServer.buildContext makes the SDK's: the
        // id may be reused by a new call, whose stream would get this call's late lines.
        send: (r: { method: string; params?: unknown }, options?: object) =>
          signal.aborted
            ? Promise.reject(cancelled(id, r))
            : this.request(r as never, { ...options, relatedRequestId: id }),
        notify: (n: { method: string; params?: unknown }) =>
          signal.aborted
            ? Promise.resolve()
            : this.notification(n as never, { relatedRequestId: id }),
      },
    } as unknown as ServerContext;
    const { steps } = call;
    // Once the call settles its controller goes (the SDK drops it after the send, which is
    // synchronous here: nothing can arrive in between); true when it was aborted (no answer).
    const ended = () => {
      if (this.loneCalls.get(id) === controller) this.loneCalls.delete(id);
      return signal.aborted;
    };
    const fail = (reason: unknown) => {
      if (ended()) return undefined;
      // A rejection with null or undefined is answered as an Internal error, as the SDK path's
      // `answerable` (call-server.ts) makes it: reading its `code` would throw, and no answer go.
      const error = (reason ?? {}) as Record<string, unknown>;
      const thrown = Number.isSafeInteger(error['code']) ? (error['code'] as number) : -32603;
      return transport.respond({
        jsonrpc: '2.0',
        id,
        error: {
          code: thrown === -32002 ? -32602 : thrown,
          message: error['message'] ?? 'Internal error',
          ...(error['data'] !== undefined && { data: error['data'] }),
        },
      } as JSONRPCMessage);
    };
    // `_onrequest` runs its handler inside a promise and the wrapper is async, so whatever they
    // throw, even synchronously (a result whose reading throws), is answered as an error; here
    // too, else the agent would wait for ever and the id stay registered (busy()).
    const finish = (result: unknown) => {
      let finished: Result | Promise<Result>;
      try {
        // A plain result as finishedCall gives it back, without its input-required test first:
        // plainToolResult takes only `_meta`, `content` and `isError` keys on a plain object, so
        // never an input-required result (own `resultType`). lone-result.property.test.ts.
        // The legacy shim's re-entry (finishedCall) runs the same steps with the retry's context:
        // for a URL elicitation client, approval-url.ts then sees the answer (inputResponses) and
        // waits the bounded time, as tools.ts's call does when the shim re-enters it on the SDK
        // path. Made here, for a result that is not plain only (issue 34, wave 3 session 32).
        finished =
          (plainToolResult(result) as Result | undefined) ??
          this.finishedCall(
            request,
            ctx,
            result,
            (_r: unknown, c: ServerContext) => steps(call.params as never, c) as never,
          );
      } catch (error) {
        return fail(error);
      }
      // The 2025 codec's encodeResult gives a tools/call result back as it is. The transport's
      // `respond` is `send`'s answer branch in this turn (a throw there is a rejection here,
      // caught as send's rejection was). Made for a finish that waits only, as the re-entry
      // above is for a result that is not plain.
      if (finished instanceof Promise)
        return finished.then(
          (done: unknown) =>
            ended()
              ? undefined
              : transport.respond({ result: done, jsonrpc: '2.0', id } as JSONRPCMessage),
          fail,
        );
      // The everyday plain result: the waiting finish's answer, in place (issue 34: two
      // functions less per call).
      if (this.loneCalls.get(id) === controller) this.loneCalls.delete(id);
      return signal.aborted
        ? undefined
        : transport.respond({ result: finished, jsonrpc: '2.0', id } as JSONRPCMessage);
    };
    let running: Promise<unknown>;
    try {
      running = steps(call.params as never, ctx);
    } catch (error) {
      running = Promise.reject(error as Error);
    }
    // One reaction to the steps' promise where `_onrequest` has a chain of six (and the wrapper
    // and its input-round step two async frames more): a plain result is finished at once.
    running.then(finish, fail).catch((error: unknown) => {
      ended();
      this.onerror?.(new Error(`Failed to send response: ${error}`));
    });
  }
}

/** The first protocol revision the SDK's classifier treats as the modern era (session-route.ts). */
const FIRST_MODERN = '2026-07-28';

/** What runLone needs of the session's transport (SessionTransport). */
export type LoneTransport = Pick<Transport, 'sessionId'> & {
  /** Sends a response in the caller's turn (SessionTransport.respond). */
  respond(message: JSONRPCMessage): void;
};

/** A POST's one plain tools/call, as loneCallOf took it. */
export interface LoneCall {
  request: JSONRPCRequest;
  /** Its params as the SDK's request parse hands them to the handler (parsedToolCall). */
  params: Record<string, unknown>;
  /** tools.ts's steps for it: plainCall, or urlCall for a client with URL elicitation. */
  steps: PlainCall;
}

interface CancelledLike {
  params?: { requestId?: RequestId; reason?: string };
}

/** The `_meta` keys the SDK lifts into a request's envelope (RESERVED_ENVELOPE_META_KEYS), and
 * the progress token (tools.ts then waits for progress sends). */
const ENVELOPE_OR_PROGRESS = [
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  'progressToken',
];
/** A 2025 request's context as supportsUrlElicitation reads it: no envelope. */
const NO_ENVELOPE = { mcpReq: {} } as unknown as ServerContext;
/** `_onrequest`'s requestState accessor for a request without one. */
const noState = () => undefined;
