import {
  CONTROL_METHODS,
  ControlError,
  type ControlApi,
  type ControlBridge,
  type CoreEvent,
} from '../../../common/contract';
import { controlApiOver } from '../../../common/control-client';
import { httpControlClient, subscribeEvents } from '../../../common/http-control-client';
import { parseBridgeError } from '../../../common/ipc-contract';
import { CODE_TRIED_KEY, openCodeSpent, redeemOpenCode, TOKEN_KEY } from './open-code';

export { OPEN_CODE_FAILED, openCodeSpent, redeemOpenCode } from './open-code';

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
  { ok: true; transport: Transport } | { ok: false; reason: 'no-token'; codeLost: boolean };

declare global {
  interface Window {
    airlock?: ControlBridge;
  }
}

const TOKEN_IN_HASH = /(^|[#&?])token=([^&]*)/;
const CODE_IN_HASH = /(^|[#&?])code=([^&]*)/;
/** Every `code=` and `token=` in the fragment, to strip them all whichever one is used. */
const SECRETS_IN_HASH = /(^|[#&?])(?:code|token)=[^&]*/g;

/**
 * Takes `code=…` and `token=…` out of the address's fragment, keeping the route around them,
 * and rewrites the address without either (whichever is used) so neither is left on screen or in
 * the history. Nulls when they are not there, and the address is left alone.
 */
export function takeFromAddress(
  loc: Location,
  hist: History,
): { code: string | null; token: string | null } {
  const code = CODE_IN_HASH.exec(loc.hash);
  const token = TOKEN_IN_HASH.exec(loc.hash);
  if (code || token) {
    const rest = loc.hash
      .replace(SECRETS_IN_HASH, '$1')
      .replace(/([#&?])&+/g, '$1')
      .replace(/[#&?]+$/, '')
      .replace(/^#&/, '#');
    hist.replaceState(
      null,
      '',
      `${loc.pathname}${loc.search}${rest.length > 1 ? rest : '#/approvals'}`,
    );
  }
  const value = (m: RegExpExecArray | null) => (m ? decodeURIComponent(m[2] ?? '') : null);
  return { code: value(code), token: value(token) };
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
  const { token } = TOKEN_IN_HASH.test(loc.hash) ? takeFromAddress(loc, hist) : { token: null };
  if (token) {
    store.setItem(TOKEN_KEY, token);
    return token;
  }
  return store.getItem(TOKEN_KEY);
}

/** Takes `#code=…` (the one-time open code of `airlock open`) from the address, as the token. */
export function takeOpenCode(loc: Location = location, hist: History = history): string | null {
  return CODE_IN_HASH.test(loc.hash) ? takeFromAddress(loc, hist).code : null;
}

export type AddressStart =
  | { code: string }
  | { token: string }
  /** `codeLost`: this tab took an open code whose trade never finished (a reload mid-way). */
  | { none: true; codeLost: boolean };

/**
 * What the page starts from: the address's open code first (it is spent by being sent), else its
 * token or the one kept for this tab, else nothing.
 */
export function startFromAddress(
  loc: Location = location,
  hist: History = history,
  store: Storage = sessionStorage,
): AddressStart {
  const { code, token } = takeFromAddress(loc, hist);
  if (code !== null) {
    store.setItem(CODE_TRIED_KEY, '1');
    return { code };
  }
  if (token) store.setItem(TOKEN_KEY, token);
  const kept = token || store.getItem(TOKEN_KEY);
  if (kept) return { token: kept };
  return { none: true, codeLost: store.getItem(CODE_TRIED_KEY) !== null };
}

/**
 * The HTTP transport once `token` is had: calls wait for it, and fail with openCodeSpent()
 * when there is none, or with the redemption's own error; events follow once it is there.
 */
export function pendingHttpTransport(
  origin: string,
  token: Promise<string | null>,
  fetchImpl: typeof fetch = fetch,
): Transport {
  const client = token.then((t) => (t ? httpControlClient(origin, t, fetchImpl) : null));
  // Its failure is every call's answer; not an unhandled rejection before the first call.
  client.catch(() => {});
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
      token.then(
        (t) => {
          if (t && !stopped) stop = subscribeEvents(origin, t, onEvent, onState);
        },
        () => {},
      );
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}

/** This page load's redemption: StrictMode runs start-up twice, the code can be spent once. */
let redeeming: Promise<string> | null = null;

export function forgetControlToken(store: Storage = sessionStorage): void {
  store.removeItem(TOKEN_KEY);
}

export function chooseTransport(): TransportChoice {
  const bridge = window.airlock;
  if (bridge) return { ok: true, transport: electronTransport(bridge) };
  const origin = location.origin;
  // A second start-up of this load finds the address already bare: it keeps the first's trade.
  if (redeeming) return { ok: true, transport: pendingHttpTransport(origin, redeeming) };
  const start = startFromAddress();
  if ('code' in start) {
    redeeming = redeemOpenCode(origin, start.code);
    return { ok: true, transport: pendingHttpTransport(origin, redeeming) };
  }
  if ('none' in start) return { ok: false, reason: 'no-token', codeLost: start.codeLost };
  const { token } = start;
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
