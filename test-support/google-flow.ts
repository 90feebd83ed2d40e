import type { GoogleConnectView } from '../common/contract/index.js';

/**
 * A Google consent flow's end state: long-polls until the flow is neither waiting nor exchanging.
 * Each poll returns as soon as the flow changes, so this waits on the event; a single bounded
 * poll would decide the test by how fast the machine is (issue 29 item 2).
 */
export async function settledFlow(
  api: { waitGoogleConnect(flowId: string, waitMs?: number): Promise<GoogleConnectView> },
  flowId: string,
): Promise<GoogleConnectView> {
  for (;;) {
    const view = await api.waitGoogleConnect(flowId, 30_000);
    if (view.state !== 'waiting' && view.state !== 'exchanging') return view;
  }
}
