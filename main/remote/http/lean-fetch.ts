import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Transform } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/client';
import { agentFor, where, type Where } from './upstream-agents.js';
import { streamLostHandler } from '../relay/relay-scope.js';
import { AnswerRefused } from '../upstream/answer-refused.js';
import { InFlight } from '../upstream/in-flight.js';
import { parseUpstream } from '../upstream/json-values.js';

/**
 * The upstream leg's HTTP client (issue 20): a `fetch` for the SDK's Streamable HTTP transport
 * built on node:http with a keep-alive agent, in place of undici's fetch and its web streams.
 * A profile of 5,000 passthrough calls put undici and web streams at over a fifth of Airlock's
 * CPU; a plain node:http request costs a fraction of that.
 *
 * It speaks only what the transport asks for: a string body, a Headers/record of headers, an
 * abort signal, no redirects followed (the transport's own same-origin redirect handling reads
 * the 3xx like any other response). Anything else goes to the global fetch unchanged. The
 * response's body stays a Node stream (`LeanBody`) for lean-transport.ts to read without web
 * streams; `text()` and `json()` read it for the rest.
 *
 * Failures look like undici's, because upstream.ts classifies them that way: a network error
 * rejects with `TypeError('fetch failed')` whose `cause` carries the errno code; an abort rejects
 * with the signal's reason; a body cut short errors with `TypeError('terminated')`.
 */
export class LeanBody {
  /** Set by `read`: ends the reading at once (`cut`). */
  private stop: ((reason: Error) => void) | undefined;

  constructor(
    readonly res: IncomingMessage,
    /** The stream-lost callback of the call that sent this POST (relay-scope.ts), if any. */
    readonly lost: ((err: unknown) => void) | undefined,
    private readonly done: () => void,
    /** The request's own cancellation (2026-07-28: closing the stream cancels), if any. */
    readonly requestSignal?: AbortSignal,
  ) {}

  /**
   * Reads the body as text: `chunk` for each piece, then `end` once — with nothing when the body
   * ended, or with the error when it was cut short (the connection closed first, or a compressed
   * body did not decode). A gzip, deflate or brotli body is decoded, as fetch would.
   */
  read(chunk: (text: string) => void, end: (cut: unknown) => void): void {
    const res = this.res;
    const decoder = decoderFor(res.headers['content-encoding']);
    const src = decoder ? res.pipe(decoder) : res;
    let over = false;
    const finish = (cut: unknown) => {
      if (over) return;
      over = true;
      this.done();
      end(cut);
    };
    src.setEncoding('utf8');
    // Nothing after `end`: a decoder still holds what it was given before a cut (an abort, a
    // closed connection) and hands it over later; counted then, it would hold a share of the
    // in-flight budget (upstream/in-flight.ts) that nothing gives back.
    src.on('data', (text: string) => void (over ? undefined : chunk(text)));
    src.on('end', () => finish(undefined));
    res.on('error', ignore); // 'close' below reports the cut
    res.on('close', () => {
      if (!res.complete) finish(terminated(undefined));
    });
    decoder?.on('error', (err) => {
      res.destroy();
      finish(terminated(err));
    });
    this.stop = (reason) => {
      // The decoder too: it may hold the whole compressed body already, and would go on inflating.
      decoder?.destroy();
      res.destroy();
      finish(terminated(reason));
    };
  }

  /** Stops reading: the connection is closed, and `end` gets a cut body whose cause is `reason`. */
  cut(reason: Error): void {
    this.stop?.(reason);
  }
}

const ignore = () => {};

/**
 * The most text one upstream message may hold once decoded: a JSON answer's whole body, or one
 * event of an event stream (lean-transport.ts). Nothing bounded either before: a hostile server's
 * 700 KB gzip answer decoded to more than V8's longest string, and the `RangeError` it threw in a
 * stream listener ended the whole process, every agent's gateway with it. The stdio leg has the
 * SDK's 10 MB bound per line (stdio/line-reader.ts); this one is higher because a remote server's
 * resource or image result may legitimately be large, and far below V8's 512 Mi characters.
 * What the text parses into is bounded by upstream/json-values.ts, and how much text all messages
 * being read at once may hold by upstream/in-flight.ts.
 */
export const UPSTREAM_MESSAGE_LIMIT = 64 * 1024 * 1024;

/** The error a message over UPSTREAM_MESSAGE_LIMIT fails with; it names the limit. */
export function upstreamMessageTooLarge(): Error {
  return new AnswerRefused(
    `the server sent a message larger than ${UPSTREAM_MESSAGE_LIMIT / (1024 * 1024)} MiB; Airlock stopped reading it`,
  );
}

/** The content codings fetch decodes and this client therefore asks for. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

function decoderFor(coding: string | undefined): Transform | undefined {
  const c = coding?.trim().toLowerCase();
  if (!c || c === 'identity') return undefined;
  const zlib = process.getBuiltinModule('node:zlib');
  // Flushing each piece as it arrives: a compressed event stream must not wait for more input.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (c === 'gzip' || c === 'x-gzip') return zlib.createGunzip(flush);
  if (c === 'deflate') return zlib.createInflate(flush);
  if (c === 'br')
    return zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  return undefined; // not one we asked for: passed on as it is, as fetch does
}

/** Just what the SDK transport and the OAuth session read of a response's headers. */
class LeanHeaders {
  constructor(private readonly h: IncomingMessage['headers']) {}
  get(name: string): string | null {
    const v = this.h[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string): boolean {
    return this.h[name.toLowerCase()] !== undefined;
  }
  forEach(cb: (value: string, key: string) => void): void {
    for (const k of Object.keys(this.h)) cb(this.get(k) ?? '', k);
  }
  *entries(): IterableIterator<[string, string]> {
    for (const k of Object.keys(this.h)) yield [k, this.get(k) ?? ''];
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

class LeanResponse {
  readonly type = 'basic';
  readonly redirected = false;
  readonly headers: LeanHeaders;
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  private text$: Promise<string> | undefined;

  /** `body` null: the empty 202 that stands for a request its own signal cancelled (see `send`). */
  constructor(
    readonly url: string,
    readonly body: LeanBody | null,
  ) {
    this.status = body ? (body.res.statusCode ?? 0) : 202;
    this.statusText = body?.res.statusMessage ?? '';
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = new LeanHeaders(body?.res.headers ?? {});
  }

  text(): Promise<string> {
    return this.read(false);
  }

  /**
   * The body as text, its share of the in-flight budget (upstream/in-flight.ts) held while it is
   * read and, with `keep`, until the caller has parsed it and calls `release`.
   */
  private read(keep: boolean): Promise<string> {
    const body = this.body;
    if (!body) return Promise.resolve('');
    this.text$ ??= new Promise<string>((resolve, reject) => {
      let out = '';
      let tooLarge: Error | undefined;
      const inFlight = (this.inFlight = new InFlight());
      const settle = (then: () => void) => {
        if (!keep || tooLarge) inFlight.release();
        then();
      };
      body.read(
        (chunk) => {
          if (tooLarge) return;
          const n = out.length + chunk.length;
          tooLarge = n <= UPSTREAM_MESSAGE_LIMIT ? inFlight.hold(n) : upstreamMessageTooLarge();
          if (!tooLarge) return void (out += chunk);
          out = '';
          body.cut(tooLarge);
        },
        (cut) =>
          settle(() => {
            if (tooLarge) reject(tooLarge);
            else if (cut === undefined) resolve(out);
            else if (body.requestSignal?.aborted) resolve('');
            else reject(cut as Error);
          }),
      );
    });
    return this.text$;
  }

  /** The body's share of the in-flight budget, once it is read (an event stream's is its reader's). */
  private inFlight: InFlight | undefined;

  async json(): Promise<unknown> {
    try {
      const text = await this.read(true);
      // Cancelled by its own signal mid-body: nothing to deliver (an empty batch), and no error —
      // the caller already gave up on it, as the SDK's own requestSignal handling does.
      if (this.body?.requestSignal?.aborted) return [];
      return parseUpstream(text);
    } finally {
      this.inFlight?.release();
    }
  }
}

/**
 * The header that names a request's own cancellation signal (lean-transport.ts): it never leaves
 * this process. The SDK would otherwise join that signal and the transport's long-lived one with
 * `AbortSignal.any` on every 2026-07-28 request, whose bookkeeping on the long-lived signal grew
 * the heap by ≈ 270 B per call here (issue 20: memory flat over long runs).
 */
export const REQUEST_TAG = 'x-airlock-request-tag';

/**
 * A fetch that adds `extra` headers (the Authorization header among them) to every request.
 * `requestSignal(tag)` looks up the own signal of a request sent with REQUEST_TAG.
 *
 * `extra` is read once, here, its names lower-cased for good rather than on every request
 * (issue 34): a connection's headers are fixed for its life — a change of them is a new
 * connection (remote-loosening.ts), with a new transport and fetch.
 */
export function leanFetch(
  extra: Record<string, string>,
  requestSignal?: (tag: string) => AbortSignal | undefined,
): LeanFetchLike {
  const names = Object.keys(extra);
  const added = { names: names.map((k) => k.toLowerCase()), values: names.map((k) => extra[k]!) };
  const f: FetchLike = (input, init) => {
    const url = typeof input === 'string' ? new URL(input) : input;
    const body = init?.body;
    const plain = body === undefined || body === null || typeof body === 'string';
    if (!plain || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return fetch(url, { ...init, headers: withExtra(init?.headers, added) });
    const out = headerRecord(init?.headers, added);
    const own = out.tag === undefined ? undefined : requestSignal?.(out.tag);
    const method = init?.method ?? 'GET';
    return request(url, method, out.headers, body ?? undefined, init?.signal ?? undefined, own);
  };
  // The extra headers never name the tag (it would be taken for the request's own): then `post`
  // is `f` itself, whose record picks it out.
  const tagged = added.names.includes(REQUEST_TAG);
  return Object.assign(f, {
    post(url: URL, headers: Record<string, string>, body: string, signal?: AbortSignal) {
      if (tagged || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        return f(url, { method: 'POST', headers, body, signal });
      for (let i = 0; i < added.names.length; i++) headers[added.names[i]!] = added.values[i]!;
      return request(url, 'POST', headers, body, signal, undefined);
    },
  });
}

/**
 * A `leanFetch`, and its POST for a caller that has built the request's headers itself
 * (lean-send.ts): `headers` a record of its own — lower-case names, no REQUEST_TAG — which the
 * extra headers are set on in place rather than copied into a second record (issue 34). The same
 * request as `fetch(url, { method: 'POST', headers, body, signal })` sends.
 */
export interface LeanFetchLike extends FetchLike {
  post(
    url: URL,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal | undefined,
  ): Promise<Response>;
}

/** The request `f` sends, once its headers are one record with lower-case names. */
function request(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  transport: AbortSignal | undefined,
  own: AbortSignal | undefined,
): Promise<Response> {
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  headers['accept-encoding'] ??= ACCEPT_ENCODING;
  // fetch sent "node"; some web application firewalls refuse requests with no User-Agent at all.
  headers['user-agent'] ??= 'airlock';
  const lost = method === 'POST' ? streamLostHandler() : undefined;
  return send(url, method, headers, body, { transport, own }, lost, true);
}

/** The extra headers of a `leanFetch`, names lower-cased, in their given order. */
interface Added {
  names: string[];
  values: string[];
}

interface Signals {
  /** The transport's: closing the transport aborts every request (the fetch rejects). */
  transport: AbortSignal | undefined;
  /** The request's own: the request is dropped quietly (its caller has already given up). */
  own: AbortSignal | undefined;
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signals: Signals,
  lost: ((err: unknown) => void) | undefined,
  mayRetry: boolean,
): Promise<Response> {
  const { transport: signal, own } = signals;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    if (own?.aborted) return resolve(new LeanResponse(url.href, null) as unknown as Response);
    const { agent, request } = agentFor(url);
    const w = where(url);
    const options: RequestOptions = { ...w.target, method, headers: headList(headers, w), agent };
    let answered = false;
    const req: ClientRequest = request(options, (res) => {
      answered = true;
      const lean = new LeanBody(res, lost, unwire, own);
      resolve(new LeanResponse(url.href, lean) as unknown as Response);
    });
    const onAbort = () => {
      req.destroy(signal?.reason as Error);
      if (!answered) reject(signal?.reason as Error);
    };
    const onOwnAbort = () => {
      req.destroy();
      if (!answered) resolve(new LeanResponse(url.href, null) as unknown as Response);
    };
    const watchers = signal ? watchersOf(signal) : undefined;
    watchers?.add(onAbort);
    const unwire = () => {
      watchers?.delete(onAbort);
      own?.removeEventListener('abort', onOwnAbort);
    };
    own?.addEventListener('abort', onOwnAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) return; // the body's reader sees the cut
      unwire();
      if (signal?.aborted) return reject(signal.reason as Error);
      if (own?.aborted) return resolve(new LeanResponse(url.href, null) as unknown as Response);
      // A kept-alive socket the server closed just as we reused it (Node's http docs,
      // "request.reusedSocket"): such a server drops the request unread, so one retry on a fresh
      // socket is the usual cure. Not for a tool call, though: if the server did read it, a retry
      // would run a side effect twice; the call fails as "may or may not have run" instead.
      if (
        mayRetry &&
        req.reusedSocket &&
        (err.code === 'ECONNRESET' || err.code === 'EPIPE') &&
        !body?.includes('"tools/call"')
      )
        return resolve(send(url, method, headers, body, signals, lost, false));
      reject(Object.assign(new TypeError('fetch failed'), { cause: err }));
    });
    req.end(body);
  });
}

/**
 * The callbacks run when the transport's signal aborts: a request adds its own and deletes it
 * when done. The transport's signal lives as long as the connection, so each request adding and
 * removing an EventTarget listener on it cost more than the bookkeeping needs (issue 34, ≈ 0.01 ms
 * a call): one listener per signal hands the abort to the requests in flight, in the order they
 * were sent.
 */
const inFlight = new WeakMap<AbortSignal, Set<() => void>>();
function watchersOf(signal: AbortSignal): Set<() => void> {
  let callbacks = inFlight.get(signal);
  if (callbacks === undefined) {
    const set = (callbacks = new Set<() => void>());
    inFlight.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        for (const f of [...set]) f();
        set.clear();
      },
      { once: true },
    );
  }
  return callbacks;
}

/**
 * The headers as node:http takes them fastest: a flat list of names and values, with the Host
 * header it would add itself. Given a record, ClientRequest calls `setHeader` for each (its name
 * validated and lower-cased, an entry stored in a map of its own, the map walked again to write
 * the head); given a list it writes the head at once, each name and value validated as before
 * (Node 22, lib/_http_client.js and _http_outgoing.js `_storeHeader`) — about a third of
 * building the request (issue 34). The head written is the same, Host where ClientRequest puts
 * it: after the request's own headers. Not where ClientRequest would do more with a record: a
 * Host of the request's own (it also names the TLS server), user info in the URL (Basic
 * authorization), a `Content-Disposition` (re-encoded once the length is known); those requests
 * keep the record. lean-fetch.head.property.test.ts holds the heads equal.
 */
export function headList(
  headers: Record<string, string>,
  w: Where,
): Record<string, string> | string[] {
  if (
    w.target.auth !== undefined ||
    headers.host !== undefined ||
    headers['content-disposition'] !== undefined
  )
    return headers;
  const list: string[] = [];
  for (const k in headers) list.push(k, headers[k]!);
  list.push('Host', w.host);
  return list;
}

/** The error a body read cut short by the network gets, as undici words it. */
export function terminated(cause: unknown): TypeError {
  return Object.assign(new TypeError('terminated'), cause === undefined ? {} : { cause });
}

/**
 * The request's headers as one record with lower-case names, `added` over the request's own, and
 * REQUEST_TAG taken out (it never leaves this process) — left out as the record is built rather
 * than deleted after: a `delete` of a member it has (a 2026-07-28 request's tag) turns the record
 * into a dictionary-mode object, slower for node:http to read key by key (issue 34).
 */
function headerRecord(
  h: ConstructorParameters<typeof Headers>[0],
  added: Added,
): { headers: Record<string, string>; tag: string | undefined } {
  const out: Record<string, string> = {};
  let tag: string | undefined;
  const put = (k: string, v: string) => {
    if (k === REQUEST_TAG) tag = v;
    else out[k] = v;
  };
  if (h instanceof Headers) h.forEach((v, k) => put(k, v));
  else if (Array.isArray(h)) for (const [k, v] of h as [string, string][]) put(k.toLowerCase(), v);
  else if (h) {
    const record = h as Record<string, unknown>;
    for (const k of Object.keys(record)) put(k.toLowerCase(), String(record[k]));
  }
  for (let i = 0; i < added.names.length; i++) put(added.names[i]!, added.values[i]!);
  return { headers: out, tag };
}

function withExtra(h: ConstructorParameters<typeof Headers>[0], added: Added): Headers {
  const headers = new Headers(h);
  headers.delete(REQUEST_TAG);
  for (let i = 0; i < added.names.length; i++) headers.set(added.names[i]!, added.values[i]!);
  return headers;
}
