import { skeleton } from './lookalike.js';

/**
 * The control page's routes, in one table (docs/security.md R-4): the renderer's router
 * (renderer/src/shell/routes.tsx, renderer/src/lib/router.ts) draws its pages from it, and a
 * relayed link is refused when its fragment is one of them (main/tools/relay-label.ts
 * relayedLinkProblem). A page added here is routed and guarded at once; a page the router has that
 * is not here cannot be (routes.tsx keys its renderers by PagePath). Runtime-neutral.
 */

/** The pages of the window (issue 8): each is a nav item and a route, in nav order. */
export const PAGE_ROUTES = [
  { path: '/approvals', label: 'Approvals' },
  { path: '/activity', label: 'Activity' },
  { path: '/tools', label: 'Tools' },
  { path: '/agents', label: 'Agents' },
  { path: '/accounts', label: 'Accounts' },
  { path: '/servers', label: 'Servers' },
] as const;

export type PagePath = (typeof PAGE_ROUTES)[number]['path'];

export const DEFAULT_PATH: PagePath = '/approvals';
/**
 * The small always-on-top approval window (issue 8, issue 9 item 3): the queue alone,
 * `#/popup?id=<request>` focusing the request it was opened for (issue 16 item 3).
 */
export const POPUP_PATH = '/popup';
/**
 * One request's approval view, the page an MCP client's URL elicitation points at
 * (issue 16 item 1): `#/approve/<id>`. It carries no token; the tab's own one is used.
 */
export const APPROVE_PREFIX = '/approve/';

/**
 * The fragment's keys the page takes as credentials: `#token=` (the control URL `airlock serve`
 * prints) and `#code=` (the one-time open code of `airlock open`, common/open-code.ts).
 */
export const SECRET_HASH_KEYS = ['token', 'code'] as const;

/** Every route the router answers (the approve route as its prefix), for whoever must know them all. */
export const ALL_ROUTE_PATHS: readonly string[] = [
  ...PAGE_ROUTES.map((p) => p.path),
  POPUP_PATH,
  APPROVE_PREFIX,
];

export interface Route {
  path: string;
  params: URLSearchParams;
}

/** The router's reading of a fragment (`#/approvals`, `#/popup?id=…`): path and query. */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const [path = '', query = ''] = raw.split('?');
  return { path: path.startsWith('/') ? path : `/${path}`, params: new URLSearchParams(query) };
}

/**
 * Whether a fragment reads as one of the page's routes, or carries one of its credentials. Looser
 * than the router (case, percent-encoding, trailing slashes, `;`/`&`/`#` tails, `.`/`..`
 * segments): the question is what a person would take the link for, not what the router would
 * open. So it is read as a person reads it: by its skeleton (common/lookalike.ts, the one reading
 * of "looks like" — `#/аpprovals` with a Cyrillic а, full-width letters, a zero-width space or a
 * `%00` inside are drawn as `#/approvals`), controls dropped.
 */
export function looksLikeOwnRoute(hash: string): boolean {
  let h = hash;
  try {
    h = decodeURIComponent(hash);
  } catch {
    // A malformed escape: judged as written.
  }
  h = skeleton(h.replace(/\p{Cc}/gu, ''));
  const keys = SECRET_HASH_KEYS.map(skeleton).join('|');
  if (new RegExp(`(^#?|[#&?;/])\\s*(${keys})\\s*=`).test(h)) return true;
  const { path } = parseHash(h.replace(/^#?\/*/, '#/'));
  const bare = withoutDotSegments(path.split(/[#&;]/)[0]!)
    .replace(/[/&;.\s]+$/, '')
    .replace(/\/{2,}/g, '/');
  return ALL_ROUTE_PATHS.some((r) => {
    const route = skeleton(r).replace(/\/$/, '');
    return bare === route || bare.startsWith(`${route}/`);
  });
}

/** `/x/../approvals` and `/./approvals` as `/approvals` (RFC 3986 section 5.2.4, for a path). */
function withoutDotSegments(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/'))
    if (seg === '..') {
      if (out.length > 1) out.pop();
    } else if (seg !== '.') out.push(seg);
  return out.join('/');
}
