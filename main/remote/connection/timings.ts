/** Connection settings and time bounds of one remote server (issue 4, "Isolation"). */
import type { Logger } from '../../platform/log.js';
import type { SchemaWorkerPool } from '../../tools/schema-worker-pool.js';
import type { OAuthSession } from '../oauth/session.js';
import type { StdioTarget } from '../stdio/connect-stdio.js';
import type { Resolver } from '../http/address-guard.js';
import type { AddressPin } from '../http/address-pin.js';

/** What a source needs to reach its server; `headers` carries the secrets (Authorization included). */
export interface RemoteConnection {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** Other secret values to keep out of status texts and results (the URL's query credentials). */
  redact?: string[];
  /** OAuth sign-in (issue 10) for servers without a static bearer token. */
  auth?: OAuthSession;
  /** A local server (issue 15, main/remote/stdio/): the process to start instead of `url`. */
  stdio?: StdioTarget;
  /** Where a server named by a host name was first reached (http/address-pin.ts). */
  pin?: AddressPin;
}

export interface RemoteSourceOptions {
  logger: Logger;
  version: string;
  timings?: Partial<RemoteTimings>;
  /** The user's switch for this server's sampling/elicitation/roots requests (default: on). */
  relayAllowed?: () => boolean;
  /** The clock retired secrets are kept by (redact.ts); tests drive it. */
  now?: () => number;
  /**
   * What checks a tool result's structured content against the tool's output schema
   * (remote-calls.ts): the app's pool, which also checks every call's arguments. A source made
   * without one (tests, alone) makes its own and closes it when it stops.
   */
  schemaChecks?: SchemaWorkerPool;
  /**
   * The resolver connections and sign-ins connect by (remote/http/address-guard.ts): tests make a
   * name resolve to loopback with it. The system's by default.
   */
  resolve?: Resolver;
}

export interface RemoteTimings {
  /** Handshake bound per attempt; a dead or slow server never holds tools/list longer (issue 4, "Isolation"). */
  connectMs: number;
  listMs: number;
  /**
   * How long ready() — and so Airlock's first tools/list after start — waits
   * for this server. A slower server's tools join later with a list_changed.
   */
  readyMs: number;
  /** Health-check bound when a stream drops: decides "restarted" vs "down" quickly. */
  healthMs: number;
  /**
   * How often a connected server is checked (ping, or tools/list on 2026-07-28, which has no
   * ping): a server that dies while idle shows as down within this plus healthMs. 0: never.
   */
  healthIntervalMs: number;
  /** A call with no answer and no progress for this long fails. */
  callIdleMs: number;
  callMaxMs: number;
  /**
   * After a server's "URL elicitation required" (-32042) whose links the agent showed, until how
   * long after the agent's request arrived the call waits for the server to say the user
   * finished, to run it again (url-required.ts). Under an agent's usual 60 s request timeout.
   */
  urlStepWaitMs: number;
  /** An agent's own upstream session that holds no state for it closes after this long unused. */
  agentSessionIdleMs: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_TIMINGS: RemoteTimings = {
  connectMs: 10_000,
  listMs: 10_000,
  readyMs: 3_000,
  healthMs: 5_000,
  healthIntervalMs: 5_000,
  callIdleMs: 60_000,
  callMaxMs: 10 * 60_000,
  urlStepWaitMs: 45_000,
  agentSessionIdleMs: 15 * 60_000,
  backoffInitialMs: 1_000,
  backoffMaxMs: 60_000,
};
