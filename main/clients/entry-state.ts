import type { ClientView } from '../../common/contract/index.js';
import type { ClientDef } from './client-defs.js';
import { isObject, normalizeEntry, type ClientServer } from './read-config.js';
import { AIRLOCK_ENTRY } from './clients-edit.js';

/** What decides whether a client's "airlock" entry still reaches this Airlock (issue 29.1). */
export interface Reach {
  /** The URL this Airlock answers on (or, when `live` is false, where `airlock serve` will listen). */
  mcpUrl: string;
  /** A server is listening on `mcpUrl` now. */
  live: boolean;
  isAgentToken?: (token: string) => boolean;
}

/**
 * Connected, stale (with why and the fix) or not connected, for a client's "airlock" entry
 * as read from its file. An entry on another port — Airlock restarted with `--port`, or on
 * `up.sh --port 0` — or with a token this Airlock no longer knows (a revoked agent) is stale:
 * the client would get ECONNREFUSED or 401, so the fix is a fresh `clients connect`.
 */
export function entryState(
  def: Pick<ClientDef, 'id'>,
  raw: unknown,
  reach: Reach,
): Pick<ClientView, 'connected' | 'entryUrl' | 'stale'> {
  const s = normalizeEntry(AIRLOCK_ENTRY, raw);
  if (!s) return { connected: false };
  const entryUrl = appUrl(def.id, raw, s);
  const fix = `run "airlock clients connect ${def.id}"`;
  if (!entryUrl)
    return { connected: false, stale: `its "airlock" entry has no URL Airlock recognises; ${fix}` };
  if (!reachesEndpoint(entryUrl, reach.mcpUrl))
    return {
      connected: false,
      entryUrl,
      stale: reach.live
        ? `its entry points at ${entryUrl}, but this Airlock answers on ${reach.mcpUrl}; ${fix}`
        : `its entry points at ${entryUrl}, not at the configured ${reach.mcpUrl}, and Airlock is not running to tell; once it runs, ${fix}`,
    };
  const token = entryToken(raw);
  if (token !== null && reach.isAgentToken && !reach.isAgentToken(token))
    return {
      connected: false,
      entryUrl,
      stale: `its token is not a current agent token of this Airlock (revoked?); ${fix}`,
    };
  return { connected: true, entryUrl };
}

/**
 * The keys an app takes its server's URL from, in the app's own order, where that differs from
 * normalizeEntry's (url, serverUrl, httpUrl). Gemini CLI connects to `httpUrl` even beside a
 * `url` ("Priority 1: httpUrl", createUrlTransport / createTransport in google-gemini/gemini-cli
 * packages/core/src/tools/mcp-client.ts) and reads no `serverUrl`. The others' precedence between
 * keys is not documented; an entry `clients connect` writes has only one of them.
 */
const URL_KEYS: Partial<Record<ClientDef['id'], readonly string[]>> = {
  gemini: ['httpUrl', 'url'],
};

/** The URL the app connects to: a URL entry's, read in the app's order, or the bridge's argument. */
function appUrl(id: ClientDef['id'], raw: unknown, s: ClientServer): string | undefined {
  if (s.url === undefined) return (s.args ?? []).find((a) => /^https?:\/\//i.test(a));
  const keys = URL_KEYS[id];
  if (!keys || !isObject(raw)) return s.url;
  return keys.map((k) => raw[k]).find((v): v is string => typeof v === 'string');
}

/**
 * The entry's URL reaches the socket Airlock listens on: the scheme, host, port and path the
 * client will use, read with the WHATWG URL parser the clients' HTTP stacks use (so `127.1`,
 * `LOCALHOST`, `:80` are read as they will connect), equal to Airlock's own URL. Not
 * sameEndpoint's looser "any loopback name": Airlock listens on 127.0.0.1 only
 * (gateway/http-server.ts), so an entry on `[::1]` or on `localhost` (which a client may resolve
 * to ::1 first) would send the token to whatever holds that address and port — it is stale.
 */
export function reachesEndpoint(entryUrl: string, mcpUrl: string): boolean {
  try {
    const x = new URL(entryUrl);
    const y = new URL(mcpUrl);
    return (
      x.protocol === y.protocol &&
      x.hostname === y.hostname &&
      x.port === y.port &&
      x.pathname === y.pathname
    );
  } catch {
    return false;
  }
}

/** The bearer token in an entry: `headers` / Codex `http_headers`, or the mcp-remote bridge's env. */
function entryToken(raw: unknown): string | null {
  if (!isObject(raw)) return null;
  const candidates: unknown[] = [];
  for (const h of [raw.headers, raw.http_headers])
    if (isObject(h))
      for (const [k, v] of Object.entries(h))
        if (k.toLowerCase() === 'authorization') candidates.push(v);
  if (isObject(raw.env)) candidates.push(raw.env.AIRLOCK_AUTH);
  for (const c of candidates) {
    const m = typeof c === 'string' ? /^Bearer\s+(\S+)$/i.exec(c.trim()) : null;
    if (m) return m[1]!;
  }
  return null;
}
