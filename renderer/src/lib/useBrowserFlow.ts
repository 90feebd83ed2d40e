import { useCallback, useEffect, useRef, useState } from 'react';
import type { CoreEvent } from '../../../common/contract';
import { useCoreEvents } from './control';
import { errorMessage } from './errors';

type FlowEvent = Extract<CoreEvent, { flow: unknown }>;
/** Core events that report a browser sign-in flow ('google.connect', 'remote.login'). */
export type FlowEventType = FlowEvent['type'];
type FlowViews = { [E in FlowEvent as E['type']]: E['flow'] };
export type FlowViewOf<T extends FlowEventType> = FlowViews[T];

/** What the core answers when a flow starts (GoogleConnectStart, RemoteLoginStart). */
export interface FlowStart {
  flowId: string;
  authUrl: string;
  expiresAt: string;
  browserOpened: boolean;
}

export interface FlowState<S, V> {
  start: S | null;
  view: V | null;
  /** Set while the start call itself is in flight. */
  starting: boolean;
  error: string | null;
}

/** How to drive one kind of flow through the ControlApi. */
export interface BrowserFlowSpec<T extends FlowEventType, O, S extends FlowStart> {
  event: T;
  start: (options: O) => Promise<S>;
  wait: (flowId: string, waitMs: number) => Promise<FlowViewOf<T>>;
  cancel: (flowId: string) => Promise<FlowViewOf<T>>;
  /** The view shown as soon as the flow started. */
  firstView: (start: S) => FlowViewOf<T>;
  onSuccess: (view: FlowViewOf<T>) => void;
}

/** Per long-poll call; the core caps a wait at 30 s (ControlApi.waitGoogleConnect, waitRemoteLogin). */
const WAIT_MS = 25_000;

/** The browser part is over: the flow succeeded, failed or was cancelled. */
export const flowEnded = (state: string) => state !== 'waiting' && state !== 'exchanging';
export const flowSucceeded = (state: string) =>
  flowEnded(state) && state !== 'failed' && state !== 'cancelled';
/** Starting, or waiting for the user or the token exchange. */
export const flowOpen = (s: FlowState<unknown, { state: string }>) =>
  s.starting || (s.view !== null && !flowEnded(s.view.state));

const IDLE = { start: null, view: null, starting: false, error: null };

/**
 * One browser sign-in at a time (a Google consent, a remote server's OAuth
 * sign-in): start it, follow its progress through core events and a bounded
 * long poll in case events are missed, cancel it. A finished view is never
 * replaced by an older "waiting" one.
 */
export function useBrowserFlow<T extends FlowEventType, O, S extends FlowStart>(
  spec: BrowserFlowSpec<T, O, S>,
) {
  type V = FlowViewOf<T>;
  const [state, setState] = useState<FlowState<S, V>>(IDLE);
  const flowRef = useRef<string | null>(null);
  // The caller's functions change every render; the loop and handlers use the latest.
  const specRef = useRef(spec);
  specRef.current = spec;

  const apply = useCallback((view: V) => {
    if (view.flowId !== flowRef.current) return;
    setState((s) => {
      if (s.view && flowEnded(s.view.state)) return s;
      return { ...s, view };
    });
    if (flowSucceeded(view.state)) specRef.current.onSuccess(view);
  }, []);

  useCoreEvents((e) => {
    // Narrowing on a generic event type needs the cast; `event` picks the matching union member.
    if (e.type === spec.event) apply((e as FlowEvent).flow as V);
  });

  // Long poll while the flow is open; stops when it ends or the component goes away.
  const flowId = state.start?.flowId;
  const open = state.view ? !flowEnded(state.view.state) : Boolean(flowId);
  useEffect(() => {
    if (!flowId || !open) return;
    let live = true;
    const loop = async () => {
      while (live && flowRef.current === flowId) {
        try {
          const view = await specRef.current.wait(flowId, WAIT_MS);
          if (!live) return;
          apply(view);
          if (flowEnded(view.state)) return;
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
  }, [apply, flowId, open]);

  const begin = async (options: O) => {
    flowRef.current = null;
    setState({ ...IDLE, starting: true });
    try {
      const start = await specRef.current.start(options);
      flowRef.current = start.flowId;
      setState({ start, view: specRef.current.firstView(start), starting: false, error: null });
    } catch (err) {
      setState({ ...IDLE, error: errorMessage(err) });
    }
  };

  const cancel = async () => {
    const id = flowRef.current;
    if (!id) return;
    try {
      apply(await specRef.current.cancel(id));
    } catch (err) {
      setState((s) => ({ ...s, error: errorMessage(err) }));
    }
  };

  const dismiss = () => {
    flowRef.current = null;
    setState(IDLE);
  };

  return { ...state, begin, cancel, dismiss };
}
