import {
  CONTROL_METHODS,
  type ControlApi,
  type ControlErrorCode,
  type ControlMethod,
} from './contract/index.js';

/**
 * The Electron transport of ControlApi (docs/architecture.md
 * "ControlApi"): one `invoke` channel per method, derived from
 * CONTROL_METHODS so main, preload and renderer can never disagree on a
 * name, plus one main→renderer channel for CoreEvents. Imported by the
 * preload (bundled) and by main/shell/ipc.ts; no 'electron' here.
 */

/** `window.airlock` — what the renderer's transport looks for (renderer/src/lib/transport.ts). */
export const BRIDGE_KEY = 'airlock';

const CONTROL_PREFIX = 'airlock:control:';

export type ControlChannel = `${typeof CONTROL_PREFIX}${ControlMethod}`;

export function controlChannel(method: ControlMethod): ControlChannel {
  return `${CONTROL_PREFIX}${method}`;
}

/** Every invoke channel, in CONTROL_METHODS order. */
export const CONTROL_CHANNELS: readonly ControlChannel[] = CONTROL_METHODS.map(controlChannel);

/** Main → renderer: one CoreEvent per message. */
export const EVENT_CHANNEL = 'airlock:event';

/**
 * Main → preload: show this hash route (e.g. `/popup?id=…`) in the window
 * already open, as an in-page hash change, without reloading the page
 * (issue 21, item 2). Handled by the preload itself; never reaches the page's bridge.
 */
export const NAVIGATE_CHANNEL = 'airlock:navigate';

/** A route the shell may ask a window to show: a hash path with an optional query, nothing else. */
export const NAVIGATE_ROUTE = /^\/(?:[A-Za-z0-9_-]+\/?)*(?:\?[A-Za-z0-9=&%._-]*)?$/;

/**
 * The longest parameter list of any ControlApi method. IPC arguments come
 * from an untrusted renderer; more than this is refused before the core sees it.
 */
export const MAX_CONTROL_ARGS = 2;

export type ControlArgs<M extends ControlMethod> = Parameters<ControlApi[M]>;
export type ControlValue<M extends ControlMethod> = Awaited<ReturnType<ControlApi[M]>>;

/**
 * What an invoke handler answers. Errors travel as data because Electron
 * rewrites an Error thrown in a handler ("Error invoking remote method …")
 * and drops its `code`.
 */
export type IpcResult<T> =
  { ok: true; value: T } | { ok: false; code: ControlErrorCode; message: string };

/**
 * contextBridge copies an Error's message and drops every other property
 * (electronjs.org/docs/latest/api/context-bridge, "Parameter / Error /
 * Return Type support"), so the code rides in the message as a prefix that
 * `parseBridgeError` takes apart again on the renderer side.
 */
const BRIDGE_ERROR = /^\[airlock:([A-Z_]+)\] ([\s\S]*)$/;

export function bridgeErrorMessage(code: ControlErrorCode, message: string): string {
  return `[airlock:${code}] ${message}`;
}

export function parseBridgeError(
  message: string,
): { code: ControlErrorCode; message: string } | null {
  const m = BRIDGE_ERROR.exec(message);
  return m ? { code: m[1] as ControlErrorCode, message: m[2] ?? '' } : null;
}
