/**
 * A small fetch on node:http(s) whose connection is judged by an AddressRule at connect time
 * (address-guard.ts): for the OAuth requests of a sign-in, a token refresh and a revocation.
 * The global fetch (undici) resolves the name itself and takes no `lookup`, so a name could be
 * judged on one answer and connected on another (DNS rebinding). Never follows a redirect: the
 * caller (oauth/login-discovery.ts guardedFetch) judges each hop before asking for it.
 */
import type { Agent, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/client';
import { guardedLookup, refusedLiteral, type AddressRule, type Resolver } from './address-guard.js';
import { http } from '../../platform/node-http.js';
import { IDLE_SOCKET_MS } from './upstream-agents.js';

/** An OAuth answer is small JSON; a server sending more is cut off there. */
export const PINNED_RESPONSE_LIMIT = 1024 * 1024;

/**
 * An OAuth request not answered in full this long fails. The global fetch used before gave up on
 * a connection after 10 s and on an answer after 300 s (undici's defaults); with no limit, a
 * token endpoint that accepts the connection and never answers held the single-flight refresh
 * (oauth/token-refresh.ts), which passes no signal, and every request waiting on it, forever.
 * Not for `stream` (a server's event stream is open for as long as the connection).
 */
export const PINNED_TIMEOUT_MS = 30_000;

/** Statuses whose Response may not have a body (Fetch standard, "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `stream`: the body is handed on as it arrives, unbounded here (the MCP transports bound their
 * messages themselves: bounded-sse.ts, json-values.ts) — for the connection to a server the
 * user added by a host name whose transport runs on fetch (upstream.ts: legacy SSE, and the
 * stock Streamable HTTP transport when the lean one cannot plug in).
 */
export function pinnedFetch(
  rule: AddressRule,
  resolve: Resolver,
  o: { stream?: boolean } = {},
): FetchLike {
  const lookup = guardedLookup(rule, resolve);
  // Stream mode carries a connection's every request (each JSON-RPC POST of the legacy SSE
  // transport): a fresh TCP and TLS handshake for each was a round trip or two more per tool call
  // than the global fetch's pool cost. Its sockets are kept alive in agents of this fetch's own,
  // so each was judged by this fetch's rule — a shared pool could hand it a socket another rule
  // let through (one to `localhost`, opened for a server the user added so). Idle sockets close
  // as node:http's do (unreferenced, after IDLE_SOCKET_MS). OAuth requests stay one connection
  // each: their rule differs from request to request.
  const agents = o.stream ? new Map<string, Agent>() : undefined;
  const agentFor = (url: URL): Agent | false => {
    if (!agents) return false;
    let a = agents.get(url.protocol);
    if (!a) {
      const Of =
        url.protocol === 'https:' ? process.getBuiltinModule('node:https').Agent : http.Agent;
      agents.set(url.protocol, (a = new Of({ keepAlive: true, timeout: IDLE_SOCKET_MS })));
    }
    return a;
  };
  return (input, init) =>
    new Promise<Response>((settle, fail) => {
      let timer: NodeJS.Timeout | undefined;
      const resolveResponse = (r: Response) => {
        clearTimeout(timer);
        settle(r);
      };
      const reject = (e: unknown) => {
        clearTimeout(timer);
        fail(e as Error);
      };
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return reject(new TypeError(`fetch failed: ${url.protocol} is not http(s)`));
      const literal = refusedLiteral(url.hostname, rule);
      if (literal) return reject(Object.assign(new TypeError('fetch failed'), { cause: literal }));
      const headers = new Headers(init?.headers);
      let body = init?.body;
      if (body instanceof URLSearchParams) {
        if (!headers.has('content-type'))
          headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
        body = body.toString();
      }
      if (body !== undefined && body !== null && typeof body !== 'string')
        return reject(new TypeError('fetch failed: only string and form bodies are sent here'));
      if (!headers.has('user-agent')) headers.set('user-agent', 'airlock');
      const request =
        url.protocol === 'https:' ? process.getBuiltinModule('node:https').request : http.request;
      const req = request(
        url,
        {
          method: init?.method ?? 'GET',
          headers: Object.fromEntries(headers),
          agent: agentFor(url),
          lookup,
          ...(init?.signal ? { signal: init.signal } : {}),
        },
        (res) =>
          o.stream
            ? resolveResponse(streamed(res, url.href))
            : collect(res, url.href, resolveResponse, reject),
      );
      if (!o.stream)
        timer = setTimeout(() => {
          const err = Object.assign(
            new Error(`no answer from ${url.origin} within ${PINNED_TIMEOUT_MS / 1000} s`),
            { code: 'ETIMEDOUT' },
          );
          req.destroy(err);
          reject(Object.assign(new TypeError('fetch failed'), { cause: err }));
        }, PINNED_TIMEOUT_MS);
      req.on('error', (err) => {
        if (init?.signal?.aborted) return reject(init.signal.reason as Error);
        reject(Object.assign(new TypeError('fetch failed'), { cause: err }));
      });
      req.end(body ?? undefined);
    });
}

function streamed(res: IncomingMessage, url: string): Response {
  const status = res.statusCode ?? 0;
  const body = NULL_BODY.has(status)
    ? null
    : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
  if (body === null) res.resume();
  return answer(res, url, body);
}

function answer(
  res: IncomingMessage,
  url: string,
  body: ConstructorParameters<typeof Response>[0],
): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const r = new Response(body, {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    headers,
  });
  Object.defineProperty(r, 'url', { value: url });
  return r;
}

function collect(
  res: IncomingMessage,
  url: string,
  done: (r: Response) => void,
  fail: (e: Error) => void,
): void {
  const parts: Buffer[] = [];
  let size = 0;
  res.on('data', (b: Buffer) => {
    size += b.length;
    if (size > PINNED_RESPONSE_LIMIT) {
      res.destroy();
      return fail(
        new TypeError(
          `the answer of ${new URL(url).origin} is over ${PINNED_RESPONSE_LIMIT} bytes`,
        ),
      );
    }
    parts.push(b);
  });
  res.on('error', (err) => fail(Object.assign(new TypeError('terminated'), { cause: err })));
  res.on('end', () =>
    done(answer(res, url, NULL_BODY.has(res.statusCode ?? 0) ? null : Buffer.concat(parts))),
  );
}
