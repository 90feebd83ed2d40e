import {
  isInputRequiredResult,
  type CallToolRequest,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { AnswerableServer, answerable, internalError } from './answerable-server.js';
import { parsedToolCall, plainToolCall, plainToolResult } from './tool-call-shapes.js';

type Handler = Parameters<AnswerableServer['_wrapHandler']>[1];
type Wrapped = ReturnType<AnswerableServer['_wrapHandler']>;
/** The SDK Server's private step between its tools/call checks (input rounds, URL elicitation). */
type Invoke = (
  method: string,
  handler: Handler,
  request: JSONRPCRequest,
  ctx: ServerContext,
) => Promise<Result>;

/**
 * A Server whose everyday tools/call skips what the SDK's checks surely pass (issue 34,
 * tool-call-shapes.ts), on either era: its wrapper validates the request with the era's codec
 * (2025-11-25 wire, or the 2026-07-28 dispatch schema after the envelope is lifted) and then
 * calls the handler it registered, which validates the request again; the first pass is left out
 * for a plainToolCall. The result's check is left out for a plainToolResult, which gives it back
 * as that check would; any other result is handed to a second SDK wrapper that runs the SDK's
 * own checks on it. The step between — the SDK's private `_invokeInputRequiredCapableHandler`
 * (input rounds, URL elicitation, the 2026 input_required seam) — runs as the SDK runs it; where
 * an SDK has no such method, every call keeps the SDK's wrapper. The registered handler's own
 * check is left out too where `toolCall` is set (tools.ts) and parsedToolCall gives the request
 * as that check would. tool-call-shapes.property.test.ts holds it to the SDK's wrapper on the
 * 2025 era, call-server.property.test.ts on the 2026-07-28 era.
 *
 * 2025 sessions use TaskServer (tasks.ts), which adds task-augmented calls; the 2026-07-28 hot
 * path's shared server (modern-hot.ts) uses this class as is.
 */
export class PlainCallServer extends AnswerableServer {
  /** The function registered for tools/call (tools.ts), without the SDK's request check. */
  toolCall?: (request: CallToolRequest, ctx: ServerContext) => Promise<unknown>;
  /**
   * The steps of that function for a plain call of a client without URL elicitation (tools.ts):
   * what a 2025 session's lone call runs (lone-call.ts). Like `toolCall`, cleared when tools/call
   * is registered again, so neither outlives the handler it belongs to.
   */
  plainCall?: PlainCall;
  /**
   * `plainCall` inside approval-url.ts's per-call choice (callWithApprovalUrl), for a plain call
   * of a client that declared URL elicitation (tools.ts); cleared with the others.
   */
  urlCall?: PlainCall;
  /** A result's check as this server's tools/call wrapper makes it (set with that wrapper). */
  private recheck?: (
    request: JSONRPCRequest,
    ctx: ServerContext,
    result: unknown,
  ) => Promise<Result>;
  /** The wrapper's steps after the handler for an input-required result (set with it). */
  private inputRequired?: (
    request: JSONRPCRequest,
    ctx: ServerContext,
    first: Result,
    again: Handler,
  ) => Promise<Result>;

  /** Calls this server answers itself, without the SDK's checks (TaskServer: task-augmented). */
  protected ownsCall(_request: JSONRPCRequest): boolean {
    return false;
  }

  protected override _wrapHandler(method: string, handler: Handler): Wrapped {
    // The SDK's wrapper unguarded (AnswerableServer): the tools/call wrapper below guards it.
    const wrapped = this.sdkWrapHandler(method, handler);
    if (method !== 'tools/call') return answerable(wrapped);
    // A new tools/call handler: the shortcuts of the one before no longer speak for it.
    this.toolCall = undefined;
    this.plainCall = undefined;
    this.urlCall = undefined;
    const invoke = (this as unknown as { _invokeInputRequiredCapableHandler?: Invoke })
      ._invokeInputRequiredCapableHandler;
    // Results in hand, by their request, for the SDK's checks alone (its handler is this lookup).
    const held = new WeakMap<object, Result>();
    const recheck = this.sdkWrapHandler(method, async (request) => held.get(request)!);
    const checkResult = async (request: JSONRPCRequest, ctx: ServerContext, result: unknown) => {
      held.set(request, result as Result);
      try {
        return await recheck(request, ctx);
      } finally {
        held.delete(request);
      }
    };
    this.recheck = checkResult;
    const finish = async (request: JSONRPCRequest, ctx: ServerContext, result: Result) => {
      if (isInputRequiredResult(result)) return result;
      const plain = plainToolResult(result);
      if (plain) return plain;
      return await checkResult(request, ctx, result);
    };
    // The SDK's step between handler and checks, entered with a result already in hand: its
    // legacy shim (2025) fulfils an input-required result and runs the handler `again`.
    this.inputRequired =
      typeof invoke === 'function'
        ? async (request, ctx, first, again) => {
            let given = false;
            const run: Handler = (r, c) => {
              if (given) return again(r, c);
              given = true;
              return Promise.resolve(first);
            };
            return finish(request, ctx, await invoke.call(this, method, run, request, ctx));
          }
        : undefined;
    // A rejection with null or undefined made an Internal error (answerable-server.ts), so
    // `return await` inside the try: a returned promise's rejection would pass the catch by.
    return async (request, ctx) => {
      try {
        if (this.ownsCall(request)) return await handler(request, ctx);
        if (typeof invoke !== 'function' || !plainToolCall(request))
          return await wrapped(request, ctx);
        // The registered handler's own check of a plainToolCall, left out where parsedToolCall
        // gives what it would.
        const raw = this.toolCall;
        const parsed = raw && parsedToolCall(request);
        // The handler's own promise, not an async wrapper's around it: one microtask turn less on
        // the answer's way (issue 34). The SDK awaits it inside its own try, so a throw before the
        // promise would be caught there as a rejection is (and `raw`, tools.ts, is async anyway).
        const run: Handler = parsed
          ? (_r, c) => raw!(parsed as CallToolRequest, c) as Promise<Result>
          : handler;
        const result = await invoke.call(this, method, run, request, ctx);
        if (isInputRequiredResult(result)) return result;
        const plain = plainToolResult(result);
        if (plain) return plain;
        return await checkResult(request, ctx, result);
      } catch (error) {
        throw error ?? internalError();
      }
    };
  }

  /**
   * Whether finishedCall hands an input-required result to the SDK's own step (its legacy shim on
   * 2025), as this server's wrapper does: false on an SDK without that step.
   */
  finishesInputRequired(): boolean {
    return this.inputRequired !== undefined;
  }

  /**
   * A plain call's result as the tools/call wrapper above finishes it, for a 2025 session's lone
   * call (lone-call.ts) that ran the handler's steps itself: a plainToolResult as it is, an
   * input-required one through the SDK's step (its legacy shim runs the steps `again`), anything
   * else through the SDK's own CallToolResult check (which may throw its -32602).
   */
  finishedCall(
    request: JSONRPCRequest,
    ctx: ServerContext,
    result: unknown,
    again: Handler,
  ): Result | Promise<Result> {
    if (isInputRequiredResult(result) && this.inputRequired)
      return this.inputRequired(request, ctx, result, again);
    return (plainToolResult(result) as Result | undefined) ?? this.recheck!(request, ctx, result);
  }
}

/** A plain call's steps (tools.ts): `params` as the SDK's request parse gives them. */
export type PlainCall = (
  params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
  ctx: ServerContext,
) => Promise<unknown>;
