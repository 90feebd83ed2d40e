import {
  SdkError,
  SdkErrorCode,
  type Client,
  type JSONRPCMessage,
  type JSONRPCResultResponse,
  type Transport,
} from '@modelcontextprotocol/client';
import { callToolResultProblem } from './upstream-client.js';
import { directHeaders, directSend } from '../http/direct-call.js';
import { plainCall } from '../http/lean-send.js';
import { RENEW_EVERY, renewBooks } from './renew-books.js';
import { offAbort, onAbort } from '../../platform/abort-hooks.js';

/**
 * `tools/call` upstream without the SDK client's per-call funnel (issue 34, "a hot path that
 * costs what a relay costs"), for the plain case only: a 2025-era connection and a tool with no
 * `outputSchema`. The SDK's `callTool` → `request` → `_requestWithSchemaViaCodec` does, per call,
 * an output-validator cache probe (two awaits), an era codec lookup and gate, the `_meta`
 * envelope, the codec's result decode and a Standard Schema pass behind another promise; for a
 * 2025 call to a tool without an output schema none of those change what the caller gets. This
 * writes the same JSON-RPC request on the same transport and keeps the Protocol's own books —
 * its request id counter, response and progress handler maps and timeouts — so everything else
 * works on lean calls unchanged: the response is dispatched after the call's notifications
 * (UpstreamClient._onresponse), progress resets the idle timeout, a closed connection fails the
 * call with the SDK's "Connection closed", server→client requests during the call are the
 * Protocol's to answer. The result is checked once, by the same shape check the SDK path uses.
 *
 * `leanCallTool` returns undefined where the call is not plain — params beyond name, arguments and
 * `_meta` (a task-augmented call), the 2026-07-28 era (envelope,
 * `input_required` rounds, header mirroring, per-request streams), a tool with an output schema
 * (the SDK checks structured content against it), or an SDK whose internals moved — and the
 * caller takes the SDK path. lean-call.property.test.ts drives both paths with generated
 * upstream answers and compares what the caller gets.
 */
export interface LeanCallOptions {
  signal: AbortSignal;
  timeout: number;
  maxTotalTimeout: number;
  resetTimeoutOnProgress: boolean;
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
}

type Answer = JSONRPCResultResponse | Error;

type CallParams = {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

/** The members of the SDK's Protocol (SDK 2.4, shared/protocol.ts) the lean call shares. */
interface Books {
  _requestMessageId: number;
  _responseHandlers: Map<number, (answer: Answer) => void>;
  _progressHandlers: Map<number, (params: unknown) => void>;
  _setupTimeout(
    id: number,
    timeout: number,
    maxTotal: number | undefined,
    onTimeout: () => void,
    reset: boolean,
  ): void;
  _cleanupTimeout(id: number): void;
  _onerror(error: Error): void;
  _envelopeOutbound<T>(message: T): T;
  /** The Protocol's field behind its `transport` getter (SDK 2.4, shared/protocol.ts). */
  _transport?: Transport;
  _negotiatedProtocolVersion?: string;
}

/** Whether this SDK's Protocol still has the books a lean call keeps in (else: SDK path). */
export function leanBooksPresent(client: Client): boolean {
  const b = client as unknown as Partial<Books>;
  return (
    typeof b._requestMessageId === 'number' &&
    b._responseHandlers instanceof Map &&
    b._progressHandlers instanceof Map &&
    typeof b._setupTimeout === 'function' &&
    typeof b._cleanupTimeout === 'function' &&
    typeof b._onerror === 'function' &&
    typeof b._envelopeOutbound === 'function' &&
    '_transport' in b &&
    b._transport === client.transport
  );
}

/**
 * Clients found fit for lean calls, each with the negotiated protocol version it was found fit
 * on. What `leanFit` decides — a 2025-era connection, the books present, the SDK's outbound
 * envelope a no-op — depends on the client's class and on that version only, so it is decided
 * once per client and version rather than on every call (issue 34: the era test and the
 * envelope's codec lookup were nine functions per call); a version that changes (a reconnect
 * that negotiates another) is decided again.
 */
const FIT = new WeakMap<Client, string>();

/**
 * Whether `client` may take lean calls, decided as above. The envelope: on a legacy-era
 * connection the SDK's `_envelopeOutbound` hands the message back by reference (SDK 2.4,
 * `Client._outboundMetaEnvelope` asks the 2025 codec's `outboundEnvelope`, which returns
 * undefined: "outbound traffic is byte-identical to a 2025 client"), so the lean send skips it.
 * That is checked here on the client itself, with a probe, before the client is taken as fit;
 * envelope-identity.property.test.ts holds it over generated messages, versions, client infos and
 * capabilities, and fails should the SDK start to change a legacy message.
 */
function leanFit(client: Client, books: Books): boolean {
  const version = books._negotiatedProtocolVersion;
  if (version !== undefined && FIT.get(client) === version) return true;
  if (typeof version !== 'string' || client.getProtocolEra() !== 'legacy') return false;
  if (!leanBooksPresent(client)) return false;
  const probe = { jsonrpc: '2.0', method: 'tools/call', id: 0, params: { name: '' } };
  if (books._envelopeOutbound(probe) !== probe) return false;
  FIT.set(client, version);
  return true;
}

/**
 * `_requestWithSchemaViaCodec` for `tools/call` on the 2025 codec, step for step, save where its
 * books are settled. The SDK settles them in a `.finally` on the call's promise; that costs the
 * caller three more microtask jobs and two promises before it sees the result (the reaction, the
 * promise its callback's value is wrapped in, and the job that adopts it; ECMA-262,
 * Promise.prototype.finally). Here an answered call has nothing left to settle but the abort
 * hook (abort-hooks.ts onAbort): the answer's dispatch (UpstreamClient.settled,
 * Protocol._onresponse) took the response handler, the timeout and the progress handler off the
 * books before calling the handler, and once `received` is set an abort does nothing — so the
 * hook goes at once and the caller gets the result with no jobs between. A call that fails
 * settles its books in one job queued as it is rejected, exactly when the `.finally` reaction
 * ran, and before the caller's own rejection handler runs (jobs run in the order queued):
 * whatever the books look like to an answer still on its way, or to the caller, is as it was
 * (lean-call.property.test.ts, cancelled and closed calls).
 */
export function leanCallTool(
  client: Client,
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
  options: LeanCallOptions,
): Promise<Record<string, unknown>> | undefined {
  return callUpstream(client, params, true, options, false) as
    Promise<Record<string, unknown>> | undefined;
}

/**
 * The call on the lean path where it is plain (`plain`: the tool has no output schema), else the
 * SDK's `callTool` — or, with `sdk` false (`leanCallTool`), undefined. One function with the lean
 * call itself, not one calling the other: issue 34 counts the functions a call runs.
 */
export function callUpstream(
  client: Client,
  params: CallParams,
  plain: boolean,
  options: LeanCallOptions,
  sdk: false,
): Promise<unknown> | undefined;
export function callUpstream(
  client: Client,
  params: CallParams,
  plain: boolean,
  options: LeanCallOptions,
): Promise<unknown>;
export function callUpstream(
  client: Client,
  params: CallParams,
  plain: boolean,
  options: LeanCallOptions,
  sdk = true,
): Promise<unknown> | undefined {
  const books = client as unknown as Books;
  if (!plain || !leanFit(client, books)) return sdk ? sdkCall(client, params, options) : undefined;
  // Params beyond these (a task-augmented call's `task`, MCP 2025-11-25) are the SDK's to send.
  // (Own enumerable keys, as `Object.keys` gives them, without its array and a closure per call.)
  for (const k in params)
    if (Object.hasOwn(params, k) && k !== 'name' && k !== 'arguments' && k !== '_meta')
      return sdk ? sdkCall(client, params, options) : undefined;
  // The field, not the `transport` getter that returns it: one function less per call.
  const transport = books._transport;
  if (!transport) return sdk ? sdkCall(client, params, options) : undefined;
  // Straight to the socket where the transport allows it (direct-call.ts), decided now, before
  // anything is sent; a call with a progress token stays on the transport's send. (The send
  // itself follows in this function, not a second one: issue 34 counts functions per call.)
  const direct = options.onprogress ? undefined : directHeaders(transport);
  const { signal } = options;
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    if (signal.aborted) throw asSdkError(signal.reason);
    const messageId = books._requestMessageId++;
    // The books are long-lived Maps: renewed every 64 ids, or each rehash pins the calls in flight.
    if (messageId % RENEW_EVERY === 0) renewBooks(client);
    const request: JSONRPCMessage = {
      method: 'tools/call',
      params: options.onprogress
        ? { ...params, _meta: { ...params._meta, progressToken: messageId } }
        : params,
      jsonrpc: '2.0',
      id: messageId,
    };
    if (options.onprogress) books._progressHandlers.set(messageId, options.onprogress as never);
    // The SDK's `_envelopeOutbound(request)`, which on this client is `request` itself (leanFit).
    const outbound = request;
    let received = false;
    let settling = false;
    /** The `.finally` of the SDK's funnel: one job, queued before the caller's reaction. */
    const settle = () => {
      if (settling) return;
      settling = true;
      void SETTLED.then(() => {
        offAbort(signal, onAborted);
        books._responseHandlers.delete(messageId);
        books._cleanupTimeout(messageId);
      });
    };
    const fail = (err: unknown) => {
      settle();
      reject(err);
    };
    const cancel = (reason: unknown) => {
      if (received) return;
      books._progressHandlers.delete(messageId);
      // MCP 2025-11-25, basic/utilities/cancellation: the server may stop the call.
      transport
        .send(
          books._envelopeOutbound({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: messageId, reason: String(reason) },
          } as JSONRPCMessage),
          {},
        )
        .catch((err: unknown) => books._onerror(new Error(`Failed to send cancellation: ${err}`)));
      fail(asSdkError(reason));
    };
    books._responseHandlers.set(messageId, (answer) => {
      if (signal.aborted) return;
      received = true;
      if (answer instanceof Error) return fail(answer);
      // The 2025 codec's `decodeResult`: a `resultType` member (a 2026 word) is dropped. Asked
      // here, so that the usual result, without one, costs no call (issue 34).
      const raw = answer.result as unknown;
      const result =
        typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('resultType' in raw)
          ? raw
          : withoutResultType(raw as Record<string, unknown>);
      const problem = callToolResultProblem(result);
      if (problem)
        return fail(
          new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${problem}`),
        );
      // The dispatch has taken this call off the books (see above); an abort no longer matters.
      // Should a handler ever be called with the call still on the books (an SDK that moved),
      // they are settled as the `.finally` did rather than leave its timeout running.
      if (books._responseHandlers.has(messageId)) settle();
      else offAbort(signal, onAborted);
      resolve(result as Record<string, unknown>);
    });
    // A hook on remote-calls.ts's own controller, a `once` listener on any other signal.
    const onAborted = () => cancel(signal.reason);
    onAbort(signal, onAborted);
    const { timeout } = options;
    books._setupTimeout(
      messageId,
      timeout,
      options.maxTotalTimeout,
      () => cancel(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout })),
      options.resetTimeoutOnProgress,
    );
    const failed = (err: unknown) => {
      books._progressHandlers.delete(messageId);
      fail(err as Error);
    };
    if (direct !== undefined && plainCall(outbound, undefined))
      directSend(transport, direct, outbound, failed);
    else transport.send(outbound, {}).catch(failed);
  });
}

/**
 * The SDK's own `callTool`, the books renewed first where the next id is a multiple of
 * RENEW_EVERY. Its calls take their ids from the same counter as lean ones, so without this,
 * lean calls interleaved with SDK-path ones (a tool with an output schema, a task) could miss
 * every multiple: alternating, the lean calls on odd ids renewed 0 times in 1,000 calls (review
 * of h-surv2). The SDK takes the id a few jobs later; concurrent calls may move it on, which
 * only shifts a renewal (renew-books.test.ts).
 */
function sdkCall(client: Client, params: CallParams, options: LeanCallOptions): Promise<unknown> {
  if ((client as unknown as Books)._requestMessageId % RENEW_EVERY === 0) renewBooks(client);
  return client.callTool(params, options);
}

/** The settled promise the books of a failed call are settled a reaction of. */
const SETTLED = Promise.resolve();

function asSdkError(reason: unknown): SdkError {
  return reason instanceof SdkError
    ? reason
    : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}

function withoutResultType(raw: Record<string, unknown>): Record<string, unknown> {
  const { resultType: _dropped, ...rest } = raw;
  return rest;
}
