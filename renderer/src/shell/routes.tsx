import type { ReactNode } from 'react';
import { ApprovalsPage } from '../approvals/ApprovalsPage';
import { AccountsPage } from '../pages/accounts/AccountsPage';
import { ActivityPage } from '../pages/activity/ActivityPage';
import { AgentsPage } from '../pages/agents/AgentsPage';
import { ServersPage } from '../pages/servers/ServersPage';
import { ToolsPage } from '../pages/tools/ToolsPage';

/** The pages of the window (issue 8). Each entry is a nav item and a route. */
export interface PageDef {
  path: string;
  label: string;
  render: () => ReactNode;
}

export const PAGES: PageDef[] = [
  { path: '/approvals', label: 'Approvals', render: () => <ApprovalsPage /> },
  { path: '/activity', label: 'Activity', render: () => <ActivityPage /> },
  { path: '/tools', label: 'Tools', render: () => <ToolsPage /> },
  { path: '/agents', label: 'Agents', render: () => <AgentsPage /> },
  { path: '/accounts', label: 'Accounts', render: () => <AccountsPage /> },
  { path: '/servers', label: 'Servers', render: () => <ServersPage /> },
];

export const DEFAULT_PATH = '/approvals';
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

/** The request a popup or approval link is about, if any. */
export function focusedRequest(path: string, params: URLSearchParams): string | null {
  if (path.startsWith(APPROVE_PREFIX)) return decodeURIComponent(path.slice(APPROVE_PREFIX.length));
  return params.get('id');
}
