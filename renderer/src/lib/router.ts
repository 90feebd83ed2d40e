import { parseHash, type Route } from '../../../common/routes';
import { useSyncExternalStore } from 'react';

/**
 * Hash routing (`#/approvals`, `#/popup`): works from files in Electron and
 * at `/` on the gateway, and never sends the route to a server.
 */
export type { Route } from '../../../common/routes';

const subscribe = (cb: () => void) => {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
};

// The router's reading of a fragment lives with the route table (common/routes.ts), where the
// relayed-link check reads it too.
export { parseHash };

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => location.hash);
  return parseHash(hash);
}

export const href = (path: string) => `#${path}`;
