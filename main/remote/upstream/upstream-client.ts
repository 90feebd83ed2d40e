import {
  Client,
  type JSONRPCMessage,
  type JSONRPCResponse,
  type MessageExtraInfo,
  type Transport,
} from '@modelcontextprotocol/client';
import { budgetOf, MAX_LIST_PAGES } from './list-budget.js';
import { CHECKED_BY_CALLER } from '../../tools/sdk-schema-validators.js';

/**
 * The SDK client, minus one of the two validations of every tool result (issue 20: "results
 * not validated twice"). Airlock's own MCP server validates each tools/call result against the
 * negotiated era's schema before an agent sees it (the SDK server's tools/call wrapper), so the
 * upstream leg checks only the shape Airlock's own code relies on — `content` a list of typed
 * blocks, `isError` a boolean, `_meta` an object — and leaves the full schema to that one pass.
 * The SDK's own per-request validator also re-probed its schema registry with `undefined` on
 * every call, which costs a failed zod parse and its error text each time.
 *
 * Everything else of the request funnel is the SDK's: era gating, `input_required` rounds,
 * progress, timeouts, cancellation — save the order in which a response is dispatched (below).
 */
export class UpstreamClient extends Client {
  /**
   * A list walk's page bound is the list budget's (list-budget.ts `MAX_LIST_PAGES`), which cuts
   * or refuses with the reason; the SDK's own (`listMaxPages`, 64 by default) failed a legitimate
   * list paged finely. One page past the budget's stays as the SDK's backstop.
   *
   * A tool result's `structuredContent` is never checked against the server's `outputSchema` by
   * the SDK's default validator (its Ajv with backtracking RegExp: one hostile result froze the
   * main thread, docs/security.md "Schemas are evaluated with bounded cost"), nor by any other
   * given here: the SDK's check passes, and the caller makes it through the schema pool —
   * remote-calls.ts for the gateway, probe.ts for `airlock remote probe --call`
   * (sdk-schema-validators.ts).
   */
  constructor(...[info, options]: ConstructorParameters<typeof Client>) {
    super(info, {
      listMaxPages: MAX_LIST_PAGES + 1,
      ...options,
      jsonSchemaValidator: CHECKED_BY_CALLER,
    });
  }

  /**
   * A request's notifications before its response (issue 28, item 2). The SDK dispatches each
   * notification a microtask later (Protocol._onnotification) but a response at once, and the
   * response ends the request's progress handler: progress that arrived in the same read as the
   * result — one chunk, which lean-transport.ts hands over message by message — found no handler
   * and was dropped (upstream sent 1, 2, 3; the agent got 1, 2). Dispatched one microtask later
   * too, a response comes after every notification that arrived before it (microtasks run in
   * order), and those reach the agent first. `_onresponse` is the SDK's hook for subclasses.
   *
   * A promise reaction, as the SDK's own notification dispatch uses, not `queueMicrotask`: that
   * builds an AsyncResource per call and runs the callback through it (issue 34). Either is one
   * job on the same microtask queue, so the order above holds. A throw from the dispatch goes to
   * the transport's `onerror` — the SDK's wrapper of it (Protocol.connect) calls the one set
   * before connecting and then the client's `onerror` — as it did when the dispatch ran inside the
   * transport's `onmessage`, whose readers report what `onmessage` throws (lean-transport.ts, lean-send.ts).
   */
  protected override _onresponse(response: JSONRPCResponse): void {
    void DISPATCHED.then(() => {
      try {
        if (!this.settled(response)) super._onresponse(response);
      } catch (err) {
        const onerror = this.transport?.onerror;
        if (onerror) onerror(err as Error);
        else this.onerror?.(err as Error);
      }
    });
  }

  /**
   * Protocol._onresponse (SDK 2.4) for a plain result response to one of our numeric ids, without
   * its second zod parse of the same answer (issue 34): the handler comes off the books with its
   * timeout and progress handler and is called with the response, as the SDK does once its schema
   * says "result". Anything else — an error, a string id (a subscription's, maybe), an id that is
   * not ours, books that moved in an SDK update — is the SDK's (upstream-client.property.test.ts
   * compares the two over generated answers).
   */
  private settled(response: JSONRPCResponse): boolean {
    const id = response.id;
    if (typeof id !== 'number' || !plainResultResponse(response)) return false;
    const b = this as unknown as Partial<ResponseBooks>;
    if (
      !(b._responseHandlers instanceof Map) ||
      !(b._progressHandlers instanceof Map) ||
      typeof b._cleanupTimeout !== 'function'
    )
      return false;
    const handler = b._responseHandlers.get(id);
    if (handler === undefined) return false;
    b._responseHandlers.delete(id);
    b._cleanupTimeout(id);
    b._progressHandlers.delete(id);
    handler(response);
    return true;
  }

  /**
   * A plain result response goes straight to `_onresponse` (issue 34). The SDK's message dispatch
   * (Protocol.connect's `onmessage`, SDK 2.4) classifies every message with zod, starting with
   * `isJSONRPCResultResponse` — a strict-object parse per answer, ≈ 1% of Airlock's CPU on a
   * passthrough call, and `_onresponse` parsed the same answer again. `plainResultResponse` below is narrower than that schema (a property test,
   * upstream-client.property.test.ts, holds that whatever it takes zod takes too); anything else
   * goes through the SDK's dispatch as before. Only when no `onmessage` was set before connecting,
   * which the SDK's dispatch would call first.
   */
  override async connect(
    transport: Transport,
    options?: Parameters<Client['connect']>[1],
  ): Promise<void> {
    const before = transport.onmessage;
    await super.connect(transport, options);
    const dispatch = transport.onmessage;
    if (before !== undefined || dispatch === undefined) return;
    transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (plainResultResponse(message)) this._onresponse(message);
      else dispatch.call(transport, message, extra);
    };
  }

  override request(...args: unknown[]): never {
    const [request, schemaOrOptions, maybeOptions] = args as [
      { method: string; params?: { cursor?: unknown } },
      unknown,
      unknown,
    ];
    const request$ = Client.prototype.request as (...a: unknown[]) => never;
    if (request.method === 'tools/call' && !isStandardSchema(schemaOrOptions))
      return request$.call(this, request, callToolResultShape, schemaOrOptions);
    // A page of a bounded list walk is counted as it arrives (list-budget.ts): past the bound
    // the page's promise rejects, which ends the SDK's walk before the next page is asked for.
    const budget = budgetOf(
      request.method,
      isStandardSchema(schemaOrOptions) ? maybeOptions : schemaOrOptions,
    );
    if (budget) {
      const page = request$.call(this, request, schemaOrOptions, maybeOptions) as Promise<unknown>;
      return page.then((p) => (budget.take(p, request.params?.cursor), p)) as never;
    }
    return request$.call(this, request, schemaOrOptions, maybeOptions);
  }
}

/** The settled promise each deferred response dispatch is a reaction of. */
const DISPATCHED = Promise.resolve();

/** The members of the SDK's Protocol (SDK 2.4, shared/protocol.ts) a response settles. */
interface ResponseBooks {
  _responseHandlers: Map<number, (answer: JSONRPCResponse) => void>;
  _progressHandlers: Map<number, unknown>;
  _cleanupTimeout(id: number): void;
}

type Issue = { message: string };

/** A Standard Schema (https://standardschema.dev) over the structural check below. */
export const callToolResultShape = {
  '~standard': {
    version: 1 as const,
    vendor: 'airlock',
    validate(value: unknown): { value: unknown } | { issues: Issue[] } {
      const problem = callToolResultProblem(value);
      return problem ? { issues: [{ message: problem }] } : { value };
    },
  },
};

export function callToolResultProblem(v: unknown): string | null {
  if (!isObject(v)) return 'the result is not an object';
  if (v.content !== undefined) {
    if (!Array.isArray(v.content)) return '"content" is not a list';
    // A loop, not `findIndex` with a closure: this runs on every call's result (issue 34).
    const content: unknown[] = v.content;
    for (let i = 0; i < content.length; i++) {
      const c = content[i];
      if (!isObject(c) || typeof c.type !== 'string')
        return `content[${i}] is not a content block with a "type"`;
    }
  }
  if (v.isError !== undefined && typeof v.isError !== 'boolean')
    return '"isError" is not a boolean';
  if (v._meta !== undefined && !isObject(v._meta)) return '"_meta" is not an object';
  return null;
}

function isStandardSchema(v: unknown): boolean {
  return (
    (typeof v === 'object' || typeof v === 'function') &&
    v !== null &&
    '~standard' in v &&
    typeof (v as { '~standard'?: { validate?: unknown } })['~standard']?.validate === 'function'
  );
}

/**
 * A JSON-RPC result response the SDK's `JSONRPCResultResponseSchema` (strict: `jsonrpc` "2.0", an
 * integer or string id, a result object whose `_meta`, if any, it checks) certainly takes: exactly
 * those three members, a safe-integer or string id, a result object without `_meta`.
 */
export function plainResultResponse(m: unknown): m is JSONRPCResponse {
  if (!isObject(m) || m.jsonrpc !== '2.0' || !isObject(m.result) || '_meta' in m.result)
    return false;
  const id = m.id;
  return (typeof id === 'string' || Number.isSafeInteger(id)) && Object.keys(m).length === 3;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
