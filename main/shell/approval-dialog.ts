import { dialog, type BaseWindow, type MessageBoxOptions } from 'electron';
import {
  ControlError,
  type ApprovalView,
  type ControlApi,
  type Decision,
} from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import {
  approvalArguments,
  approvalHeadline,
  approvalSubline,
  dialogArguments,
  argumentsHideText,
  hidesText,
} from './approval-text.js';

/** Button order of the dialog; Deny is both the default and the Escape answer. */
export const DIALOG_BUTTONS = ['Allow once', 'Always allow…', 'Deny'] as const;
const DECISIONS: (Decision | 'grant-in-window')[] = [
  { kind: 'allow_once' },
  // A standing grant is shaped (agent, time, arguments) and confirmed in the window's grant
  // dialog (issue 16 item 2): a native message box can do neither.
  'grant-in-window',
  { kind: 'deny', reason: 'Denied in the Airlock dialog' },
];
const DENY = 2;
/** When the arguments had to be cut, the dialog cannot approve them: it offers the window instead. */
export const CUT_DIALOG_BUTTONS = ['Open in Airlock', 'Deny'] as const;

/**
 * The native-dialog way of asking (issue 9, item 3, the `shell.approvalStyle:
 * 'dialog'` setting): one message box per request, one at a time, with the
 * exact arguments in the details. A request decided elsewhere (window, CLI,
 * expiry) closes its dialog.
 *
 * macOS (issue 32, item 2): a message box without a parent window runs
 * `[NSAlert runModal]` — a synchronous modal loop that stops the main
 * process (the MCP endpoint, expiry timers, every window) until the user
 * answers, and that `signal` cannot close (Electron's
 * shell/browser/ui/message_box_mac.mm ShowMessageBox; docs/api/dialog.md:
 * "On macOS, `signal` does not work with message boxes that do not have a
 * parent window, since those message boxes run synchronously"). So on macOS
 * the box is only ever a sheet on a window of ours the user can see
 * (docs/api/dialog.md "Sheets"); with no such window the request opens in
 * the approval window instead, as a failed notification does.
 */
export class ApprovalDialog {
  private readonly queue: ApprovalView[] = [];
  private showing: { id: string; abort: AbortController } | null = null;
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: {
      control: Pick<ControlApi, 'decide' | 'getApproval'>;
      /** Opens the approval window on a request (the user asked: a dialog button). */
      openApproval?: (id: string) => void;
      /** Opens the approval window on a request without taking focus (no dialog can be shown). */
      showInWindow?: (id: string) => void;
      /** A window of ours on screen, for a sheet (macOS); null when none is. */
      parentWindow?: () => BaseWindow | null;
      platform?: NodeJS.Platform;
      logger?: Pick<Logger, 'warn'>;
    },
  ) {}

  ask(approval: ApprovalView): Promise<void> {
    if (this.showing?.id === approval.id || this.queue.some((q) => q.id === approval.id))
      return this.idle;
    this.queue.push(approval);
    if (!this.showing) this.idle = this.drain();
    return this.idle;
  }

  /**
   * A queued request changed while it waited its turn (its tool changed: ApprovalView.refused):
   * it is shown as it is now. One already on screen keeps its box; an allow refused there opens
   * the window (showOne).
   */
  refresh(approval: ApprovalView): void {
    const i = this.queue.findIndex((q) => q.id === approval.id);
    if (i >= 0 && approval.state === 'pending') this.queue[i] = approval;
  }

  /** The request is no longer pending: drop it from the queue or close its dialog. */
  withdraw(id: string): void {
    const i = this.queue.findIndex((q) => q.id === id);
    if (i >= 0) this.queue.splice(i, 1);
    if (this.showing?.id === id) this.showing.abort.abort();
  }

  /** Closes the open dialog and forgets the queue (quit). */
  stop(): void {
    this.queue.length = 0;
    this.showing?.abort.abort();
  }

  private async drain(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      const abort = new AbortController();
      this.showing = { id: next.id, abort };
      try {
        await this.showOne(next, abort.signal);
      } finally {
        this.showing = null;
      }
    }
  }

  private async showOne(a: ApprovalView, signal: AbortSignal): Promise<void> {
    const args = dialogArguments(a);
    const headline = approvalHeadline(a);
    const subline = approvalSubline(a);
    // Only a call shown whole may be approved here (issue 17, item 6): cut arguments get
    // "Open in Airlock" instead of the Allow buttons — and so do texts with characters that hide
    // or reorder what they say, which a message box draws as they act (a notification holds
    // them to the same rule; the window names each one).
    // (Checked without the line breaks the box lays its text out with: approval-text.ts.)
    const hidden =
      argumentsHideText(a.editedArguments ?? a.arguments) ||
      [headline.replace(/\n/g, ' '), subline.replace(/\n/g, ' ')].some(hidesText);
    // An allow the core would refuse now (its tool changed since the request was made,
    // ApprovalView.refused) is not offered either: the box says why, and the window can deny it.
    const refused = a.refused?.allow_once?.message;
    const cut = args !== approvalArguments(a) || hidden || refused !== undefined;
    const buttons = cut ? [...CUT_DIALOG_BUTTONS] : [...DIALOG_BUTTONS];
    const deny = buttons.length - 1;
    const options: MessageBoxOptions = {
      type: 'question',
      title: 'Airlock — approval',
      message: headline,
      // The box grows with its text, so long arguments are cut (issue 21, item 5); the whole
      // call is in the approval window.
      detail: `${subline}\n\nArguments:\n${args}${
        hidden
          ? '\n\nThis request holds characters that hide or reorder text, or letters imitating others: open Airlock, which names each one.'
          : ''
      }${refused ? `\n\nAllow is not possible now: ${refused}` : ''}\n\nRequest ${a.id}, expires ${a.expiresAt}`,
      buttons,
      defaultId: deny,
      cancelId: deny,
      noLink: true,
      signal,
    };
    let response: number;
    if ((this.deps.platform ?? process.platform) === 'darwin') {
      const parent = this.deps.parentWindow?.() ?? null;
      if (!parent) {
        this.deps.showInWindow?.(a.id);
        return;
      }
      ({ response } = await dialog.showMessageBox(parent, options));
    } else {
      // Windows and Linux show a parentless box without blocking, and `signal` closes it.
      ({ response } = await dialog.showMessageBox(options));
    }
    if (signal.aborted) return;
    if (cut && response === 0) {
      this.deps.openApproval?.(a.id);
      return;
    }
    const decision = cut ? DECISIONS[DENY]! : (DECISIONS[response] ?? DECISIONS[DENY]!);
    if (decision === 'grant-in-window') {
      this.deps.openApproval?.(a.id);
      return;
    }
    try {
      await this.deps.control.decide(a.id, decision);
    } catch (err) {
      // Decided elsewhere in the meantime: the other decision stands.
      if (await decidedElsewhere(this.deps.control, a.id, err)) return;
      this.deps.logger?.warn('decision from the dialog failed', {
        approval: a.id,
        error: err instanceof Error ? err.message : String(err),
      });
      // Still waiting (an allow refused because the tool changed since the request was shown,
      // main/approvals/engine.ts): the window's card says why and can deny it; it must not wait unseen.
      this.deps.openApproval?.(a.id);
    }
  }
}

/**
 * Whether a decision failed because the request was decided elsewhere (or is gone): then the
 * other decision stands and there is nothing to say. A CONFLICT on a request still pending is not
 * that: an allow is refused while the tool changed since its card was made (engine.ts), and the
 * user who pressed Allow must learn that nothing ran.
 */
export async function decidedElsewhere(
  control: Pick<ControlApi, 'getApproval'>,
  id: string,
  err: unknown,
): Promise<boolean> {
  if (!(err instanceof ControlError)) return false;
  if (err.code === 'NOT_FOUND') return true;
  if (err.code !== 'CONFLICT') return false;
  try {
    return (await control.getApproval(id)).state !== 'pending';
  } catch {
    return true;
  }
}
