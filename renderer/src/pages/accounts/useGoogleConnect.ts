import type { GoogleConnectOptions, GoogleConnectStart } from '../../../../common/contract';
import { useControl } from '../../lib/control';
import { useBrowserFlow, type FlowState, type FlowViewOf } from '../../lib/useBrowserFlow';

export type ConnectState = FlowState<GoogleConnectStart, FlowViewOf<'google.connect'>>;

/** One Google consent at a time, followed through `google.connect` events and waitGoogleConnect. */
export function useGoogleConnect(onConnected: () => void) {
  const { api } = useControl();
  return useBrowserFlow({
    event: 'google.connect',
    start: (options: GoogleConnectOptions) =>
      api.startGoogleConnect({ ...options, openBrowser: true }),
    wait: (flowId, waitMs) => api.waitGoogleConnect(flowId, waitMs),
    cancel: (flowId) => api.cancelGoogleConnect(flowId),
    firstView: (start) => ({ flowId: start.flowId, state: 'waiting' }),
    onSuccess: () => onConnected(),
  });
}
