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
/** The small always-on-top approval window (issue 8, issue 9 item 3): the queue alone. */
export const POPUP_PATH = '/popup';
