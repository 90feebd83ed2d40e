import { eventually } from '../../test-support/eventually.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalView } from '../../common/contract/index.js';
import { fakeCore, run } from '../../test-support/desktop-run.js';
import { tempDir } from '../../test-support/harness.js';
import {
  app,
  BaseWindow,
  BrowserWindow,
  endWindowsSession,
  resetFakeElectron,
  Tray,
} from '../../test-support/fake-electron.js';

import { UrlScheme } from './url-scheme.js';

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
    await eventually(() => expect(f.core.control.listPending).toHaveBeenCalledTimes(2));
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

describe('airlock:// on Linux (issue 32, item 5)', () => {
  it('from source or an AppImage, Airlock installs its own desktop entry so the OS takes airlock:// links', async () => {
    const f = fakeCore();
    const appImage = join(f.dataDir, 'My Apps', 'Airlock.AppImage');
    await run({ platform: 'linux', core: f, env: { APPIMAGE: appImage } });
    const entry = join(f.dataDir, 'xdg-data', 'applications', 'airlock.desktop');
    const text = readFileSync(entry, 'utf8');
    expect(text).toContain(`Exec="${appImage}" %u\n`);
    expect(text).toContain('MimeType=x-scheme-handler/airlock;');
    // …and Electron, which needs exactly that entry on Linux, took the scheme.
    expect(app.protocolClients.map((c) => c.scheme)).toEqual(['airlock']);
  });

  it('a .deb install has its entry already: nothing is written, the scheme is taken', async () => {
    const f = fakeCore();
    const system = join(f.dataDir, 'xdg-system', 'applications');
    mkdirSync(system, { recursive: true });
    writeFileSync(
      join(system, 'airlock.desktop'),
      '[Desktop Entry]\nExec=/opt/Airlock/airlock %U\n',
    );
    await run({ platform: 'linux', core: f });
    expect(existsSync(join(f.dataDir, 'xdg-data', 'applications', 'airlock.desktop'))).toBe(false);
    expect(app.protocolClients.map((c) => c.scheme)).toEqual(['airlock']);
  });

  it("a user's own entry of that name is left alone; Airlock's own is rewritten when the command moved", () => {
    const home = tempDir();
    const env = { XDG_DATA_HOME: join(home, 'data'), XDG_DATA_DIRS: join(home, 'none') };
    const scheme = new UrlScheme({
      platform: 'linux',
      env: { ...env, APPIMAGE: '/a/Airlock.AppImage' },
    });
    const file = scheme.ensureDesktopEntry()!;
    expect(readFileSync(file, 'utf8')).toContain('Exec=/a/Airlock.AppImage %u');
    const moved = new UrlScheme({
      platform: 'linux',
      env: { ...env, APPIMAGE: '/b/Airlock.AppImage' },
    });
    expect(moved.ensureDesktopEntry()).toBe(file);
    expect(readFileSync(file, 'utf8')).toContain('Exec=/b/Airlock.AppImage %u');
    writeFileSync(file, '[Desktop Entry]\nExec=my-own-wrapper %u\n');
    expect(moved.ensureDesktopEntry()).toBeNull();
    expect(readFileSync(file, 'utf8')).toContain('my-own-wrapper');
  });

  it('when the OS refuses the scheme anyway, the refusal is logged, not ignored', async () => {
    const f = fakeCore();
    const warn = vi.spyOn(f.core.logger, 'warn');
    // No $CHROME_DESKTOP: Electron cannot name an entry to register.
    await run({ platform: 'linux', core: f, env: { CHROME_DESKTOP: '' } });
    expect(app.protocolClients).toEqual([]);
    expect(warn).toHaveBeenCalledWith('the OS did not take airlock:// links for Airlock');
  });
});

describe('Windows log-off, shutdown, restart (issue 32, item 9)', () => {
  it("stops the core, though Windows sends no 'before-quit'", async () => {
    const { core, releaseStop } = await run({ platform: 'win32' });
    // The watcher is a hidden window without a page: nothing on screen, no renderer.
    expect(BaseWindow.instances.map((w) => w.isVisible())).toEqual([false]);
    endWindowsSession(['logoff']);
    expect(core.stop).toHaveBeenCalledOnce();
    releaseStop();
    await eventually(() => expect(app.quitted).toBe(true));
  });

  it('macOS and Linux need no such window', async () => {
    await run({ platform: 'linux' });
    expect(BaseWindow.instances).toEqual([]);
  });
});
