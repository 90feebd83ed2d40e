import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  GoogleConnectOptions,
  GoogleConnectStart,
  GoogleConnectView,
} from '../../../../preload/api';
import { useControl, useCoreEvents } from '../../lib/control';
import { errorMessage } from '../../lib/errors';

export interface ConnectState {
  start: GoogleConnectStart | null;
  view: GoogleConnectView | null;
  /** Set while the start call itself is in flight. */
  starting: boolean;
  error: string | null;
}

const DONE = new Set<GoogleConnectView['state']>(['connected', 'failed', 'cancelled']);

/**
 * One Google consent at a time: start it, follow its progress through
 * `google.connect` events and a bounded long poll (waitGoogleConnect) in
 * case events are missed, cancel it. A finished view is never replaced by
 * an older "waiting" one.
 */
export function useGoogleConnect(onConnected: () => void) {
  const { api } = useControl();
  const [state, setState] = useState<ConnectState>({
    start: null,
    view: null,
    starting: false,
    error: null,
  });
  const flowRef = useRef<string | null>(null);
  const onConnectedRef = useRef(onConnected);
  onConnectedRef.current = onConnected;

  const apply = useCallback((view: GoogleConnectView) => {
    if (view.flowId !== flowRef.current) return;
    setState((s) => {
      if (s.view && DONE.has(s.view.state)) return s;
      return { ...s, view };
    });
    if (view.state === 'connected') onConnectedRef.current();
  }, []);

  useCoreEvents((e) => {
    if (e.type === 'google.connect') apply(e.flow);
  });

  // Long poll while the flow is open; stops when it ends or the page goes away.
  const flowId = state.start?.flowId;
  const open = state.view ? !DONE.has(state.view.state) : Boolean(flowId);
  useEffect(() => {
    if (!flowId || !open) return;
    let live = true;
    const loop = async () => {
      while (live && flowRef.current === flowId) {
        try {
          const view = await api.waitGoogleConnect(flowId, 25_000);
          if (!live) return;
          apply(view);
          if (DONE.has(view.state)) return;
        } catch (err) {
          if (live) setState((s) => ({ ...s, error: errorMessage(err) }));
          return;
        }
      }
    };
    void loop();
    return () => {
      live = false;
    };
  }, [api, apply, flowId, open]);

  const begin = async (options: GoogleConnectOptions) => {
    setState({ start: null, view: null, starting: true, error: null });
    try {
      const start = await api.startGoogleConnect({ ...options, openBrowser: true });
      flowRef.current = start.flowId;
      setState({
        start,
        view: { flowId: start.flowId, state: 'waiting' },
        starting: false,
        error: null,
      });
    } catch (err) {
      setState({ start: null, view: null, starting: false, error: errorMessage(err) });
    }
  };

  const cancel = async () => {
    const id = flowRef.current;
    if (!id) return;
    try {
      apply(await api.cancelGoogleConnect(id));
    } catch (err) {
      setState((s) => ({ ...s, error: errorMessage(err) }));
    }
  };

  const dismiss = () => {
    flowRef.current = null;
    setState({ start: null, view: null, starting: false, error: null });
  };

  return { ...state, begin, cancel, dismiss };
}
