import { describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { notifierWorldPerTest } from '../../test-support/notifier-world.js';
import { ApprovalDialog, CUT_DIALOG_BUTTONS } from './approval-dialog.js';
import { ApprovalNotifier } from './approval-notifier.js';
import { MAX_DIALOG_ARGUMENTS } from './approval-text.js';
import { dialog, Notification, platformRules } from '../../test-support/fake-electron.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

/**
 * Issue 17, item 6: a notification's Allow approved arguments it never
 * showed. The attack: an agent makes a call whose arguments are too long for
 * a notification, or hide what they say (bidi overrides, zero-width
 * characters), hoping the user allows it from the notification's text alone.
 * Allow must exist only where the whole call is shown; otherwise the
 * notification (or the native dialog) can only open the approval window, or deny.
 */
const setup = notifierWorldPerTest();

describe('only a call shown whole can be allowed from a notification (issue 17, item 6)', () => {
  it('long arguments: no buttons, the text says to open Airlock, a click opens the card', async () => {
    const { app, openApproval, request } = await setup();
    const { approval } = await request({ to: `bob@example.com${'x'.repeat(300)}` });
    const n = Notification.instances.at(-1)!;
    expect(n.options.actions).toEqual([]);
    expect(n.options.body).not.toContain('xxxxxxxx');
    expect(n.options.body).toMatch(/see the whole request in Airlock/);
    // Even an action the OS reports anyway decides nothing: it opens the card.
    n.clickAction(0);
    await new Promise((r) => setImmediate(r));
    expect((await app.control.getApproval(approval.id)).state).toBe('pending');
    expect(openApproval).toHaveBeenCalledWith(approval.id, true);
    await app.control.decide(approval.id, { kind: 'deny' });
  });

  it('arguments hiding text (a bidi override, zero-width characters) get no buttons either', async () => {
    const { app, request } = await setup();
    const { approval } = await request({ to: 'moc.elpmaxe@\u202Ebob' });
    expect(Notification.instances.at(-1)!.options.actions).toEqual([]);
    await app.control.decide(approval.id, { kind: 'deny' });
  });
});

describe('the native dialog shows what it approves', () => {
  it('long arguments are cut so the buttons stay on screen, and then the dialog can only open Airlock or deny', async () => {
    // Windows (Linux alike): a parentless box; macOS uses a sheet (approval-notifier.test.ts).
    platformRules.platform = 'win32';
    dialog.answers.push(0);
    const openApproval = vi.fn();
    const w = await setup({ shell: { approvalStyle: 'dialog' } });
    const { app, request } = w;
    w.notifier.stop();
    w.notifier = new ApprovalNotifier({
      control: app.control,
      events: app.events,
      approvalStyle: () => 'dialog',
      openApproval: vi.fn(),
      dialog: new ApprovalDialog({ control: app.control, openApproval, platform: 'win32' }),
    });
    await w.notifier.start();
    const { approval } = await request({ to: `bob@example.com${'line\n'.repeat(2000)}` });
    await eventually(() => expect(openApproval).toHaveBeenCalledWith(approval.id));
    const shown = dialog.shown.at(-1)!;
    expect((shown.detail as string).length).toBeLessThan(MAX_DIALOG_ARGUMENTS.chars + 400);
    expect(shown.detail).toMatch(/open Airlock to see all/);
    expect(shown.buttons).toEqual([...CUT_DIALOG_BUTTONS]);
    expect(shown).toMatchObject({ cancelId: 1, defaultId: 1 });
    expect((await app.control.getApproval(approval.id)).state).toBe('pending');
    await app.control.decide(approval.id, { kind: 'deny' });
  });
});
