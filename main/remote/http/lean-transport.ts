import type { LookupFunction } from 'node:net';
import {
  parseJSONRPCMessage,
  RELATED_TASK_META_KEY,
  SERVER_INFO_META_KEY,
  StreamableHTTPClientTransport,
  type AuthProvider,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import {
  LeanBody,
  leanFetch,
  REQUEST_TAG,
  UPSTREAM_MESSAGE_LIMIT,
  upstreamMessageTooLarge,
} from './lean-fetch.js';
import { relayScopeRunner } from '../relay/relay-scope.js';
import { allowDirect } from './direct-call.js';
import { leanSend, leanSendPresent, plainCall } from './lean-send.js';
import { InFlight } from '../upstream/in-flight.js';
import { parseUpstream, UpstreamValuesError } from '../upstream/json-values.js';
import { Unfinished } from './unfinished-event.js';

/**
 * The SDK's Streamable HTTP client transport with a lean reader under it (issue 20). The SDK
 * keeps everything that is protocol — headers of both eras, sessions, OAuth and step-up, the
 * standalone GET stream, resumption and reconnection, redirects — and lean-fetch.ts replaces
 * undici's fetch. What remains of the web-streams cost is the response stream's reader
 * (`TextDecoderStream` → `EventSourceParserStream` → reader, then a zod parse of every event);
 * this swaps in the same event parser on the Node stream itself and a structural JSON-RPC check.
 * The protocol layer still validates every result, request and notification by its method.
 *
 * The reader is the transport's `_handleSseStream(stream, options, isReconnectable)`, which is
 * private to the SDK; its contract is copied here line for line (SDK 2.4,
 * client/streamableHttp.ts). When an SDK update renames it, `leanTransport` returns undefined
 * and upstream.ts falls back to the stock transport over fetch: slower, never broken
 * (lean-transport.test.ts says which happened).
 *
 * `readStream`'s rules are repeated step for step by direct-events.ts `readEvents` (a direct
 * call's event-stream answer, read from the socket): a change to one is made in both.
 * sdk-reader.property.test.ts holds both, and the JSON readers, to the stock SDK client's
 * `_handleSseStream` / `response.json()` over generated bodies (BOM, line endings, splits).
 */
interface StreamOptions {
  resumptionToken?: string | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
  replayMessageId?: string | number | undefined;
  requestSignal?: AbortSignal | undefined;
  onRequestStreamEnd?: (() => void) | undefined;
}

/** The private members of the SDK transport that the lean reader reads. */
interface Internals {
  _abortController?: AbortController;
  _serverRetryMs?: number;
  _scheduleReconnection(options: StreamOptions, attempt: number): void;
  _handleSseStream(stream: unknown, options: StreamOptions, isReconnectable: boolean): void;
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
}

/** Whether this SDK still has the seam the lean reader plugs into. */
export function leanSeamPresent(): boolean {
  const proto = StreamableHTTPClientTransport.prototype as unknown as Partial<Internals>;
  return (
    typeof proto._handleSseStream === 'function' &&
    proto._handleSseStream.length === 3 &&
    typeof proto._scheduleReconnection === 'function'
  );
}

export function leanTransport(
  url: URL,
  headers: Record<string, string>,
  authProvider: AuthProvider | undefined,
  /** The connection's address check, if any (address-guard.ts, lean-fetch.ts). */
  lookup?: LookupFunction,
  /**
   * Plain 2025-era calls go straight to the socket (direct-call.ts); false keeps them on
   * lean-send's path, as before (tests and benches compare the two).
   */
  direct = true,
): StreamableHTTPClientTransport | undefined {
  if (!leanSeamPresent()) return undefined;
  // Each 2026-07-28 request's own cancellation signal goes to the fetch by a tag header instead of
  // through the SDK, which would join it with the transport's long-lived signal by
  // `AbortSignal.any` on every request — growing the heap by ≈ 270 B a call (lean-fetch.ts).
  const own = new Map<string, AbortSignal>();
  let tags = 0;
  const t = new StreamableHTTPClientTransport(url, {
    fetch: leanFetch(headers, (tag) => own.get(tag), lookup),
    ...(authProvider ? { authProvider } : {}),
  });
  const send = t.send.bind(t);
  const lean = leanSendPresent(t);
  if (lean && direct) allowDirect(t);
  t.send = (message, options) => {
    // A 2025-era tools/call: the POST without the SDK's per-send checks (lean-send.ts).
    if (lean && plainCall(message, options)) return leanSend(t, message, options);
    const requestSignal = options?.requestSignal;
    if (!requestSignal) return send(message, options);
    const tag = String(++tags);
    own.set(tag, requestSignal);
    const { requestSignal: _held, ...rest } = options;
    return send(message, { ...rest, headers: { ...rest.headers, [REQUEST_TAG]: tag } }).finally(
      () => own.delete(tag),
    );
  };
  const internals = t as unknown as Internals;
  const stock = internals._handleSseStream;
  internals._handleSseStream = function (stream, options, isReconnectable) {
    if (stream instanceof LeanBody) readStream(internals, stream, options, isReconnectable);
    else stock.call(internals, stream, options, isReconnectable);
  };
  return t;
}

function readStream(
  t: Internals,
  body: LeanBody,
  options: StreamOptions,
  isReconnectable: boolean,
): void {
  const { onresumptiontoken, replayMessageId, onRequestStreamEnd } = options;
  // A 2026-07-28 request's own signal travels with its body (see leanTransport), not in options.
  const requestSignal = options.requestSignal ?? body.requestSignal;
  const intentional = () =>
    t._abortController?.signal.aborted === true || requestSignal?.aborted === true;
  // Messages are handed over in the relay scope of the call that opened the stream, as the stock
  // reader's promise chain does: a server→client request finds its agent (relay-scope.ts).
  const inScope = relayScopeRunner();
  const deliver = (message: JSONRPCMessage) => inScope(() => t.onmessage?.(message));
  let lastEventId: string | undefined;
  let primed = false;
  let answered = false;
  let tooLarge: Error | undefined;
  const parser = createParser({
    // One event (its unfinished line and data lines) is bounded; the stream as a whole is not,
    // since a GET stream carries messages for as long as the session lives (lean-fetch.ts).
    maxBufferSize: UPSTREAM_MESSAGE_LIMIT,
    onError(err) {
      if (err.type !== 'max-buffer-size-exceeded') return;
      tooLarge = upstreamMessageTooLarge();
      body.cut(tooLarge);
    },
    onEvent(event) {
      if (event.id) {
        lastEventId = event.id;
        primed = true;
        onresumptiontoken?.(event.id);
      }
      if (!event.data || (event.event && event.event !== 'message')) return;
      let raw: unknown;
      try {
        raw = parseUpstream(event.data);
        const message = jsonRpcMessage(raw);
        if ('id' in message && ('result' in message || 'error' in message)) {
          answered = true;
          if (replayMessageId !== undefined) message.id = replayMessageId;
        }
        deliver(message);
      } catch (err) {
        if (err instanceof UpstreamValuesError) {
          // Too many values or too deep (json-values.ts), whatever the message — an answer, or a
          // request or notification on the call's stream: cut as a message over the size bound
          // is (the stream is not resumed, see `finish`), and the call fails at once saying why.
          tooLarge = err;
          body.cut(tooLarge);
          return;
        }
        t.onerror?.(err as Error);
        // An answer to one of our requests that is not a valid response would leave that request
        // waiting until its timeout; it fails now, with the reason (issue 20 review).
        const id = answerId(raw);
        if (id !== undefined) {
          answered = true;
          deliver(malformedAnswerError(replayMessageId ?? id, (err as Error).message));
        }
      }
    },
    onRetry(ms) {
      t._serverRetryMs = ms;
    },
  });
  // Called once, after the body ended or was cut (LeanBody.read); the request's abort wiring is
  // already undone by then.
  const finish = (ended: unknown) => {
    if (intentional()) return;
    const cut = tooLarge ?? ended;
    if (cut !== undefined) {
      t.onerror?.(new Error(`SSE stream disconnected: ${String(cut)}`));
      // The call fails at once rather than at its idle timeout (relay-scope.ts, issue 14 item 5).
      if (!answered) body.lost?.(cut);
    }
    // Not after a message over the bound: a resumed stream replays it (Last-Event-ID), and a
    // successful reconnection starts the SDK's attempt count afresh, so a server could have
    // Airlock inflate 64 MiB again and again, as fast as its own `retry:` asks.
    if (
      !tooLarge &&
      (isReconnectable || primed) &&
      !answered &&
      t._abortController &&
      !intentional()
    )
      t._scheduleReconnection(
        {
          resumptionToken: lastEventId,
          onresumptiontoken,
          replayMessageId,
          requestSignal,
          onRequestStreamEnd,
        },
        0,
      );
    else onRequestStreamEnd?.();
  };
  // The unfinished event's share of the in-flight budget (upstream/in-flight.ts): all it may hold
  // while a piece is fed (an event it completes is parsed during the feed), then what is left.
  const inFlight = new InFlight();
  const pending = new Unfinished();
  const read = (chunk: string) => {
    if (tooLarge) return;
    const over = inFlight.hold(pending.held + chunk.length);
    if (over) {
      tooLarge = over;
      return body.cut(over);
    }
    // The parser refuses input once over its bound (it throws); the cut connection ends the rest.
    parser.feed(chunk);
    // Not after a cut during the feed (an event over a bound): `end` has already let go of it all.
    if (!tooLarge) inFlight.hold(pending.after(chunk));
  };
  body.read(read, (ended) => {
    inFlight.release();
    finish(ended);
  });
}

/**
 * The check the stock reader does with zod (`JSONRPCMessageSchema`, SDK 2.4), without zod for the
 * messages servers send: a request, notification, result or error of JSON-RPC 2.0 whose members
 * are exactly the schema's (the schemas are strict), ids and codes integers or strings, `_meta`
 * where present an object. Whatever the fast path is not sure of — members it does not know, a
 * related-task or server-info `_meta` entry (zod rewrites those), anything malformed — goes to the
 * SDK's own zod parse, which accepts or throws as the stock reader would. Params and results are
 * checked by method later. line-reader.property.test.ts holds it equal to zod over generated input.
 */
export function jsonRpcMessage(v: unknown): JSONRPCMessage {
  if (isObject(v) && v.jsonrpc === '2.0' && plain(v)) return v as unknown as JSONRPCMessage;
  try {
    return parseJSONRPCMessage(v);
  } catch (err) {
    // zod's own text is a JSON dump of every issue; the first says enough.
    const issue = (err as { issues?: { path?: PropertyKey[]; message?: string }[] }).issues?.[0];
    const where = issue
      ? ` (${issue.path?.map(String).join('.') || 'message'}: ${issue.message})`
      : '';
    throw new TypeError(`not a JSON-RPC 2.0 message${where}: ${JSON.stringify(v)?.slice(0, 120)}`, {
      cause: err,
    });
  }
}

/** Whether zod would take `v` as it is (true), or the answer is left to zod (false). */
function plain(v: Record<string, unknown>): boolean {
  let n = 1; // jsonrpc
  if ('id' in v) {
    if (!idOk(v.id)) return false;
    n++;
  }
  if (typeof v.method === 'string') {
    if ('params' in v) {
      if (!paramsOk(v.params)) return false;
      n++;
    }
    return Object.keys(v).length === n + 1;
  }
  if ('result' in v) {
    const r = v.result;
    if (!('id' in v) || !isObject(r)) return false;
    if ('_meta' in r && !(isObject(r._meta) && !(SERVER_INFO_META_KEY in r._meta))) return false;
    return Object.keys(v).length === n + 1;
  }
  const e = v.error;
  if (!isObject(e) || !Number.isSafeInteger(e.code) || typeof e.message !== 'string') return false;
  const members = 2 + ('data' in e ? 1 : 0);
  return Object.keys(e).length === members && Object.keys(v).length === n + 1;
}

const idOk = (id: unknown) => typeof id === 'string' || Number.isSafeInteger(id);

function paramsOk(p: unknown): boolean {
  if (!isObject(p)) return false;
  if (!('_meta' in p)) return true;
  const m = p._meta;
  if (!isObject(m) || RELATED_TASK_META_KEY in m) return false;
  return !('progressToken' in m) || idOk(m.progressToken);
}

/** The id of something shaped like an answer (`result` or `error` beside an id), if any. */
export function answerId(v: unknown): string | number | undefined {
  if (!isObject(v) || !('result' in v || 'error' in v)) return undefined;
  return typeof v.id === 'string' || typeof v.id === 'number' ? v.id : undefined;
}

/** Marks the error a malformed answer becomes (remote-source.ts words it for the agent). */
export const MALFORMED_ANSWER = 'airlock/malformed-answer';
/**
 * The mark's value: this process's own, so a server's error carrying `airlock/malformed-answer`
 * in its `data` is not taken for Airlock's (it would be worded as Airlock's, unmarked,
 * instead of as the server's words; upstream-error-voice.security.test.ts).
 */
export const MALFORMED_ANSWER_MARK = randomUUID();

export function malformedAnswerError(id: string | number, why: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: -32603,
      message: `not a valid JSON-RPC response: ${why}`,
      data: { [MALFORMED_ANSWER]: MALFORMED_ANSWER_MARK },
    },
  } as JSONRPCMessage;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
