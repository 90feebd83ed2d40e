import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { ControlApi, CoreEvent } from '../../../common/contract';
import type { EventHub } from './hub';

interface ControlContextValue {
  api: ControlApi;
  hub: EventHub;
  kind: 'electron' | 'http';
}

const ControlContext = createContext<ControlContextValue | null>(null);

export function ControlProvider(props: ControlContextValue & { children: ReactNode }) {
  const { api, hub, kind, children } = props;
  return <ControlContext.Provider value={{ api, hub, kind }}>{children}</ControlContext.Provider>;
}

export function useControl(): ControlContextValue {
  const value = useContext(ControlContext);
  if (!value) throw new Error('useControl outside ControlProvider');
  return value;
}

/** Calls `handler` for every core event; the latest handler is used without resubscribing. */
export function useCoreEvents(handler: (event: CoreEvent) => void): void {
  const { hub } = useControl();
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => hub.on((e) => ref.current(e)), [hub]);
}

export function useConnected(): boolean {
  const { hub } = useControl();
  return useSyncExternalStore(hub.subscribeState, () => hub.connected);
}

/** Counts live connections: a value that changes each time the event stream (re)connects. */
export function useConnectionGeneration(): number {
  const { hub } = useControl();
  return useSyncExternalStore(hub.subscribeState, () => hub.connections);
}
