/** The upstream leg's keep-alive agents and request targets (lean-fetch.ts, issue 20 and 34). */
import type { Agent, RequestOptions } from 'node:http';
import { http } from '../../platform/node-http.js';

let httpAgent: Agent | undefined;
let httpsAgent: Agent | undefined;

/**
 * An idle kept-alive socket is closed after 4 s, or a second before the server's own
 * `Keep-Alive: timeout=N` hint when that is sooner — undici's defaults. Node's agent honours the
 * hint only when a `timeout` is set; without one, a socket the server closes at its idle timeout
 * (5 s for Node servers) could be reused at that very moment and reset under a tool call.
 * (`timeout` on a socket in use only emits 'timeout', which nothing here acts on.)
 */
const AGENT = { keepAlive: true, timeout: 4_000 };

/** Keep-alive agents, one per scheme, made on first use (node:https loads TLS). */
export function agentFor(url: URL): { agent: Agent; request: typeof http.request } {
  if (url.protocol === 'https:') {
    const https = process.getBuiltinModule('node:https');
    httpsAgent ??= new https.Agent(AGENT);
    return { agent: httpsAgent, request: https.request };
  }
  httpAgent ??= new http.Agent(AGENT);
  return { agent: httpAgent, request: http.request };
}

/**
 * Where a request goes, as node:http options, made once per URL: `http.request(url)` converts the
 * URL on every call (urlToHttpOptions, ≈ 0.06 ms a call in a passthrough profile, issue 34). The
 * upstream leg asks for one or two URLs per server, so a small cache, dropped when it grows.
 */
const targets = new Map<string, RequestOptions>();
export function target(url: URL): RequestOptions {
  let t = targets.get(url.href);
  if (!t) {
    if (targets.size >= 64) targets.clear();
    t = process.getBuiltinModule('node:url').urlToHttpOptions(url);
    targets.set(url.href, t);
  }
  return t;
}
