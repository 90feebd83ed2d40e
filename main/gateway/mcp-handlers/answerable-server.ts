import {
  Server,
  type BaseContext,
  type MessageExtraInfo,
  type ServerContext,
} from '@modelcontextprotocol/server';

type Handler = Parameters<Server['_wrapHandler']>[1];
type Wrapped = ReturnType<Server['_wrapHandler']>;

/**
 * The SDK's low-level Server, every request handler it is given answerable. `Protocol._onrequest`
 * (SDK 2.4.0) reads `error["code"]` of whatever a handler rejects with, so a rejection with null
 * or undefined threw there: no answer was sent, the request's id stayed registered with the
 * session's transport (SessionTransport busy) and the agent waited for ever. Here such a
 * rejection becomes an Internal error (-32603 "Internal error", what `_onrequest` answers for an
 * error without a code or message); any other passes as it is. The 2026-07-28 per-request
 * servers are this class; PlainCallServer (call-server.ts: 2025 sessions, the hot path) builds on
 * it, and a 2025 lone call (lone-call.ts `fail`) answers such a rejection the same way.
 * lone-call.test.ts and modern-hot.test.ts hold each path to that answer.
 */
export class AnswerableServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Wrapped {
    return answerable(this.sdkWrapHandler(method, handler));
  }

  /**
   * A request's context whose `notify` and `send` go quiet once the request is cancelled (its
   * signal aborted: `notifications/cancelled`, or the session closing). The SDK's (`_onrequest`)
   * send with `relatedRequestId` set to the request's id at any time, and the session's transport
   * routes by that id — so after the agent cancelled request N and sent a new request N (MCP
   * "Cancellation" frees the id), the old call's late log lines, progress and relayed requests
   * went on the new call's stream as if they were its own. Now a notification is dropped (as the
   * transport drops one for a client gone) and a request fails at once, saying why. A 2025 lone
   * call's context (lone-call.ts `runLone`) does the same. lone-call.test.ts holds both paths.
   */
  protected override buildContext(ctx: BaseContext, info?: MessageExtraInfo): ServerContext {
    quietOnceCancelled(ctx.mcpReq);
    return super.buildContext(ctx, info);
  }

  /** The SDK Server's own wrapper of a handler (its tools/call result checks), unguarded. */
  protected sdkWrapHandler(method: string, handler: Handler): Wrapped {
    return super._wrapHandler(method, handler);
  }
}

/** `wrapped`, a rejection with null or undefined made an Internal error (AnswerableServer). */
export function answerable(wrapped: Wrapped): Wrapped {
  return async (request, ctx) => {
    try {
      return await wrapped(request, ctx);
    } catch (error) {
      throw error ?? internalError();
    }
  };
}

export function internalError(): Error {
  return new Error('Internal error');
}

interface RequestSends {
  id: string | number;
  signal: AbortSignal;
  notify: (...a: never[]) => Promise<void>;
  send: (...a: never[]) => Promise<unknown>;
}

/** `notify` and `send` of a request's context (`mcpReq`), quiet once its signal is aborted. */
export function quietOnceCancelled(req: RequestSends): void {
  const { id, signal, notify, send } = req;
  req.notify = (...a) => (signal.aborted ? Promise.resolve() : notify(...a));
  req.send = (...a) => (signal.aborted ? Promise.reject(cancelled(id, a[0])) : send(...a));
}

/** Why a cancelled request's relayed request is not sent. */
export function cancelled(id: string | number, request: unknown): Error {
  const method = (request as { method?: unknown } | undefined)?.method;
  return new Error(
    `The agent cancelled request ${id}: a ${String(method)} request on it cannot reach it`,
  );
}
