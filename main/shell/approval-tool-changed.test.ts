import { describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { notifierWorldPerTest, type NotifierWorld } from '../../test-support/notifier-world.js';
import { nextEvent } from '../../test-support/core-events.js';
import { dialog, Notification, platformRules } from '../../test-support/fake-electron.js';
import { ApprovalDialog, CUT_DIALOG_BUTTONS } from './approval-dialog.js';
import { ApprovalNotifier } from './approval-notifier.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

/**
 * An allow is refused (CONFLICT) while the tool changed since its card was made
 * (main/approvals/engine.ts). The notification's and the dialog's buttons took every CONFLICT for
 * "decided elsewhere" and said nothing: the user pressed Allow, the request stayed pending unseen
 * and the agent waited until it expired. A request still pending after a refused allow opens in
 * the window, where the card says why and can be denied.
 */
const setup = notifierWorldPerTest();

/** What runs changes: the server reads `to` as a list of addresses now (its input schema). */
function changeTool(w: NotifierWorld): void {
  const def = w.source.defs.find((d) => d.name === 'count_send')!;
  w.source.defs = w.source.defs.map((d) =>
    d === def
      ? {
          ...def,
          inputSchema: {
            type: 'object',
            properties: { to: { type: 'string', description: 'Comma-separated: all get it.' } },
          },
        }
      : d,
  );
  w.source.changed();
}

/** Only words about the tool change, as with a server that stamps the time into its description. */
function restampDescription(w: NotifierWorld): void {
  w.source.defs = w.source.defs.map((d) =>
    d.name === 'count_send' ? { ...d, description: 'Sends a message. Listed at 12:00:01.' } : d,
  );
  w.source.changed();
}

describe('a refused allow from outside the window is not silent', () => {
  it("the notification's Allow on a changed tool: nothing runs, and the request opens in the window", async () => {
    const w = await setup();
    const { call, approval } = await w.request();
    changeTool(w);
    Notification.instances.at(-1)!.clickAction(0);
    await eventually(() => expect(w.openApproval).toHaveBeenCalledWith(approval.id, true));
    expect((await w.app.control.getApproval(approval.id)).state).toBe('pending');
    expect(w.source.count('count_send')).toBe(0);
    await w.app.control.decide(approval.id, { kind: 'deny' });
    await call;
  });

  it("the notification's Allow after only the description changed runs the call (what runs is as shown)", async () => {
    const w = await setup();
    const { call, approval } = await w.request();
    restampDescription(w);
    Notification.instances.at(-1)!.clickAction(0);
    await call;
    expect(w.source.count('count_send')).toBe(1);
    expect((await w.app.control.getApproval(approval.id)).state).toBe('done');
    expect(w.openApproval).not.toHaveBeenCalled();
  });

  it("the dialog's Allow once on a changed tool: nothing runs, and the request opens in the window", async () => {
    platformRules.platform = 'win32';
    let answer!: (n: number) => void;
    dialog.answers.push(new Promise<number>((r) => (answer = r)));
    const w = await setup({ shell: { approvalStyle: 'dialog' } }, { platform: 'win32' });
    const { call, approval } = await w.request();
    await eventually(() => expect(dialog.shown).toHaveLength(1));
    changeTool(w);
    answer(0);
    await eventually(() => expect(w.openApproval).toHaveBeenCalledWith(approval.id));
    expect((await w.app.control.getApproval(approval.id)).state).toBe('pending');
    expect(w.source.count('count_send')).toBe(0);
    await w.app.control.decide(approval.id, { kind: 'deny' });
    await call;
  });
});

describe('an allow the core would refuse now is not offered outside the window', () => {
  it('a request raised after its tool changed (a restart): its notification has no Allow, and says why not', async () => {
    const w = await setup();
    const { call, approval } = await w.request();
    changeTool(w);
    w.notifier.stop();
    w.notifier = new ApprovalNotifier({
      control: w.app.control,
      events: w.app.events,
      approvalStyle: () => 'window',
      openApproval: w.openApproval,
      dialog: new ApprovalDialog({ control: w.app.control }),
    });
    await w.notifier.start();
    const n = Notification.instances.at(-1)!;
    expect(n.options.id).toBe(`approval-${approval.id}`);
    expect(n.options.actions).toEqual([]);
    expect(n.options.body).toMatch(/Allow is not possible now/);
    await w.app.control.decide(approval.id, { kind: 'deny' });
    await call;
  });

  it('a dialog waiting its turn while its tool changed offers "Open in Airlock" and Deny, with the reason', async () => {
    platformRules.platform = 'win32';
    let answer!: (n: number) => void;
    dialog.answers.push(new Promise<number>((r) => (answer = r)));
    const w = await setup({ shell: { approvalStyle: 'dialog' } }, { platform: 'win32' });
    const first = await w.request({ to: 'ann@example.com' });
    await eventually(() => expect(dialog.shown).toHaveLength(1));
    const second = await w.request({ to: 'bob@example.com' });
    const refused = nextEvent(
      w.app,
      (e) =>
        e.type === 'approval.updated' &&
        e.approval.id === second.approval.id &&
        !!e.approval.refused?.allow_once,
    );
    changeTool(w);
    await refused;
    answer(2); // Deny the first
    await eventually(() => expect(dialog.shown).toHaveLength(2));
    const box = dialog.shown[1]!;
    expect(box.buttons).toEqual([...CUT_DIALOG_BUTTONS]);
    expect(box.detail).toMatch(/Allow is not possible now: count_send changed since/);
    await first.call;
    await w.app.control.decide(second.approval.id, { kind: 'deny' });
    await second.call;
  });
});
