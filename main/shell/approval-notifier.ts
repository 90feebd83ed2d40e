import { Notification } from 'electron';
import {
  ControlError,
  type ApprovalView,
  type ControlApi,
  type CoreEvent,
  type Decision,
} from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import type { ApprovalDialog } from './approval-dialog.js';
import { approvalHeadline, approvalSubline } from './approval-text.js';
import type { ApprovalStyle } from './tray-menu.js';

/** Notification buttons, in order; the 'action' event reports the index. */
export const NOTIFICATION_ACTIONS = ['Allow', 'Deny'] as const;
const ACTION_DECISIONS: Decision[] = [
  { kind: 'allow_once' },
  { kind: 'deny', reason: 'Denied from the notification' },
];

export interface NotifierDeps {
  control: Pick<ControlApi, 'decide'>;
  events: { subscribe(listener: (event: CoreEvent) => void): () => void };
  /** Read on every request, so a settings change applies to the next one. */
  approvalStyle: () => ApprovalStyle;
  openApproval: (id: string) => void;
  dialog: Pick<ApprovalDialog, 'ask' | 'withdraw' | 'stop'>;
  iconPath?: string;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Native approvals (issue 9, item 3). Each approval.requested raises a
 * notification "<agent> wants to <effect>" with Allow / Deny buttons where
 * the OS shows them (macOS, signed and with NSUserNotificationAlertStyle =
 * alert; Windows with the AppUserModelId set); clicking it opens the
 * approval window. With the 'dialog' setting a native dialog asks instead.
 * Where notifications are not supported at all, the window opens directly.
 */
export class ApprovalNotifier {
  // Live notifications are kept referenced: one that is garbage-collected stops emitting click/action.
  private readonly shown = new Map<string, Notification>();
  private off: (() => void) | null = null;

  constructor(private readonly deps: NotifierDeps) {}

  start(): void {
    this.off = this.deps.events.subscribe((event) => {
      if (event.type === 'approval.requested') this.request(event.approval);
      else if (event.type === 'approval.updated' && event.approval.state !== 'pending')
        this.settled(event.approval.id);
    });
  }

  stop(): void {
    this.off?.();
    this.off = null;
    for (const n of this.shown.values()) n.close();
    this.shown.clear();
    this.deps.dialog.stop();
  }

  request(approval: ApprovalView): void {
    if (approval.state !== 'pending' || this.shown.has(approval.id)) return;
    if (this.deps.approvalStyle() === 'dialog') {
      void this.deps.dialog.ask(approval);
      return;
    }
    if (!Notification.isSupported()) {
      this.deps.openApproval(approval.id);
      return;
    }
    const n = new Notification({
      id: `approval-${approval.id}`,
      title: approvalHeadline(approval),
      body: approvalSubline(approval),
      actions: NOTIFICATION_ACTIONS.map((text) => ({ type: 'button' as const, text })),
      // Stays until answered on Linux/Windows; an approval is not a passing toast.
      timeoutType: 'never',
      ...(this.deps.iconPath ? { icon: this.deps.iconPath } : {}),
    });
    n.on('click', () => this.deps.openApproval(approval.id));
    n.on('action', (details, legacyIndex) => {
      const index = typeof details?.actionIndex === 'number' ? details.actionIndex : legacyIndex;
      void this.decide(approval.id, index);
    });
    n.on('close', () => this.shown.delete(approval.id));
    this.shown.set(approval.id, n);
    n.show();
  }

  /** Decided anywhere (window, CLI, dialog, expiry): its notification goes away. */
  settled(id: string): void {
    this.deps.dialog.withdraw(id);
    const n = this.shown.get(id);
    if (!n) return;
    this.shown.delete(id);
    n.close();
  }

  private async decide(id: string, index: number): Promise<void> {
    const decision = ACTION_DECISIONS[index];
    if (!decision) {
      // An unknown button: let the user decide in the window rather than guess.
      this.deps.openApproval(id);
      return;
    }
    try {
      await this.deps.control.decide(id, decision);
    } catch (err) {
      if (err instanceof ControlError && (err.code === 'CONFLICT' || err.code === 'NOT_FOUND'))
        return;
      this.deps.logger?.warn('decision from a notification failed', {
        approval: id,
        error: err instanceof Error ? err.message : String(err),
      });
      this.deps.openApproval(id);
    }
  }
}
