import type { RemoteLoginOptions, RemoteLoginStart, RemoteView } from '../../../../common/contract';
import { useControl } from '../../lib/control';
import { useBrowserFlow, type FlowState, type FlowViewOf } from '../../lib/useBrowserFlow';

export type LoginState = FlowState<RemoteLoginStart, FlowViewOf<'remote.login'>>;

export { flowOpen as loginOpen } from '../../lib/useBrowserFlow';

/**
 * One server's OAuth sign-in (issue 10), followed through `remote.login`
 * events and waitRemoteLogin, the way useGoogleConnect follows a Google consent.
 */
export function useRemoteLogin(name: string, onSignedIn: (remote?: RemoteView) => void) {
  const { api } = useControl();
  return useBrowserFlow({
    event: 'remote.login',
    start: (options: RemoteLoginOptions) =>
      api.loginRemote(name, { ...options, openBrowser: true }),
    wait: (flowId, waitMs) => api.waitRemoteLogin(flowId, waitMs),
    cancel: (flowId) => api.cancelRemoteLogin(flowId),
    firstView: (start) => ({ flowId: start.flowId, name: start.name, state: 'waiting' }),
    // The wait's answer carries the reconnected server; the event's does not (the page reloads on state.changed).
    onSuccess: (view) => onSignedIn(view.remote),
  });
}
