import { useSyncExternalStore } from 'react';

/**
 * Hash routing (`#/approvals`, `#/popup`): works from files in Electron and
 * at `/` on the gateway, and never sends the route to a server.
 */
export interface Route {
  path: string;
  params: URLSearchParams;
}

const subscribe = (cb: () => void) => {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
};

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const [path = '', query = ''] = raw.split('?');
  return { path: path.startsWith('/') ? path : `/${path}`, params: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => location.hash);
  return parseHash(hash);
}

export const href = (path: string) => `#${path}`;
