import {
  CONTROL_METHODS,
  ControlError,
  type ControlApi,
  type ControlBridge,
  type ControlErrorCode,
  type CoreEvent,
} from '../../../common/contract';
import { controlApiOver } from '../../../common/control-client';
import { httpControlClient, subscribeEvents } from '../../../common/http-control-client';
import {
  OPEN_CODE_REDEEM_PATH,
  OPEN_CODE_SPENT,
  OPEN_CODE_SPENT_MESSAGE,
  type RedeemedOpenCode,
} from '../../../common/open-code';
import { parseBridgeError } from '../../../common/ipc-contract';

/**
 * How the app talks to the core. Picked once at start-up (docs/architecture.md
 * "ControlApi"): the Electron preload's `window.airlock`, or
 * the headless HTTP + server-sent-events transport behind the control token.
 * Everything above this file is identical for both.
 */
export interface Transport {
  kind: 'electron' | 'http';
  api: ControlApi;
  /** Follows core events; `onState` reports whether the live stream is connected. Returns a stop function. */
  subscribe(onEvent: (event: CoreEvent) => void, onState: (connected: boolean) => void): () => void;
}

export type TransportChoice =
  { ok: true; transport: Transport } | { ok: false; reason: 'no-token' };

declare global {
  interface Window {
    airlock?: ControlBridge;
  }
}

const TOKEN_KEY = 'airlock.controlToken';
const TOKEN_IN_HASH = /(^|[#&?])token=([^&]*)/;
const CODE_IN_HASH = /(^|[#&?])code=([^&]*)/;

/**
 * Takes `name=…` out of the address's fragment, keeping the route around it, and rewrites the
 * address without it so it is not left on screen or in the history. Null when it is not there.
 */
function takeFromHash(pattern: RegExp, loc: Location, hist: History): string | null {
  const match = pattern.exec(loc.hash);
  if (!match) return null;
  const rest = loc.hash
    .replace(pattern, '$1')
    .replace(/[#&?]+$/, '')
    .replace(/^#&/, '#');
  hist.replaceState(
    null,
    '',
    `${loc.pathname}${loc.search}${rest.length > 1 ? rest : '#/approvals'}`,
  );
  return decodeURIComponent(match[2] ?? '');
}

/**
 * Takes `#token=…` from the address (the control URL `airlock serve` prints),
 * keeps it in sessionStorage for reloads of this tab, and rewrites the
 * address without it so it is not left on screen or in the history.
 */
export function takeControlToken(
  loc: Location = location,
  hist: History = history,
  store: Storage = sessionStorage,
): string | null {
  const token = takeFromHash(TOKEN_IN_HASH, loc, hist);
  if (token) {
    store.setItem(TOKEN_KEY, token);
    return token;
  }
  return store.getItem(TOKEN_KEY);
}

/** Takes `#code=…` (the one-time open code of `airlock open`) from the address, as the token. */
export function takeOpenCode(loc: Location = location, hist: History = history): string | null {
  return takeFromHash(CODE_IN_HASH, loc, hist);
}

/**
 * Trades a one-time open code for the control token (common/open-code.ts), once, and keeps the
 * token for this tab as `#token=` would. Null when the server refuses it (used, unknown,
 * expired) or cannot be reached.
 */
export async function redeemOpenCode(
  origin: string,
  code: string,
  store: Storage = sessionStorage,
  fetchImpl: typeof fetch = fetch,
): Promise<string | null> {
  if (!code) return null;
  try {
    const res = await fetchImpl(`${origin}${OPEN_CODE_REDEEM_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    if (!res.ok) return null;
    const { token } = (await res.json()) as Partial<RedeemedOpenCode>;
    if (typeof token !== 'string' || !token) return null;
    store.setItem(TOKEN_KEY, token);
    return token;
  } catch {
    return null;
  }
}

/** What every call answers when the page's open code was refused: the page says so (NoToken). */
export function openCodeSpent(): ControlError {
  return new ControlError(OPEN_CODE_SPENT as ControlErrorCode, OPEN_CODE_SPENT_MESSAGE);
}

/**
 * The HTTP transport once `token` is had: calls wait for it, and fail with openCodeSpent()
 * when there is none; events follow once it is there.
 */
export function pendingHttpTransport(
  origin: string,
  token: Promise<string | null>,
  fetchImpl: typeof fetch = fetch,
): Transport {
  const client = token.then((t) => (t ? httpControlClient(origin, t, fetchImpl) : null));
  return {
    kind: 'http',
    api: controlApiOver(async (method, params) => {
      const api = await client;
      if (!api) throw openCodeSpent();
      const fn = api[method as keyof ControlApi] as (...args: unknown[]) => Promise<unknown>;
      return fn(...params);
    }),
    subscribe(onEvent, onState) {
      let stop: (() => void) | null = null;
      let stopped = false;
      void token.then((t) => {
        if (t && !stopped) stop = subscribeEvents(origin, t, onEvent, onState);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}

/** This page load's redemption: StrictMode runs start-up twice, the code can be spent once. */
let redeeming: Promise<string | null> | null = null;

export function forgetControlToken(store: Storage = sessionStorage): void {
  store.removeItem(TOKEN_KEY);
}

export function chooseTransport(): TransportChoice {
  const bridge = window.airlock;
  if (bridge) return { ok: true, transport: electronTransport(bridge) };
  const code = takeOpenCode();
  if (code !== null) redeeming = redeemOpenCode(location.origin, code);
  if (redeeming) return { ok: true, transport: pendingHttpTransport(location.origin, redeeming) };
  const token = takeControlToken();
  if (!token) return { ok: false, reason: 'no-token' };
  const origin = location.origin;
  return {
    ok: true,
    transport: {
      kind: 'http',
      api: httpControlClient(origin, token),
      subscribe: (onEvent, onState) => subscribeEvents(origin, token, onEvent, onState),
    },
  };
}

/**
 * contextBridge keeps only an Error's message, so the preload carries the
 * code in it (preload/ipc-contract.ts); turn it back into a ControlError so
 * the app handles both transports' errors alike.
 */
export function withBridgeErrors(bridge: ControlApi): ControlApi {
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of CONTROL_METHODS) {
    const fn = bridge[method] as unknown as (...args: unknown[]) => Promise<unknown>;
    api[method] = async (...args) => {
      try {
        return await fn(...args);
      } catch (err) {
        const parsed = parseBridgeError(err instanceof Error ? err.message : String(err));
        throw parsed ? new ControlError(parsed.code, parsed.message) : err;
      }
    };
  }
  return api as unknown as ControlApi;
}

function electronTransport(bridge: ControlBridge): Transport {
  return {
    kind: 'electron',
    api: withBridgeErrors(bridge),
    subscribe(onEvent, onState) {
      if (typeof bridge.onEvent === 'function') {
        const off = bridge.onEvent(onEvent);
        onState(true);
        return off;
      }
      // A preload without an event channel: refresh on a timer so the queue still moves.
      onState(true);
      const timer = setInterval(() => onEvent({ type: 'state.changed' }), 2000);
      return () => clearInterval(timer);
    },
  };
}
