import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type AuthProvider,
  type FetchLike,
  type JSONRPCMessage,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { LeanBody, type LeanFetchLike } from './lean-fetch.js';
import { jsonRpcMessage, MALFORMED_ANSWER, MALFORMED_ANSWER_MARK } from './lean-transport.js';

/**
 * The POST of a 2025-era `tools/call` without the SDK transport's per-send work (issue 34). The
 * SDK's `_send` (SDK 2.4, client/streamableHttp.ts) checks every outgoing message with zod two or
 * three times (is it `initialize`, is it a request for the body-derived 2026 headers), wraps the
 * fetch in its redirect policy and parses the content type with a library; a profile of 5,000
 * passthrough calls put that at about a tenth of a millisecond per call. For a tools/call none of
 * that changes what is sent: the same common headers (bearer token from the auth provider,
 * session, protocol version), the same body, the same fetch (lean-fetch.ts, DPoP included when
 * the provider has it).
 *
 * Only the plain answer is read here: a 200 event stream (given to the transport's own SSE
 * reader, lean-transport.ts), a 200 JSON answer (checked by shape, as the SSE reader checks each
 * event; a malformed one fails the call as the SDK's zod parse does) and a 202. Any other answer — an error status, 401 and 403 with their sign-in and
 * step-up, a redirect, a stale session, an unexpected content type — is handed, unread, to the
 * SDK's own `_send`, whose fetch returns this response first: the SDK words and handles it as it
 * would have, with nothing sent twice unless the SDK itself would send it again.
 */
export interface SendInternals {
  _url: URL;
  _fetch?: FetchLike;
  _requestInit?: RequestInit;
  _authProvider?: AuthProvider;
  _sessionId?: string;
  _protocolVersion?: string;
  _commonHeaders(): Promise<Headers>;
  _send(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
    isAuthRetry: boolean,
  ): Promise<void>;
  _handleSseStream(stream: unknown, options: object, isReconnectable: boolean): void;
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
}

/** Whether this SDK transport has the members a lean send uses (else every send is the SDK's). */
export function leanSendPresent(t: object): boolean {
  const i = t as Partial<SendInternals>;
  return (
    i._url instanceof URL &&
    typeof i._fetch === 'function' &&
    typeof i._commonHeaders === 'function' &&
    typeof i._send === 'function' &&
    // (message, options, isAuthRetry, stepUpRetries = 0): a default does not count.
    i._send.length === 3 &&
    typeof i._handleSseStream === 'function' &&
    // What `_commonHeaders` reads, which the lean send reads itself (fields of the SDK's class).
    '_authProvider' in i &&
    '_sessionId' in i &&
    '_protocolVersion' in i
  );
}

/** Whether `message` is a 2025-era tools/call the lean send takes. */
export function plainCall(
  message: JSONRPCMessage | JSONRPCMessage[],
  options: TransportSendOptions | undefined,
): message is JSONRPCMessage {
  const m = message as { method?: unknown; id?: unknown; params?: { _meta?: object } };
  return (
    m.method === 'tools/call' &&
    m.id !== undefined &&
    options?.resumptionToken === undefined &&
    options?.requestSignal === undefined &&
    options?.headers === undefined &&
    // A 2026-07-28 envelope claim brings body-derived headers (Mcp-Method, Mcp-Name): the SDK's.
    (m.params?._meta === undefined || !(PROTOCOL_VERSION_META_KEY in m.params._meta))
  );
}

export async function leanSend(
  transport: object,
  message: JSONRPCMessage,
  options: TransportSendOptions | undefined,
): Promise<void> {
  const t = transport as SendInternals;
  let response: Response;
  try {
    const common = commonHeaders(t);
    const headers = common instanceof Promise ? await common : common;
    const body = JSON.stringify(message);
    const signal = (t as { _abortController?: AbortController })._abortController?.signal;
    // The record just built is the request's own: lean-fetch.ts sends it as it is, without an
    // init object and a second record (issue 34). A fetch that is not lean-fetch's (the SDK wraps
    // it for DPoP) or a transport with a `requestInit` takes the init as the SDK would give it.
    const f = t._fetch as Partial<LeanFetchLike> & FetchLike;
    response = await (t._requestInit === undefined && typeof f.post === 'function'
      ? f.post(t._url, headers, body, signal)
      : f(t._url, { ...t._requestInit, method: 'POST', headers, body, signal }));
  } catch (err) {
    t.onerror?.(err as Error);
    throw err;
  }
  return answered(t, response, message, options);
}

/**
 * What `leanSend` does with the response once it has it: also direct-call.ts's, for every answer
 * but the plain JSON one it reads itself.
 */
export async function answered(
  t: SendInternals,
  response: Response,
  message: JSONRPCMessage,
  options: TransportSendOptions | undefined,
): Promise<void> {
  const type = essence(response.headers.get('content-type'));
  const plain =
    response.status === 202 ||
    (response.status === 200 && (type === 'text/event-stream' || type === 'application/json'));
  if (!plain || !(response.body instanceof LeanBody)) return stock(t, response, message, options);
  try {
    if (response.status === 202) {
      await response.text().catch(() => {});
      return;
    }
    if (type === 'text/event-stream') {
      const { onresumptiontoken, onRequestStreamEnd } = options ?? {};
      t._handleSseStream(response.body, { onresumptiontoken, onRequestStreamEnd }, false);
      return;
    }
    const data = (await response.json()) as unknown;
    // All checked before any is delivered, as the SDK parses the whole batch first.
    const messages = (Array.isArray(data) ? data : [data]).map(checked);
    for (const message of messages) t.onmessage?.(message);
  } catch (err) {
    t.onerror?.(err as Error);
    throw err;
  }
}

type HeaderRecord = Record<string, string>;

/**
 * The headers the SDK's `_send` puts on a 2025-era tools/call (SDK 2.4: `_commonHeaders()`, then
 * content-type and accept), as a plain record with lower-case names, without an undici `Headers`
 * built, set, read and then copied into a record again by the fetch (issue 34: about a tenth of
 * the leg's own time). A transport with `requestInit` headers of its own (Airlock never gives
 * one: its extra headers ride on the fetch) takes the SDK's `_commonHeaders()` itself, so their
 * merging stays the SDK's. Synchronous unless there is an auth provider to ask for its token.
 * lean-send.property.test.ts holds the headers sent equal to the SDK's over generated tokens.
 */
export function commonHeaders(t: SendInternals): HeaderRecord | Promise<HeaderRecord> {
  if (t._requestInit?.headers !== undefined) return t._commonHeaders().then(fromSdkHeaders);
  const provider = t._authProvider;
  if (!provider) return plainHeaders(t, undefined);
  // A provider that can tell its token at once (OAuthSession.tokenNow) spares the call a promise:
  // every URL server without a static token has one, signed in or not (remote-manager.ts).
  const sync = provider as Partial<{ tokenNow(): string | undefined | null }>;
  const known = typeof sync.tokenNow === 'function' ? sync.tokenNow() : null;
  if (known !== null) return plainHeaders(t, known);
  return (async () => {
    let token: string | undefined;
    try {
      token = await provider.token();
    } catch (error) {
      throw markAuthSeamEscape(error);
    }
    return plainHeaders(t, token);
  })();
}

/**
 * The record itself, `token` (if any) as the bearer — in one function, not a `bearer` helper
 * beside it: issue 34 counts the functions a call runs.
 */
export function plainHeaders(t: SendInternals, token: string | undefined): HeaderRecord {
  const out: HeaderRecord = {};
  if (token) out.authorization = headerValue('authorization', `Bearer ${token}`);
  if (t._sessionId) out['mcp-session-id'] = headerValue('mcp-session-id', t._sessionId);
  if (t._protocolVersion)
    out['mcp-protocol-version'] = headerValue('mcp-protocol-version', t._protocolVersion);
  out['content-type'] = 'application/json';
  out.accept = ACCEPT;
  return out;
}

const ACCEPT = 'application/json, text/event-stream';

function fromSdkHeaders(headers: Headers): HeaderRecord {
  headers.set('content-type', 'application/json');
  const accept =
    headers
      .get('accept')
      ?.split(',')
      .map((s) => s.trim().toLowerCase()) ?? [];
  headers.set(
    'accept',
    [...new Set([...accept, 'application/json', 'text/event-stream'])].join(', '),
  );
  const out: HeaderRecord = {};
  headers.forEach((v, k) => (out[k] = v));
  return out;
}

/**
 * A header value as `Headers.set` stores it (Fetch standard, "normalize": leading and trailing
 * HTTP whitespace removed); one it would refuse (NUL, CR or LF inside) throws a TypeError, as it
 * does — without the value in the text, which may be a token.
 */
function headerValue(name: string, v: string): string {
  const n =
    HTTP_WS.test(v[0] ?? '') || HTTP_WS.test(v[v.length - 1] ?? '') ? v.replace(EDGES, '') : v;
  if (BAD_VALUE.test(n)) throw new TypeError(`Headers.set: an invalid ${name} header value.`);
  return n;
}
const HTTP_WS = /^[\t\n\r ]$/;
const EDGES = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const BAD_VALUE = /[\0\r\n]/;

/**
 * The SDK's mark on an error that escaped its auth seam (SDK 2.4, `markAuthSeamEscape`: a
 * registered symbol), which the client reads to word a failed token as an auth failure.
 */
function markAuthSeamEscape(error: unknown): unknown {
  if ((typeof error === 'object' && error !== null) || typeof error === 'function')
    try {
      Object.defineProperty(error, Symbol.for('mcp.authSeamEscape'), {
        value: true,
        configurable: true,
      });
    } catch {
      // a frozen error stays as it is, as in the SDK
    }
  return error;
}

/** The SDK's `_send`, whose first fetch is answered by `response` (already received, unread). */
function stock(
  t: SendInternals,
  response: Response,
  message: JSONRPCMessage,
  options: TransportSendOptions | undefined,
): Promise<void> {
  let held: Response | undefined = response;
  const replay: FetchLike = (url, init) => {
    const r = held;
    held = undefined;
    return r ? Promise.resolve(r) : t._fetch!(url, init);
  };
  // Every other member read or written goes to the transport itself.
  const view = new Proxy(t, {
    get: (target, key) => (key === '_fetch' ? replay : Reflect.get(target, key, target)),
  });
  return t._send.call(view, message, options, false);
}

/**
 * A JSON answer's message, checked by shape. One that is not JSON-RPC fails the whole answer, as
 * the SDK's zod parse of the batch does: the call fails as malformed (malformed-answer.ts).
 */
export function checked(raw: unknown): JSONRPCMessage {
  try {
    return jsonRpcMessage(raw);
  } catch (err) {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `not a valid JSON-RPC response: ${(err as Error).message}`,
      { [MALFORMED_ANSWER]: MALFORMED_ANSWER_MARK },
    );
  }
}

/**
 * A response's media type essence, `mediaTypeEssence` below, with the two of a plain answer as
 * servers send them — no parameters, nothing to trim or lower-case — answered without the split,
 * trim and lower-casing' new strings (issue 34: once per call). lean-send.property.test.ts holds
 * it equal to `mediaTypeEssence` over generated content types.
 */
export function essence(header: string | null): string | undefined {
  if (header === 'text/event-stream' || header === 'application/json') return header;
  return mediaTypeEssence(header);
}

/**
 * A media type's essence (RFC 9110 §8.3.1: type/subtype, lowercased, parameters dropped) exactly
 * as the stock SDK client decides which reader an answer gets: SDK 2.4's `mediaTypeEssence`
 * (core-internal/src/shared/mediaType.ts, bundled in the client's dist), which takes the
 * `content-type` package's `parse(header).type` and, where that throws, the part before the first
 * `;` — unless a `,` follows it (two types joined) or it is empty. So `text/event-stream;
 * charset=utf-8` or `Application/JSON` is read as its type, and `text/event-stream; a=b, c` is
 * not. `content-type` is not a dependency of the app, so its two checks (`TYPE_REGEXP` and the
 * parameter loop over `PARAM_REGEXP`, content-type 1.0.5 `parse`) are repeated here; only a header
 * other than the two plain ones comes here (`essence`). direct-call.property.test.ts and
 * sdk-reader.property.test.ts hold the choice equal to the SDK's over generated types.
 */
export function mediaTypeEssence(header: string | null): string | undefined {
  if (!header) return undefined;
  const semi = header.indexOf(';');
  const type = (semi === -1 ? header : header.slice(0, semi)).trim();
  if (MEDIA_TYPE.test(type) && (semi === -1 || wellFormedParameters(header, semi)))
    return type.toLowerCase();
  const essence = type.toLowerCase();
  if (essence === '' || header.slice(essence.length).includes(',')) return undefined;
  return essence;
}

/** content-type 1.0.5: `TYPE_REGEXP` (RFC 7231 §3.1.1.1 media-type). */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/**
 * content-type 1.0.5: `PARAM_REGEXP` (RFC 7231 §3.1.1.1 `*( ";" parameter )`), made sticky. Its
 * \u000b is the library's own (it stands where RFC 7230's quoted-pair has HTAB), kept as it is.
 */
const PARAMETER =
  // eslint-disable-next-line no-control-regex
  /; *([!#$%&'*+.^_`|~0-9A-Za-z-]+) *= *("(?:[\u000b\u0020\u0021\u0023-\u005b\u005d-\u007e\u0080-\u00ff]|\\[\u000b\u0020-\u00ff])*"|[!#$%&'*+.^_`|~0-9A-Za-z-]+) */y;

/** Whether content-type's `parse` takes the parameters from `at` (the first `;`) to the end. */
function wellFormedParameters(header: string, at: number): boolean {
  // `parse` runs a global regex from `at` and throws unless each match starts where the last
  // ended and the last ends the header: a sticky regex walks the same matches.
  while (at < header.length) {
    PARAMETER.lastIndex = at;
    const m = PARAMETER.exec(header);
    if (m === null) return false;
    at += m[0].length;
  }
  return true;
}
