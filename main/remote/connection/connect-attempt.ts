import type { Tool } from '@modelcontextprotocol/client';
import type { SourceNotice } from '../../tools/features.js';
import { relayHandler } from '../relay/relay-scope.js';
import { listFeatures, type FeatureLists } from '../catalog/remote-features.js';
import type { RemoteConnection, RemoteTimings } from './timings.js';
import type { Resolver } from '../http/address-guard.js';
import type { UrlCompletions } from '../relay/url-completions.js';
import {
  connectUpstream,
  listAllTools,
  type TransportKind,
  type Upstream,
} from '../upstream/upstream.js';

/** How the shared connection is made, for the server's status: transport and protocol version. */
export function connectionInfo(up: Upstream | null): {
  transport?: TransportKind;
  protocolVersion?: string;
} {
  return up
    ? {
        transport: up.transport,
        ...(up.protocolVersion ? { protocolVersion: up.protocolVersion } : {}),
      }
    : {};
}

/** What the shared connection's events are told, once it is open. */
export interface ConnectionEvents {
  toolsChanged: (up: Upstream) => void;
  notice: (up: Upstream, n: SourceNotice) => void;
  error: (up: Upstream, err: Error) => void;
  closed: (up: Upstream) => void;
}

/** A connection being opened: `up` is set as soon as it is connected (for the caller to close on failure). */
export interface Opening {
  up?: Upstream;
}

/**
 * One attempt at a remote server's shared connection (server-connection.ts): connect
 * (upstream/upstream.ts), then read the tool list and the other features' lists.
 */
export async function connectAndList(
  o: {
    conn: RemoteConnection;
    t: RemoteTimings;
    version: string;
    label: string;
    /** The server's URL-mode elicitations shown to agents (url-completions.ts). */
    completions: UrlCompletions;
    /** Whether the user lets this server's requests reach agents (relay-scope.ts). */
    relayAllowed?: () => boolean;
    /** The connection's redactor, for what the server asks agents (relay-scope.ts). */
    redact?: <T extends object>(x: T) => T;
    /** The resolver the connection connects by (address-guard.ts); the system's by default. */
    resolve?: Resolver;
    /** Ends a local server's start under way (UpstreamOptions.signal). */
    signal?: AbortSignal;
  },
  holder: Opening,
  on: ConnectionEvents,
): Promise<{ up: Upstream; tools: Tool[]; lists: FeatureLists }> {
  const up = await connectUpstream({
    url: new URL(o.conn.url),
    headers: o.conn.headers,
    timeoutMs: o.t.connectMs,
    clientVersion: o.version,
    onToolsChanged: () => {
      if (holder.up) on.toolsChanged(holder.up);
    },
    onNotice: (n) => {
      if (holder.up) on.notice(holder.up, n);
    },
    onRelay: relayHandler(o.label, {
      completions: o.completions,
      ...(o.relayAllowed ? { allowed: o.relayAllowed } : {}),
      ...(o.redact ? { redact: o.redact } : {}),
    }),
    // The server's `_meta` is its words: redacted as a relayed request's are.
    onElicitationComplete: (id, meta) =>
      o.completions.complete(id, meta && o.redact ? o.redact(meta) : meta),
    onError: (err) => {
      if (holder.up) on.error(holder.up, err);
    },
    onClose: () => {
      if (holder.up) on.closed(holder.up);
    },
    ...(o.conn.auth ? { authProvider: o.conn.auth } : {}),
    ...(o.conn.stdio ? { stdio: o.conn.stdio } : {}),
    ...(o.conn.pin ? { pin: o.conn.pin } : {}),
    ...(o.resolve ? { resolve: o.resolve } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  holder.up = up;
  const [tools, lists] = await Promise.all([
    listAllTools(up, o.t.listMs),
    listFeatures(up, o.t.listMs),
  ]);
  return { up, tools, lists };
}
