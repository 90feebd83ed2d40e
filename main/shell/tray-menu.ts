import type { MenuItemConstructorOptions } from 'electron';
import type { ApprovalView, SourceStatusView, StatusView } from '../../common/contract/index.js';
import { cutText } from '../../common/text-cut.js';
import { approvalHeadline } from './approval-text.js';

/**
 * The tray menu as a pure function of state (issue 9, item 2): the tray
 * service rebuilds it from scratch on every change, so it can never show
 * a stale item, and each state can be tested without Electron.
 */
export type ApprovalStyle = 'window' | 'dialog';
export type TrayIconState = 'idle' | 'pending' | 'paused' | 'alert';

export interface TrayState {
  status: StatusView;
  pending: ApprovalView[];
  openAtLogin: boolean;
  approvalStyle: ApprovalStyle;
}

export interface TrayActions {
  openApproval(id: string): void;
  /** Opens the main window on a renderer route ('/approvals', '/agents', '/accounts', …). */
  openPage(route?: string): void;
  copyMcpUrl(url: string): void;
  setPaused(paused: boolean): void;
  setOpenAtLogin(on: boolean): void;
  setApprovalStyle(style: ApprovalStyle): void;
  quit(): void;
}

/** How many pending requests get their own item before "All pending approvals…". */
export const MAX_PENDING_ITEMS = 8;

const needsAttention = (s: SourceStatusView) =>
  (s.kind === 'google' || s.kind === 'remote') && s.state === 'error';

/** Waiting approvals come first (they need a click now), then a broken account/server, then paused. */
export function trayIconState(state: TrayState): TrayIconState {
  if (state.pending.length > 0) return 'pending';
  if (state.status.sources.some(needsAttention)) return 'alert';
  if (state.status.paused) return 'paused';
  return 'idle';
}

function endpoint(mcpUrl: string): string {
  try {
    return new URL(mcpUrl).host;
  } catch {
    return mcpUrl;
  }
}

export function statusLine(status: StatusView): string {
  if (!status.running) return 'Airlock is not running';
  const agents =
    status.agentsConnected === 1
      ? '1 agent connected'
      : `${status.agentsConnected} agents connected`;
  return `${status.paused ? 'Paused' : 'Running'} on ${endpoint(status.mcpUrl)} · ${agents}`;
}

export function trayTooltip(state: TrayState): string {
  const parts = [`Airlock — ${statusLine(state.status)}`];
  if (state.pending.length) parts.push(`${state.pending.length} waiting for approval`);
  const broken = state.status.sources.filter(needsAttention);
  if (broken.length) parts.push(`${broken.map((s) => s.label).join(', ')} needs attention`);
  return parts.join('\n');
}

function sourceLabel(s: SourceStatusView): string {
  if (s.state === 'error')
    return `${s.label} — ${s.kind === 'google' ? 'needs reconnecting' : `error${s.detail ? `: ${cutText(s.detail, 60)}` : ''}`}`;
  if (s.state === 'loading') return `${s.label} — connecting…`;
  return `${s.label} — ${s.kind === 'google' ? 'connected' : `${s.toolCount} tools`}`;
}

function pendingItems(state: TrayState, a: TrayActions): MenuItemConstructorOptions {
  const n = state.pending.length;
  if (n === 0) return { id: 'pending', label: 'Pending approvals (0)', enabled: false };
  const items: MenuItemConstructorOptions[] = state.pending
    .slice(0, MAX_PENDING_ITEMS)
    .map((p) => ({
      id: `pending:${p.id}`,
      label: cutText(approvalHeadline(p), 70),
      click: () => a.openApproval(p.id),
    }));
  if (n > MAX_PENDING_ITEMS)
    items.push(
      { type: 'separator' },
      {
        id: 'pending:all',
        label: `All pending approvals (${n})…`,
        click: () => a.openPage('/approvals'),
      },
    );
  return { id: 'pending', label: `Pending approvals (${n})`, submenu: items };
}

function accountItems(state: TrayState, a: TrayActions): MenuItemConstructorOptions[] {
  const accounts = state.status.sources.filter((s) => s.kind === 'google');
  return [
    ...accounts.map((s) => ({
      id: `account:${s.id}`,
      label: sourceLabel(s),
      submenu: [
        {
          id: `account:${s.id}:reconnect`,
          label: 'Reconnect…',
          click: () => a.openPage('/accounts'),
        },
      ],
    })),
    {
      id: 'connect-google',
      label: 'Connect Google account…',
      click: () => a.openPage('/accounts'),
    },
  ];
}

function serverItems(state: TrayState, a: TrayActions): MenuItemConstructorOptions[] {
  const servers = state.status.sources.filter((s) => s.kind === 'remote');
  if (servers.length === 0) return [];
  return [
    {
      id: 'servers',
      label: `Remote servers (${servers.length})`,
      submenu: servers.map((s) => ({
        id: `server:${s.id}`,
        label: sourceLabel(s),
        click: () => a.openPage('/servers'),
      })),
    },
  ];
}

export function buildTrayMenu(state: TrayState, a: TrayActions): MenuItemConstructorOptions[] {
  const { status } = state;
  return [
    { id: 'status', label: statusLine(status), enabled: false },
    { type: 'separator' },
    pendingItems(state, a),
    { type: 'separator' },
    ...accountItems(state, a),
    ...serverItems(state, a),
    { type: 'separator' },
    {
      id: 'copy-mcp-url',
      label: 'Copy MCP URL',
      enabled: !!status.mcpUrl,
      click: () => a.copyMcpUrl(status.mcpUrl),
    },
    { id: 'connect-agent', label: 'Connect an agent…', click: () => a.openPage('/agents') },
    { type: 'separator' },
    {
      id: 'pause',
      label: 'Pause side effects',
      type: 'checkbox',
      checked: status.paused,
      click: () => a.setPaused(!status.paused),
    },
    {
      id: 'open-at-login',
      label: 'Start at login',
      type: 'checkbox',
      checked: state.openAtLogin,
      click: () => a.setOpenAtLogin(!state.openAtLogin),
    },
    {
      id: 'approval-style',
      label: 'Ask for approval with',
      submenu: [
        {
          id: 'approval-style:window',
          label: 'Notification and window',
          type: 'radio',
          checked: state.approvalStyle === 'window',
          click: () => a.setApprovalStyle('window'),
        },
        {
          id: 'approval-style:dialog',
          label: 'Dialog',
          type: 'radio',
          checked: state.approvalStyle === 'dialog',
          click: () => a.setApprovalStyle('dialog'),
        },
      ],
    },
    { type: 'separator' },
    { id: 'open', label: 'Open Airlock', click: () => a.openPage() },
    { id: 'quit', label: 'Quit Airlock', click: () => a.quit() },
  ];
}
