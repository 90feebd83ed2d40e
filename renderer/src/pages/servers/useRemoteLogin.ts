import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  RemoteLoginOptions,
  RemoteLoginStart,
  RemoteLoginView,
  RemoteView,
} from '../../../../preload/api';
import { useControl, useCoreEvents } from '../../lib/control';
import { errorMessage } from '../../lib/errors';

export interface LoginState {
  start: RemoteLoginStart | null;
  view: RemoteLoginView | null;
  /** Set while the loginRemote call itself is in flight. */
  starting: boolean;
  error: string | null;
}

const DONE = new Set<RemoteLoginView['state']>(['signed-in', 'failed', 'cancelled']);
/** Per long-poll call; the core caps a wait at 30 s (ControlApi.waitRemoteLogin). */
const WAIT_MS = 25_000;

export const loginOpen = (s: LoginState) =>
  s.starting || s.view?.state === 'waiting' || s.view?.state === 'exchanging';

/**
 * One server's OAuth sign-in (issue 10), the way useGoogleConnect follows a
 * Google consent: start it, follow it through `remote.login` events and a
 * bounded long poll (waitRemoteLogin) in case events are missed, cancel it.
 * A finished view is never replaced by an older "waiting" one.
 */
export function useRemoteLogin(name: string, onSignedIn: (remote?: RemoteView) => void) {
  const { api } = useControl();
  const [state, setState] = useState<LoginState>({
    start: null,
    view: null,
    starting: false,
    error: null,
  });
  const flowRef = useRef<string | null>(null);
  const onSignedInRef = useRef(onSignedIn);
  onSignedInRef.current = onSignedIn;

  const apply = useCallback((view: RemoteLoginView) => {
    if (view.flowId !== flowRef.current) return;
    setState((s) => {
      if (s.view && DONE.has(s.view.state)) return s;
      return { ...s, view };
    });
    // The wait's answer carries the reconnected server; the event's does not (the page reloads on state.changed).
    if (view.state === 'signed-in') onSignedInRef.current(view.remote);
  }, []);

  useCoreEvents((e) => {
    if (e.type === 'remote.login') apply(e.flow);
  });

  // Long poll while the flow is open; stops when it ends or the card goes away.
  const flowId = state.start?.flowId;
  const open = state.view ? !DONE.has(state.view.state) : Boolean(flowId);
  useEffect(() => {
    if (!flowId || !open) return;
    let live = true;
    const loop = async () => {
      while (live && flowRef.current === flowId) {
        try {
          const view = await api.waitRemoteLogin(flowId, WAIT_MS);
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

  const begin = async (options: RemoteLoginOptions) => {
    flowRef.current = null;
    setState({ start: null, view: null, starting: true, error: null });
    try {
      const start = await api.loginRemote(name, { ...options, openBrowser: true });
      flowRef.current = start.flowId;
      setState({
        start,
        view: { flowId: start.flowId, name: start.name, state: 'waiting' },
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
      apply(await api.cancelRemoteLogin(id));
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
