import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import {
  Client,
  InsufficientScopeError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type AuthProvider,
  type FetchLike,
  type Tool,
} from '@modelcontextprotocol/client';
import { connectWithin } from './connect-within.js';
import { budgeted, ListBudget, ListLimitError, MAX_SERVER_TOOLS } from './list-budget.js';
import { UpstreamClient } from './upstream-client.js';
import { connectStdio, type StdioTarget } from '../stdio/connect-stdio.js';
import { isStdioError } from '../stdio/errors.js';
import { leanTransport } from '../http/lean-transport.js';
import {
  AddressRefused,
  ANYWHERE,
  connectionRule,
  guardedLookup,
  systemResolver,
  type Resolver,
} from '../http/address-guard.js';
import type { AddressPin } from '../http/address-pin.js';
import { pinnedFetch } from '../http/pinned-fetch.js';
import { BoundedSSEClientTransport } from '../http/bounded-sse.js';
import type { SourceNotice } from '../../tools/features.js';
import type { RelayMethod } from '../../tools/relay.js';
import { streamLostHandler } from '../relay/relay-scope.js';
import { featureClientOptions, watchStream, wireFeatures } from './upstream-features.js';

/**
 * One connection to a remote MCP server, shared by RemoteSource and
 * `airlock remote probe` so the probe exercises exactly the client code the
 * gateway uses (issue 4, "Probe").
 *
 * - Version negotiation `auto`: a 2026-07-28 server gets the modern era, a
 *   2025 server the `initialize` handshake (MCP spec,
 *   "Versioning").
 * - Streamable HTTP first; on 400/404/405 to that POST, the legacy HTTP+SSE
 *   transport, as the spec's backwards-compatibility section prescribes
 *   (MCP 2025-03-26, transports, "Backwards Compatibility").
 * - Headers (including the bearer token) are added by a fetch wrapper so they
 *   reach every request of either transport, the SSE GET included.
 */
export type TransportKind = 'streamable-http' | 'sse' | 'stdio';

export interface UpstreamOptions {
  url: URL;
  /** Extra headers, the Authorization header included. Values are secrets. */
  headers: Record<string, string>;
  /** Use this transport only (an agent's own session follows the shared connection's). */
  only?: TransportKind;
  /** Bound on the whole handshake (both transports together). */
  timeoutMs: number;
  clientVersion: string;
  /**
   * False: plain 2025-era calls take lean-send's path rather than straight to the socket
   * (direct-call.ts); for tests and benches that compare the two. On unless turned off.
   */
  directCalls?: boolean;
  /** Called (debounced) when the server says its tool list changed. */
  onToolsChanged?: () => void;
  /** Log lines, resource updates and list changes the server sends on its own (issue 14). */
  onNotice?: (notice: SourceNotice) => void;
  /**
   * A server→client request (sampling, elicitation, roots). Runs in the async
   * context of the call that caused it, which is how the answer finds its agent.
   */
  onRelay?: (
    method: RelayMethod,
    params: Record<string, unknown>,
  ) => Promise<Record<string, unknown>>;
  /**
   * The server says a URL-mode elicitation it sent is complete
   * (`notifications/elicitation/complete`, MCP 2025-11-25): url-completions.ts.
   */
  /** `meta`: the notification's `_meta`, filtered as a result's is (untrusted.ts noticeMeta). */
  onElicitationComplete?: (elicitationId: string, meta?: Record<string, unknown>) => void;
  /** Transport-level trouble (a dropped stream, a failed reconnect). */
  onError?: (err: Error) => void;
  /** The connection closed without us closing it. */
  onClose?: () => void;
  /**
   * OAuth credentials (issue 10, main/remote/oauth/session.ts): the transport asks it for
   * the bearer token before every request and tells it about a 401.
   */
  authProvider?: AuthProvider;
  /** A local server (issue 15): start this process and speak MCP over its stdio instead of `url`. */
  stdio?: StdioTarget;
  /**
   * Ends a local server's start under way (Airlock stopping, the server removed): its process is
   * ended as a close ends it — stdin closed, SIGTERM, the grace, then SIGKILL (process-group.ts
   * endGroup) — not left to the SIGKILL safety net (stdio-config.ts end).
   */
  signal?: AbortSignal;
  /**
   * The resolver the connection connects by (address-guard.ts); the system's by default. Tests
   * make a name resolve to loopback with it.
   */
  resolve?: Resolver;
  /**
   * Where the server was first reached (address-pin.ts): a name first reached at a public address
   * may not lead to the user's network later. Absent (probe, tests): the network is allowed.
   */
  pin?: AddressPin;
}

export interface Upstream {
  client: Client;
  transport: TransportKind;
  protocolVersion: string | undefined;
  /** True while the transport holds a session id (2025 era, stateful server). */
  hasSession(): boolean;
  close(): Promise<void>;
}

export class UpstreamTimeoutError extends Error {
  override name = 'UpstreamTimeoutError';
  constructor(readonly ms: number) {
    super(`no answer within ${Math.round(ms / 1000)} s`);
  }
}

export async function connectUpstream(o: UpstreamOptions): Promise<Upstream> {
  if (o.stdio) return connectStdio(o, o.stdio);
  const deadline = Date.now() + o.timeoutMs;
  if (o.only) return attempt(o, o.only, deadline);
  try {
    return await attempt(o, 'streamable-http', deadline);
  } catch (err) {
    if (!fallsBackToSse(err)) throw err;
    try {
      return await attempt(o, 'sse', deadline);
    } catch {
      // The Streamable HTTP answer says more about a wrong URL than the SSE one does.
      throw err;
    }
  }
}

async function attempt(
  o: UpstreamOptions,
  kind: TransportKind,
  deadline: number,
): Promise<Upstream> {
  // A server the user named by a host name may not lead to this computer or a link-local address
  // (DNS rebinding, cloud metadata): judged on the address each socket connects to
  // (address-guard.ts connectionRule), nor — first reached at a public address — to the user's
  // network (address-pin.ts). A URL naming an IP or localhost is taken as given.
  const rule = connectionRule(o.url.href, o.pin);
  const resolve = o.resolve ?? systemResolver;
  const lookup = rule === ANYWHERE ? undefined : guardedLookup(rule, resolve);
  const baseFetch: FetchLike = lookup ? pinnedFetch(rule, resolve, { stream: true }) : fetch;
  const fetchWithHeaders: FetchLike = (url, init) => {
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(o.headers)) headers.set(k, v);
    // On the 2025 era the SDK hands every request its transport-wide signal; undici hangs a listener
    // on whatever signal it gets and drops it only at GC, so thousands of calls pile listeners onto
    // one signal (MaxListenersExceededWarning). A per-request follower signal keeps them per request.
    const signal = init?.signal ? AbortSignal.any([init.signal]) : undefined;
    const lost = init?.method === 'POST' ? streamLostHandler() : undefined;
    const response = baseFetch(url, { ...init, headers, ...(signal ? { signal } : {}) });
    return lost ? response.then((r) => watchStream(r, lost)) : response;
  };
  const client = new UpstreamClient(
    { name: 'airlock', title: 'Airlock', version: o.clientVersion },
    {
      // The legacy HTTP+SSE transport predates the 2026 era: no probe there.
      versionNegotiation: { mode: kind === 'sse' ? 'legacy' : 'auto' },
      ...featureClientOptions(o),
    },
  );
  wireFeatures(client, o);
  const auth = o.authProvider ? { authProvider: o.authProvider } : {};
  // Streamable HTTP reads its responses through the lean node:http leg (lean-transport.ts, issue
  // 20); the legacy SSE transport, and an SDK without the lean seam, use fetch. The legacy one
  // bounds its messages as the lean leg does (bounded-sse.ts).
  const transport =
    kind === 'sse'
      ? new BoundedSSEClientTransport(o.url, { fetch: fetchWithHeaders, ...auth })
      : (leanTransport(o.url, o.headers, o.authProvider, lookup, o.directCalls !== false) ??
        new StreamableHTTPClientTransport(o.url, { fetch: fetchWithHeaders, ...auth }));
  let closing = false;
  const remaining = Math.max(1, deadline - Date.now());
  try {
    await connectWithin(client, transport, remaining, () => new UpstreamTimeoutError(remaining));
  } catch (err) {
    closing = true;
    await client.close().catch(() => {});
    throw err;
  }
  client.onerror = (err) => {
    if (!closing) o.onError?.(err);
  };
  client.onclose = () => {
    if (!closing) o.onClose?.();
  };
  return {
    client,
    transport: kind,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    hasSession: () =>
      transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined,
    close: async () => {
      closing = true;
      await client.close().catch(() => {});
    },
  };
}

export { MAX_SERVER_TOOLS };

/**
 * Lists every tool (all pages), bounded in time and in count — the count checked as each page
 * arrives (list-budget.ts) — bypassing the client's response cache.
 */
export async function listAllTools(up: Upstream, timeoutMs: number): Promise<Tool[]> {
  const budget = new ListBudget('tools/list', MAX_SERVER_TOOLS);
  const { tools } = await up.client.listTools(
    undefined,
    budgeted({ timeout: timeoutMs, cacheMode: 'refresh' as const }, budget),
  );
  // The aggregate too: should an SDK update stop handing pages through with the options.
  if (tools.length > MAX_SERVER_TOOLS)
    throw new ListLimitError(
      `the server lists ${tools.length} tools; Airlock takes at most ${MAX_SERVER_TOOLS} from one server`,
    );
  return tools;
}

export function httpStatusOf(err: unknown): number | undefined {
  if (err instanceof UnauthorizedError) return 401;
  if (err instanceof InsufficientScopeError) return 403;
  if (err instanceof SdkError && err.data && typeof err.data === 'object') {
    const status = (err.data as { status?: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return undefined;
}

function fallsBackToSse(err: unknown): boolean {
  const status = httpStatusOf(err);
  return status === 400 || status === 404 || status === 405;
}

/**
 * The server no longer knows our session: it restarted or expired it. The
 * spec answer is 404 (MCP 2025-11-25, transports, "Session Management");
 * servers built on the 1.x SDK's example code (server-everything among them)
 * answer 400 "No valid session ID provided", so that counts too — but only
 * while we actually sent a session id.
 */
export function isStaleSession(err: unknown, hadSession: boolean): boolean {
  if (!hadSession) return false;
  const status = httpStatusOf(err);
  if (status === 404) return true;
  if (status !== 400) return false;
  const text = err instanceof SdkError ? `${err.message} ${JSON.stringify(err.data ?? '')}` : '';
  return /session/i.test(text);
}

/** A JSON-RPC error answered by the server: the server is alive. */
export function isServerAnswer(err: unknown): boolean {
  return err instanceof ProtocolError;
}

export function isTimeout(err: unknown): boolean {
  return (
    err instanceof UpstreamTimeoutError ||
    (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout)
  );
}

/** Short, user-facing reason for a failed connection, as the status line shows it. */
export function describeFailure(err: unknown): string {
  if (isStdioError(err)) return err.message;
  const status = httpStatusOf(err);
  if (status === 401) return '401 from server: the token is missing, wrong or expired';
  if (err instanceof InsufficientScopeError)
    return '403 from server: the token lacks a scope the server asks for';
  if (status === 403) return '403 from server: access denied';
  if (status === 404) return '404 from server: no MCP endpoint at this URL';
  if (status !== undefined) return `${status} from server`;
  if (err instanceof UpstreamTimeoutError) return `unreachable: ${err.message}`;
  if (isTimeout(err)) return 'unreachable: no answer in time';
  const refused = refusedAddress(err);
  if (refused)
    return `refused: ${refused.message}${refused.cls === 'local' ? ON_THIS_COMPUTER : refused.cls === 'private' ? MOVED_INTO_NETWORK : ''}`;
  const code = networkCode(err);
  if (code === 'UND_ERR_SOCKET') return `unreachable: ${innermost(err)}`;
  if (code) return `unreachable: ${NETWORK_TEXT[code] ?? code}`;
  if (err instanceof ProtocolError)
    return `error from server: ${textPrefix(err.message, 200, codeUnits)}`;
  const message = err instanceof Error ? err.message : String(err);
  return `error: ${textPrefix(message, 200, codeUnits)}`;
}

/**
 * The connection's address check refusing (address-guard.ts), however deep the SDK nests it. The
 * legacy SSE transport's EventSource keeps only the text of the fetch's failure (SseError's
 * message, "SSE error: TypeError: fetch failed: …"), so there the refusal is found by its text.
 */
function refusedAddress(err: unknown): { message: string; cls?: string } | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 6; depth++) {
    if (e instanceof AddressRefused) return { message: e.message, cls: e.cls };
    e = (e as { cause?: unknown }).cause;
  }
  const text = err instanceof Error ? err.message : '';
  const m = AddressRefused.pattern.exec(text);
  if (!m) return undefined;
  const cls = m[0].includes(', which is on this computer;')
    ? 'local'
    : m[0].includes(', which is on a private network;')
      ? 'private'
      : undefined;
  return { message: m[0], ...(cls ? { cls } : {}) };
}

/**
 * What to write instead when a name the user gave resolves to this computer (a name in
 * /etc/hosts, a `lvh.me`-style development name): the spellings connectionRule takes as given.
 */
const ON_THIS_COMPUTER =
  '. For a server on this computer, write localhost, 127.0.0.1 or a name ending in .localhost in its URL';

/**
 * A name first reached at a public address now answering one on the user's network
 * (address-pin.ts): what happened, and how the user — only the user — accepts it.
 */
const MOVED_INTO_NETWORK =
  '. Airlock first reached this server at a public address, so its name now leading into your network looks like DNS rebinding, and your credentials were not sent. If the server really moved onto your network, remove it and add it again (airlock remote remove, then airlock remote add), or give it a new URL';

const NETWORK_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection lost',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another host',
};

/** The errno-style code behind undici's "fetch failed" (it nests the cause). */
export function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = e instanceof SdkError ? undefined : (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (code.startsWith('E') || code.startsWith('UND_') || code.includes('CERT'))
    )
      return code;
    e = (e as { cause?: unknown }).cause;
  }
  if (
    err instanceof Error &&
    /terminated|fetch failed|other side closed|SSE stream disconnected|connection closed/i.test(
      err.message,
    )
  )
    return 'UND_ERR_SOCKET';
  return undefined;
}

/** The deepest cause's message ("bad port", "other side closed", …), for failures without an errno code. */
function innermost(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && (e as { cause?: unknown })?.cause; depth++)
    e = (e as { cause?: unknown }).cause;
  const message = e instanceof Error ? e.message : String(e);
  return /fetch failed|terminated/i.test(message)
    ? 'connection lost'
    : textPrefix(message, 120, codeUnits);
}
