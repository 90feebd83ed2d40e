import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CONTROL_METHODS, type ControlBridge, type CoreEvent } from '../common/contract/index.js';
import {
  BRIDGE_KEY,
  bridgeErrorMessage,
  controlChannel,
  EVENT_CHANNEL,
  NAVIGATE_CHANNEL,
  NAVIGATE_ROUTE,
  type IpcResult,
} from '../common/ipc-contract.js';

/**
 * The preload of every Airlock window (issue 9, item 4). It runs sandboxed
 * and context-isolated, so it is bundled to one CommonJS file
 * (scripts/build-preload.mjs → dist/preload/preload.cjs).
 *
 * It exposes exactly ControlBridge: the ControlApi methods as plain
 * functions and one event subscription. Never ipcRenderer itself, never a
 * generic "send(channel, …)": the renderer cannot name a channel
 * (electronjs.org/docs/latest/tutorial/security #20).
 */
export function createBridge(
  ipc: Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>,
): ControlBridge {
  const bridge: Record<string, unknown> = {};
  for (const method of CONTROL_METHODS) {
    bridge[method] = async (...args: unknown[]) => {
      const res = (await ipc.invoke(controlChannel(method), ...args)) as IpcResult<unknown>;
      if (!res.ok) throw new Error(bridgeErrorMessage(res.code, res.message));
      return res.value;
    };
  }
  bridge.onEvent = (listener: (event: CoreEvent) => void) => {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a function');
    // The IPC event object (with its `sender`) never reaches the page: only the payload.
    const wrapped = (_e: IpcRendererEvent, event: CoreEvent) => listener(event);
    ipc.on(EVENT_CHANNEL, wrapped);
    return () => void ipc.removeListener(EVENT_CHANNEL, wrapped);
  };
  return bridge as unknown as ControlBridge;
}

/**
 * The shell moves an open window to another route by a hash change, not a
 * reload (issue 21, item 2): the page's hash router sees 'hashchange' and
 * keeps its state. Only main sends on this channel (ipcRenderer.on hears
 * only the main process); the route is checked anyway.
 */
export function listenForNavigation(
  ipc: Pick<typeof ipcRenderer, 'on'>,
  location: { hash: string } | undefined,
): void {
  if (!location) return;
  ipc.on(NAVIGATE_CHANNEL, (_e: IpcRendererEvent, route: unknown) => {
    if (typeof route !== 'string' || !NAVIGATE_ROUTE.test(route)) return;
    if (location.hash !== `#${route}`) location.hash = route;
  });
}

// contextBridge exists only in a renderer; the main process never loads this file.
if (typeof contextBridge?.exposeInMainWorld === 'function') {
  contextBridge.exposeInMainWorld(BRIDGE_KEY, createBridge(ipcRenderer));
  // The preload shares the page's DOM (not its JS world): setting the hash fires the page's 'hashchange'.
  listenForNavigation(
    ipcRenderer,
    (globalThis as unknown as { location: { hash: string } }).location,
  );
}
