import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalView } from '../../common/contract/index.js';
import { fakeCore, run } from '../../test-support/desktop-run.js';
import { app, BrowserWindow, resetFakeElectron, Tray } from '../../test-support/fake-electron.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

beforeEach(() => resetFakeElectron({ ready: 'later' }));

const MAC_ARGV = ['/Applications/Airlock.app/Contents/MacOS/Airlock'];
const loaded = () => BrowserWindow.instances.map((w) => w.loaded);

describe('macOS launches (issue 32)', () => {
  it('item 3: launched by a link, Airlock opens what the link names and nothing else', async () => {
    await resetFakeElectron({ macLaunch: { url: 'airlock://approval/first-1' } });
    await run({ platform: 'darwin', argv: MAC_ARGV });
    // macOS puts no link on the command line: it came as 'open-url' before 'ready'.
    expect(loaded()).toEqual([['app://airlock/index.html#/popup?id=first-1']]);
  });

  it('item 3: a link to a page opens that page, once', async () => {
    await resetFakeElectron({ macLaunch: { url: 'airlock://open/servers' } });
    await run({ platform: 'darwin', argv: MAC_ARGV });
    expect(loaded()).toEqual([['app://airlock/index.html#/servers']]);
  });

  it("item 9: a login start stays in the tray, even when the launch's own 'activate' comes during start-up; a later re-launch opens the window", async () => {
    await resetFakeElectron({ macLaunch: { atLogin: true } });
    const f = fakeCore();
    // Hold start-up at its last step (the notifier reading what waits) to deliver 'activate' then.
    let release!: () => void;
    const held = new Promise<ApprovalView[]>((r) => (release = () => r([])));
    (f.core.control.listPending as ReturnType<typeof vi.fn>)
      .mockImplementationOnce(async () => []) // the tray's first read
      .mockImplementationOnce(() => held); // the notifier's
    const started = run({ platform: 'darwin', argv: MAC_ARGV, core: f });
    await vi.waitFor(() => expect(f.core.control.listPending).toHaveBeenCalledTimes(2));
    expect(Tray.instances).toHaveLength(1);
    app.emitActivate(false);
    release();
    await started;
    expect(BrowserWindow.instances).toHaveLength(0);
    // The user opens Airlock again from Finder or Spotlight: now it is the user asking.
    app.emitActivate(false);
    expect(loaded()).toEqual([['app://airlock/index.html#/approvals']]);
  });

  it("item 9: an 'activate' before 'ready' is part of the launch, and breaks nothing", async () => {
    await resetFakeElectron({ macLaunch: { atLogin: true } });
    app.emitActivate(false);
    const { shell } = await run({ platform: 'darwin', argv: MAC_ARGV });
    expect(shell).not.toBeNull();
    expect(BrowserWindow.instances).toHaveLength(0);
  });

  it('a normal launch opens the main window once, whatever activations come with it', async () => {
    await resetFakeElectron({ macLaunch: {} });
    app.emitActivate(false);
    await run({ platform: 'darwin', argv: MAC_ARGV });
    expect(loaded()).toEqual([['app://airlock/index.html#/approvals']]);
  });
});
