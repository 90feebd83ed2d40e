import type { ReactNode } from 'react';
import { ApprovalsPage } from '../approvals/ApprovalsPage';
import { Placeholder } from '../pages/Placeholder';

/**
 * The pages of the window (issue 8). Each entry is a nav item and a route;
 * a page that is not built yet renders a placeholder that points to the CLI.
 */
export interface PageDef {
  path: string;
  label: string;
  render: () => ReactNode;
}

export const PAGES: PageDef[] = [
  { path: '/approvals', label: 'Approvals', render: () => <ApprovalsPage /> },
  {
    path: '/activity',
    label: 'Activity',
    render: () => (
      <Placeholder
        title="Activity"
        cli="airlock status"
        what="Every call with its time, agent, tool, decision, outcome and duration."
      />
    ),
  },
  {
    path: '/tools',
    label: 'Tools',
    render: () => (
      <Placeholder
        title="Tools"
        cli="airlock tools list"
        what="Which tools run freely and which ask first, per agent."
      />
    ),
  },
  {
    path: '/agents',
    label: 'Agents',
    render: () => (
      <Placeholder
        title="Agents"
        cli="airlock agent add NAME"
        what="Connect an agent and copy its setup for Claude Code, Cursor, VS Code and others."
      />
    ),
  },
  {
    path: '/accounts',
    label: 'Accounts',
    render: () => (
      <Placeholder title="Accounts" what="Connect Google accounts for Gmail and Calendar." />
    ),
  },
  {
    path: '/servers',
    label: 'Servers',
    render: () => <Placeholder title="Remote servers" what="Add remote MCP servers by URL." />,
  },
];

export const DEFAULT_PATH = '/approvals';
/** The small always-on-top approval window (issue 8, issue 9 item 3): the queue alone. */
export const POPUP_PATH = '/popup';
