import type { ReactNode } from 'react';
import { APPROVE_PREFIX, PAGE_ROUTES, type PagePath } from '../../../common/routes';
import { ApprovalsPage } from '../approvals/ApprovalsPage';
import { AccountsPage } from '../pages/accounts/AccountsPage';
import { ActivityPage } from '../pages/activity/ActivityPage';
import { AgentsPage } from '../pages/agents/AgentsPage';
import { ServersPage } from '../pages/servers/ServersPage';
import { ToolsPage } from '../pages/tools/ToolsPage';

export { APPROVE_PREFIX, DEFAULT_PATH, POPUP_PATH } from '../../../common/routes';

/** The pages of the window (issue 8). Each entry is a nav item and a route. */
export interface PageDef {
  path: string;
  label: string;
  render: () => ReactNode;
}

/**
 * What each route of common/routes.ts draws. Keyed by its paths, so a page is routed (and, by the
 * same table, refused as a server's link: relay-label.ts) only when it is there (docs/security.md
 *
 */
const RENDER: Record<PagePath, () => ReactNode> = {
  '/approvals': () => <ApprovalsPage />,
  '/activity': () => <ActivityPage />,
  '/tools': () => <ToolsPage />,
  '/agents': () => <AgentsPage />,
  '/accounts': () => <AccountsPage />,
  '/servers': () => <ServersPage />,
};

export const PAGES: PageDef[] = PAGE_ROUTES.map((p) => ({ ...p, render: RENDER[p.path] }));

/** The request a popup or approval link is about, if any. */
export function focusedRequest(path: string, params: URLSearchParams): string | null {
  if (path.startsWith(APPROVE_PREFIX)) return decodeURIComponent(path.slice(APPROVE_PREFIX.length));
  return params.get('id');
}
