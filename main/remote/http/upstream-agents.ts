/** The upstream leg's keep-alive agents and request targets (lean-fetch.ts, issue 20 and 34). */
import type { Agent, IncomingMessage } from 'node:http';
import type { LookupFunction, Socket } from 'node:net';
import { http } from '../../platform/node-http.js';

let httpAgent: Agent | undefined;
let httpsAgent: Agent | undefined;

/**
 * An idle kept-alive socket is closed after 4 s, or a second before the server's own
 * `Keep-Alive: timeout=N` hint when that is sooner — undici's defaults. Without an idle timeout,
 * a socket the server closes at its idle timeout (5 s for Node servers) could be reused at that
 * very moment and reset under a tool call.
 */
export const IDLE_SOCKET_MS = 4_000;

/**
 * The agents' `keepSocketAlive` (Node 22, lib/_http_agent.js, the method Node documents for an
 * agent to override), as Node's own with `timeout: IDLE_SOCKET_MS` — the TCP keep-alive, the
 * unref, the server's hint (a socket the hint leaves a second or less is not kept), the idle
 * timeout set — but given to an agent without a `timeout` option (issue 34). With the option,
 * every request also listened for its socket's timeout, and its response's end zeroed the
 * socket's timeout (lib/_http_client.js `responseKeepAlive`), so the free socket got a new timer
 * and bound callback every call (`socket.setTimeout(0)`, then `setTimeout(4000)`): a Timeout per
 * call in the timer list, more work for the young generation's collections too
 * (docs/performance.md, "The upstream leg, wave 3 session 16"). Here the timer is set
 * once per socket and stays: node:net refreshes it on every read and write, so it still counts
 * idle time from the socket's last byte, and a socket in use that goes quiet that long only emits
 * 'timeout', which the agent acts on only for a free socket (it closes it), as before.
 * upstream-agents.test.ts holds the timer to one per socket and the idle sockets to closing.
 */
function keepSocketAlive(this: Agent & { keepAliveMsecs?: number }, socket: Socket): boolean {
  socket.setKeepAlive(true, this.keepAliveMsecs);
  socket.unref();
  let idle = IDLE_SOCKET_MS;
  let keep = true;
  // (Node joins a repeated Keep-Alive header into one string, as for every header but Set-Cookie.)
  const hint = (socket as { _httpMessage?: { res?: IncomingMessage } })._httpMessage?.res?.headers[
    'keep-alive'
  ] as string | undefined;
  const seconds = hint ? /^timeout=(\d+)/.exec(hint)?.[1] : undefined;
  if (seconds) {
    // Ends a moment before the server's own timeout, so a request never meets its close.
    const buffer = (this as { agentKeepAliveTimeoutBuffer?: number }).agentKeepAliveTimeoutBuffer;
    const ms = Math.max(Number.parseInt(seconds, 10) * 1000 - (buffer ?? 1000), 0);
    if (ms === 0) keep = false;
    else if (ms < idle) idle = ms;
  }
  if (socket.timeout !== idle) socket.setTimeout(idle);
  return keep;
}

function agent<A extends Agent>(a: A): A {
  a.keepSocketAlive = keepSocketAlive;
  return a;
}

interface Client {
  agent: Agent;
  request: typeof http.request;
}
let httpClient: Client | undefined;
let httpsClient: Client | undefined;

/**
 * A judged connection's agents (a `lookup` given: a server named by a host name), per lookup —
 * that is, per connection attempt (upstream.ts makes one per attempt). node:http's pool is keyed
 * by host and port (Agent.getName), and a socket taken from it is not looked up again: a shared
 * pool would hand a server recorded public (address-pin.ts) an idle socket that another rule
 * let onto the user's network — another server at the same host and port recorded private, a
 * probe, or this server's own earlier attempt under an answer since changed. The same keep-alive
 * within the connection, as for the unjudged ones.
 */
const judged = new WeakMap<LookupFunction, { http?: Client; https?: Client }>();

function judgedAgentFor(url: URL, lookup: LookupFunction): Client {
  let own = judged.get(lookup);
  if (!own) judged.set(lookup, (own = {}));
  if (url.protocol === 'https:') {
    const https = process.getBuiltinModule('node:https');
    return (own.https ??= {
      agent: agent(new https.Agent({ keepAlive: true })),
      request: https.request,
    });
  }
  return (own.http ??= {
    agent: agent(new http.Agent({ keepAlive: true })),
    request: http.request,
  });
}

/**
 * Keep-alive agents, one per scheme, made on first use (node:https loads TLS); for a judged
 * connection (`lookup`), that connection's own (judgedAgentFor).
 */
export function agentFor(url: URL, lookup?: LookupFunction): Client {
  if (lookup) return judgedAgentFor(url, lookup);
  if (url.protocol === 'https:') {
    if (httpsClient) return httpsClient;
    const https = process.getBuiltinModule('node:https');
    httpsAgent ??= agent(new https.Agent({ keepAlive: true }));
    return (httpsClient = { agent: httpsAgent, request: https.request });
  }
  httpAgent ??= agent(new http.Agent({ keepAlive: true }));
  return (httpClient ??= { agent: httpAgent, request: http.request });
}

/**
 * Where a request goes, as node:http options, made once per URL: `http.request(url)` converts the
 * URL on every call (urlToHttpOptions, ≈ 0.06 ms a call in a passthrough profile, issue 34). The
 * upstream leg asks for one or two URLs per server, so a small cache, dropped when it grows.
 */
const targets = new Map<string, Where>();
export function target(url: URL): RequestTarget {
  return where(url).target;
}

/** A URL's request target and the Host header node:http would give a request to it. */
export interface Where {
  target: RequestTarget;
  host: string;
}

export function where(url: URL): Where {
  let w = targets.get(url.href);
  if (!w) {
    if (targets.size >= 64) targets.clear();
    const t = requestTarget(url);
    w = { target: t, host: hostHeader(t, url.protocol === 'https:' ? 443 : 80) };
    targets.set(url.href, w);
  }
  return w;
}

/**
 * The Host header node:http's ClientRequest (Node 22, lib/_http_client.js) makes of a target when
 * the request's headers have none: the host name (`localhost` if empty), an IPv6 address
 * bracketed, and the port unless it is the agent's default (80, or 443 for https).
 * lean-fetch.head.property.test.ts holds the request heads equal.
 */
export function hostHeader(t: RequestTarget, defaultPort: number): string {
  let h = t.hostname || 'localhost';
  const colon = h.indexOf(':');
  if (colon !== -1 && h.includes(':', colon + 1) && h.charCodeAt(0) !== 91) h = `[${h}]`;
  const port = t.port || defaultPort;
  return port !== defaultPort ? `${h}:${port}` : h;
}

/** The members of `RequestOptions` a URL gives a request. */
export interface RequestTarget {
  protocol: string;
  hostname: string;
  path: string;
  port?: number;
  auth?: string;
}

/**
 * What `url.urlToHttpOptions` (Node 22, lib/internal/url.js) makes of a URL, only the members
 * `http.request` reads of it (ClientRequest: protocol, hostname, port, path, auth) and as an
 * ordinary object of a fixed shape: its null-prototype object also carries `hash`, `search`,
 * `pathname` and `href`, which every request copies twice more (ClientRequest's options copy and
 * the agent's) without reading them (issue 34). The same conversions: a bracketed IPv6 hostname
 * unbracketed, the port a number and only when the URL has one, the user info percent-decoded
 * (and a bad escape thrown as `URIError`, as there). upstream-agents.property.test.ts holds the
 * two equal, and the requests node:http makes of them too, over generated URLs.
 */
export function requestTarget(url: URL): RequestTarget {
  const { hostname, pathname, port, username, password, search } = url;
  const t: RequestTarget = {
    protocol: url.protocol,
    hostname: hostname && hostname[0] === '[' ? hostname.slice(1, -1) : hostname,
    path: `${pathname || ''}${search || ''}`,
  };
  if (port !== '') t.port = Number(port);
  if (username || password)
    t.auth = `${decodeURIComponent(username)}:${decodeURIComponent(password)}`;
  return t;
}
