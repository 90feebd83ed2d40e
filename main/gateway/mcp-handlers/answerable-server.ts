import { Server } from '@modelcontextprotocol/server';

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
