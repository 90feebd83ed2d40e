import { beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { nextEvent } from '../../test-support/core-events.js';
import { textOf } from '../../test-support/harness.js';
import { notifierWorldPerTest } from '../../test-support/notifier-world.js';
import { ApprovalDialog, DIALOG_BUTTONS } from './approval-dialog.js';
import {
  ApprovalNotifier,
  MAX_STARTUP_NOTIFICATIONS,
  NOTIFICATION_ACTIONS,
} from './approval-notifier.js';
import { approvalHeadline } from './approval-text.js';
import {
  BrowserWindow,
  dialog,
  Notification,
  platformRules,
} from '../../test-support/fake-electron.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

/** Native approvals against a real core (test-support/notifier-world.ts). */
const setup = notifierWorldPerTest();

describe('notification per approval request', () => {
  it('says who wants to do what, offers Allow / Deny, and Allow runs the call once', async () => {
    const { source, app, request } = await setup();
    const { call, approval } = await request();
    const n = Notification.instances.at(-1)!;
    expect(n.shown).toBe(true);
    expect(n.options.title).toBe(approvalHeadline(approval));
    expect(n.options.title).toBe('test wants to use count_send');
    // The whole call is in the text, first (issue 32 item 6: toasts and banners cut long text),
    // so the buttons decide on what the user saw; the server's description comes after it.
    expect(n.options.body).toBe('count_send {"to":"bob@example.com"}\nSends a message.');
    expect(n.options.actions!.map((a) => a.text)).toEqual([...NOTIFICATION_ACTIONS]);
    expect(source.count('count_send')).toBe(0);

    const updated = nextEvent(
      app,
      (e) => e.type === 'approval.updated' && e.approval.state === 'done',
    );
    n.clickAction(0);
    const result = await call;
    await updated;
    expect(textOf(result)).toMatch(/count_send ok/);
    expect(source.count('count_send')).toBe(1);
    expect((await app.control.getApproval(approval.id)).state).toBe('done');
    // Settled: its notification is gone.
    expect(n.closed).toBe(true);
  });

  it('Deny reaches the agent as a denial and nothing runs', async () => {
    const { source, app, request } = await setup();
    const { call, approval } = await request();
    Notification.instances.at(-1)!.clickAction(1);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/denied/);
    expect(source.count('count_send')).toBe(0);
    expect((await app.control.getApproval(approval.id)).reason).toBe(
      'Denied from the notification',
    );
  });

  it('clicking the notification opens the approval window for that request; no decision is made', async () => {
    const { app, openApproval, request } = await setup();
    const { approval } = await request();
    Notification.instances.at(-1)!.emit('click');
    // The user clicked: the window may take focus.
    expect(openApproval).toHaveBeenCalledWith(approval.id, true);
    expect((await app.control.getApproval(approval.id)).state).toBe('pending');
    await app.control.decide(approval.id, { kind: 'deny' });
  });

  it('a request decided elsewhere closes its notification; a late button click changes nothing', async () => {
    const { app, request } = await setup();
    const { call, approval } = await request();
    const n = Notification.instances.at(-1)!;
    await app.control.decide(approval.id, { kind: 'deny', reason: 'in the window' });
    await call;
    expect(n.closed).toBe(true);
    n.clickAction(0);
    await new Promise((r) => setImmediate(r));
    const after = await app.control.getApproval(approval.id);
    expect(after).toMatchObject({ state: 'denied', reason: 'in the window' });
  });

  it('where notifications are unsupported, the approval window opens instead', async () => {
    Notification.supported = false;
    const { app, openApproval, request } = await setup();
    const { approval } = await request();
    expect(Notification.instances).toHaveLength(0);
    // Opened by Airlock, not by the user: no focus theft.
    expect(openApproval).toHaveBeenCalledWith(approval.id, false);
    await app.control.decide(approval.id, { kind: 'deny' });
  });
});

describe('no request waits unseen (issue 21, item 3)', () => {
  it("a notification the OS refuses ('failed') opens the approval window instead, without taking focus", async () => {
    Notification.failWith = 'Notification permission denied';
    const { app, openApproval, request } = await setup();
    const { approval } = await request();
    await eventually(() => expect(openApproval).toHaveBeenCalledWith(approval.id, false));
    await app.control.decide(approval.id, { kind: 'deny' });
  });

  it('requests already pending when Airlock starts raise their notifications', async () => {
    const w = await setup();
    const { app, request } = w;
    w.notifier.stop();
    const { approval } = await request();
    expect(Notification.instances).toHaveLength(0); // requested while Airlock's shell was not running
    const again = new ApprovalNotifier({
      control: app.control,
      events: app.events,
      approvalStyle: () => 'window',
      openApproval: vi.fn(),
      dialog: new ApprovalDialog({ control: app.control }),
    });
    w.notifier = again;
    await again.start();
    expect(Notification.instances).toHaveLength(1);
    expect(Notification.instances[0]!.options.id).toBe(`approval-${approval.id}`);
    expect(Notification.instances[0]!.shown).toBe(true);
    await app.control.decide(approval.id, { kind: 'deny' });
  });

  it('many pending at start-up: one summary notification that opens the approval window', async () => {
    const w = await setup();
    const { app, request } = w;
    w.notifier.stop();
    const ids: string[] = [];
    for (let i = 0; i <= MAX_STARTUP_NOTIFICATIONS; i++)
      ids.push((await request({ to: `u${i}@x.org` })).approval.id);
    const openApproval = vi.fn();
    w.notifier = new ApprovalNotifier({
      control: app.control,
      events: app.events,
      approvalStyle: () => 'window',
      openApproval,
      dialog: new ApprovalDialog({ control: app.control }),
    });
    const before = Notification.instances.length;
    await w.notifier.start();
    const raised = Notification.instances.slice(before);
    expect(raised).toHaveLength(1);
    expect(raised[0]!.options.title).toBe(`${ids.length} requests are waiting for your approval`);
    raised[0]!.emit('click');
    expect(openApproval).toHaveBeenCalledWith(undefined, true);
    for (const id of ids) await app.control.decide(id, { kind: 'deny' });
  });

  it('Linux shows no buttons: a click on the notification opens the card', async () => {
    platformRules.platform = 'linux';
    const { app, openApproval, request } = await setup();
    const { approval } = await request();
    const n = Notification.instances.at(-1)!;
    expect(() => n.clickAction(0)).toThrow(/no notification action buttons/);
    n.emit('click');
    expect(openApproval).toHaveBeenCalledWith(approval.id, true);
    await app.control.decide(approval.id, { kind: 'deny' });
  });
});

describe('native dialog instead (shell.approvalStyle = dialog)', () => {
  // Windows and Linux: a parentless message box is asynchronous and its signal closes it.
  const WIN = { platform: 'win32' as const };
  beforeEach(() => void (platformRules.platform = 'win32'));

  it('asks with Allow once / Always allow… / Deny and the exact arguments; Allow once runs it', async () => {
    dialog.answers.push(0);
    const { source, app, request } = await setup({ shell: { approvalStyle: 'dialog' } }, WIN);
    const done = nextEvent(
      app,
      (e) => e.type === 'approval.updated' && e.approval.state === 'done',
    );
    const { call, approval } = await request();
    await call;
    await done;
    expect(Notification.instances).toHaveLength(0);
    const shown = dialog.shown[0]!;
    expect(shown.buttons).toEqual([...DIALOG_BUTTONS]);
    expect(shown.message).toBe('test wants to use count_send');
    expect(shown.detail).toContain('"to": "bob@example.com"');
    // Escape and Enter both deny: approving takes a deliberate click.
    expect(shown).toMatchObject({ cancelId: 2, defaultId: 2 });
    expect(source.count('count_send')).toBe(1);
    expect((await app.control.getApproval(approval.id)).state).toBe('done');
  });

  it('Always allow… grants nothing from the dialog: it opens the request in the window, where the grant is shaped and confirmed (issue 16 item 2)', async () => {
    dialog.answers.push(1);
    const { source, app, openApproval, request } = await setup(
      { shell: { approvalStyle: 'dialog' } },
      WIN,
    );
    const { approval } = await request();
    await eventually(() => expect(openApproval).toHaveBeenCalled());
    expect(openApproval.mock.calls[0]![0]).toBe(approval.id);
    expect((await app.control.getApproval(approval.id)).state).toBe('pending');
    expect(await app.control.listGrants()).toEqual([]);
    expect(source.count('count_send')).toBe(0);
    await app.control.decide(approval.id, { kind: 'deny' });
  });

  it('a dialog whose request is decided elsewhere closes without deciding', async () => {
    const { app, request } = await setup({ shell: { approvalStyle: 'dialog' } }, WIN);
    const { call, approval } = await request();
    expect(dialog.shown).toHaveLength(1);
    expect((dialog.shown[0]!.signal as AbortSignal).aborted).toBe(false);
    await app.control.decide(approval.id, { kind: 'deny', reason: 'from the CLI' });
    await call;
    expect((dialog.shown[0]!.signal as AbortSignal).aborted).toBe(true);
    expect((await app.control.getApproval(approval.id)).reason).toBe('from the CLI');
  });
  it('macOS, no window of ours on screen: no parentless box (it would stop the whole process and ignore its signal); the request opens in the approval window, without focus (issue 32, item 2)', async () => {
    platformRules.platform = 'darwin';
    const { app, openApproval, request } = await setup(
      { shell: { approvalStyle: 'dialog' } },
      { platform: 'darwin', parentWindow: () => null },
    );
    const { call, approval } = await request();
    await eventually(() => expect(openApproval).toHaveBeenCalledWith(approval.id, false));
    expect(dialog.shown.filter((b) => b.blocking)).toEqual([]);
    expect(dialog.shown).toEqual([]);
    await app.control.decide(approval.id, { kind: 'deny' });
    await call;
  });

  it('macOS, a window of ours on screen: a sheet on it, which a decision made elsewhere closes (issue 32, item 2)', async () => {
    platformRules.platform = 'darwin';
    const win = new BrowserWindow({});
    win.show();
    const { app, request } = await setup(
      { shell: { approvalStyle: 'dialog' } },
      { platform: 'darwin', parentWindow: () => (win.isVisible() ? (win as never) : null) },
    );
    const { call, approval } = await request();
    await eventually(() => expect(dialog.shown).toHaveLength(1));
    const box = dialog.shown[0]!;
    expect(box.parent).toBe(win);
    expect(box.blocking).toBe(false);
    expect(box.open).toBe(true);
    await app.control.decide(approval.id, { kind: 'deny', reason: 'from the CLI' });
    await call;
    await eventually(() => expect(box.open).toBe(false));
    expect((await app.control.getApproval(approval.id)).reason).toBe('from the CLI');
  });
});
