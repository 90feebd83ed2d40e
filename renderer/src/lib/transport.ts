import {
  CONTROL_METHODS,
  ControlError,
  type ControlApi,
  type ControlBridge,
  type CoreEvent,
} from '../../../common/contract';
import { httpControlClient, subscribeEvents } from '../../../common/http-control-client';
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
  const match = TOKEN_IN_HASH.exec(loc.hash);
  if (match) {
    const token = decodeURIComponent(match[2] ?? '');
    const rest = loc.hash
      .replace(TOKEN_IN_HASH, '$1')
      .replace(/[#&?]+$/, '')
      .replace(/^#&/, '#');
    hist.replaceState(
      null,
      '',
      `${loc.pathname}${loc.search}${rest.length > 1 ? rest : '#/approvals'}`,
    );
    if (token) {
      store.setItem(TOKEN_KEY, token);
      return token;
    }
  }
  return store.getItem(TOKEN_KEY);
}

export function forgetControlToken(store: Storage = sessionStorage): void {
  store.removeItem(TOKEN_KEY);
}

export function chooseTransport(): TransportChoice {
  const bridge = window.airlock;
  if (bridge) return { ok: true, transport: electronTransport(bridge) };
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
