import type { ServerLoosening } from '../gateway/loosening.js';
import type { Settings } from '../platform/settings.js';
import type { RemoteLoader } from '../remote/remote-loader.js';
import { remoteLoosening } from '../remote/remote-loosening.js';

/**
 * Issue 17.7: the remote source's own judgement of a server change (remote-loosening.ts), for
 * the gate and the CLI's offline refusal; a local server's sandbox is judged against its
 * effective permissions, which the remote module (loaded on first need) holds. Both are read
 * when a change is judged, not when this is made.
 */
export function serverLooseningOf(
  settings: () => Settings,
  remotes: () => RemoteLoader,
): ServerLoosening {
  return (method, params) =>
    remoteLoosening(method, params, settings(), async () => (await remotes().load()).manager.stdio);
}
