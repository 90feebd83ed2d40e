import { Notification, type NativeImage } from 'electron';
import {
  type ApprovalView,
  type ControlApi,
  type CoreEvent,
  type Decision,
} from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import { decidedElsewhere, type ApprovalDialog } from './approval-dialog.js';
import { notificationText } from './approval-text.js';
import type { ApprovalStyle } from './tray-menu.js';

/** Notification buttons, in order; the 'action' event reports the index. */
export const NOTIFICATION_ACTIONS = ['Allow', 'Deny'] as const;
const SUMMARY = '*summary*';
const ACTION_DECISIONS: Decision[] = [
  { kind: 'allow_once' },
  { kind: 'deny', reason: 'Denied from the notification' },
];

/** More requests than this waiting at start-up get one summary notification instead of one each. */
export const MAX_STARTUP_NOTIFICATIONS = 3;

export interface NotifierDeps {
  control: Pick<ControlApi, 'decide' | 'listPending' | 'getApproval'>;
  events: { subscribe(listener: (event: CoreEvent) => void): () => void };
  /** Read on every request, so a settings change applies to the next one. */
  approvalStyle: () => ApprovalStyle;
  /**
   * Opens the approval window (on one request when `id` is given). `userAsked`
   * is true for a click on the notification; false when Airlock opens it on
   * its own (no notifications, a failed one), and then it must not take focus.
   */
  openApproval: (id: string | undefined, userAsked: boolean) => void;
  dialog: Pick<ApprovalDialog, 'ask' | 'withdraw' | 'stop'> &
    Partial<Pick<ApprovalDialog, 'refresh'>>;
  /**
   * Whether the OS will show our notifications at all, beyond Electron's isSupported(): false on
   * Windows without a Start-menu shortcut for our AppUserModelID (toast-support.ts), where they
   * are dropped without a 'failed' event.
   */
  notificationsShown?: () => boolean;
  /** The notification icon: a path, or an image (a small one on Linux: tray-icons.ts). */
  icon?: string | NativeImage;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Native approvals (issue 9, item 3). Each approval.requested raises a
 * notification "<agent> wants to <effect>"; clicking it opens the approval
 * window. Allow / Deny buttons are offered only when the whole call (tool
 * and arguments) fits in the notification's text (issue 17, item 6);
 * otherwise the notification says so and only opens the window. Buttons
 * appear where the OS shows them: macOS (a signed app; Electron 45 uses the
 * User Notifications framework) and Windows (AppUserModelId set); Linux
 * shows none — there a click opens the window. With the 'dialog' setting a native dialog asks
 * instead. Where notifications are unsupported or fail to show ('failed':
 * Windows without a Start-menu shortcut, unsigned macOS builds, permission
 * denied), the approval window opens without taking focus (issue 21, item 3).
 */
export class ApprovalNotifier {
  // Live notifications are kept referenced: one that is garbage-collected stops emitting click/action.
  private readonly shown = new Map<string, Notification>();
  private off: (() => void) | null = null;

  constructor(private readonly deps: NotifierDeps) {}

  /** Listens for requests, and raises what was already waiting when Airlock started. */
  async start(): Promise<void> {
    this.off = this.deps.events.subscribe((event) => {
      if (event.type === 'approval.requested') this.request(event.approval);
      else if (event.type === 'approval.updated' && event.approval.state !== 'pending')
        this.settled(event.approval.id);
      // Still pending, changed (its tool changed since it was made): a dialog waiting its turn
      // shows it as it is now, without an allow the core would refuse.
      else if (event.type === 'approval.updated') this.deps.dialog.refresh?.(event.approval);
    });
    await this.raiseWaiting();
  }

  /**
   * Requests still pending at start-up (made while the window was closed,
   * or kept across a restart) would otherwise wait unseen until they expire.
   */
  private async raiseWaiting(): Promise<void> {
    let pending: ApprovalView[];
    try {
      pending = await this.deps.control.listPending();
    } catch (err) {
      this.deps.logger?.warn('reading pending approvals at start-up failed', {
        error: err instanceof Error ? err.message : String(err),
      });
      return;
    }
    if (!this.off) return; // stopped meanwhile
    if (pending.length <= MAX_STARTUP_NOTIFICATIONS || this.deps.approvalStyle() === 'dialog') {
      for (const a of pending) this.request(a);
      return;
    }
    this.summary(pending.length);
  }

  /** One notification for many waiting requests; a click opens the approval window. */
  private summary(count: number): void {
    if (!this.canNotify()) return this.deps.openApproval(undefined, false);
    const n = new Notification({
      id: 'approval-summary',
      title: `${count} requests are waiting for your approval`,
      body: 'Open Airlock to review them.',
      timeoutType: 'never',
      ...(this.deps.icon ? { icon: this.deps.icon } : {}),
    });
    n.on('click', () => this.deps.openApproval(undefined, true));
    n.on('failed', (_e, error) => this.failed(undefined, error));
    n.on('close', () => this.shown.delete(SUMMARY));
    this.shown.set(SUMMARY, n);
    n.show();
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
    if (!this.canNotify()) {
      this.deps.openApproval(approval.id, false);
      return;
    }
    const text = notificationText(approval);
    const n = new Notification({
      id: `approval-${approval.id}`,
      title: text.title,
      body: text.body,
      // Buttons only when the whole call, and nothing hiding text, is in what is shown: a
      // decision on what was shown (issue 17 item 6, issue 32 item 6).
      actions: text.allow
        ? NOTIFICATION_ACTIONS.map((t) => ({ type: 'button' as const, text: t }))
        : [],
      // Stays until answered on Linux/Windows; an approval is not a passing toast.
      timeoutType: 'never',
      ...(this.deps.icon ? { icon: this.deps.icon } : {}),
    });
    n.on('click', () => this.deps.openApproval(approval.id, true));
    n.on('action', (details, legacyIndex) => {
      const index = typeof details?.actionIndex === 'number' ? details.actionIndex : legacyIndex;
      // A button we did not offer (none for a call not shown whole) decides nothing.
      if (!text.allow) return this.deps.openApproval(approval.id, true);
      void this.decide(approval.id, index);
    });
    n.on('failed', (_e, error) => this.failed(approval.id, error));
    n.on('close', () => this.shown.delete(approval.id));
    this.shown.set(approval.id, n);
    n.show();
  }

  private canNotify(): boolean {
    return Notification.isSupported() && this.deps.notificationsShown?.() !== false;
  }

  /** The OS refused the notification: the request must not wait unseen, so the window opens. */
  private failed(id: string | undefined, error: string): void {
    this.shown.delete(id ?? SUMMARY);
    this.deps.logger?.warn('a notification could not be shown; opening the approval window', {
      error,
    });
    if (this.off) this.deps.openApproval(id, false);
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
      this.deps.openApproval(id, true);
      return;
    }
    try {
      await this.deps.control.decide(id, decision);
    } catch (err) {
      if (await decidedElsewhere(this.deps.control, id, err)) return;
      this.deps.logger?.warn('decision from a notification failed', {
        approval: id,
        error: err instanceof Error ? err.message : String(err),
      });
      this.deps.openApproval(id, true);
    }
  }
}
