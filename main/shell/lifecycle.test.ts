import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeCore, run } from '../../test-support/desktop-run.js';
import { eventually } from '../../test-support/eventually.js';
import { tempDir } from '../../test-support/harness.js';
import { DesktopShell, type ShellCore } from './desktop-shell.js';
import { autostartDesktopEntry, HIDDEN_ARG, LoginItem, quoteExecArg } from './login-item.js';
import { APP_ID } from './main-process.js';
import { parseDeepLink, SingleInstance } from './single-instance.js';
import {
  app,
  BrowserWindow,
  dialog,
  Notification,
  preventable,
  screen,
  protocol,
  resetFakeElectron,
  Tray,
} from '../../test-support/fake-electron.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

// Electron becomes ready on the next turn, as it does after the main script ran: start-up code before it is visible.
beforeEach(() => resetFakeElectron({ ready: 'later' }));

const flush = () => new Promise((r) => setImmediate(r));

describe('single instance', () => {
  it('a second launch hands over to the first and quits without starting a core', async () => {
    app.singleInstanceLock = false;
    const { shell, createCore } = await run();
    expect(shell).toBeNull();
    expect(createCore).not.toHaveBeenCalled();
    expect(app.quitCalls).toBe(1);
    expect(Tray.instances).toHaveLength(0);
  });

  it("the first instance opens the approval a second launch's deep link names, and focuses otherwise", async () => {
    const { shell } = await run({ argv: ['electron', '.', HIDDEN_ARG] });
    expect(shell).not.toBeNull();
    expect(BrowserWindow.instances).toHaveLength(0);
    app.emit(
      'second-instance',
      preventable(),
      ['/opt/Airlock/airlock', 'airlock://approval/3f2a-77'],
      '/home/me',
      {},
    );
    expect(BrowserWindow.instances).toHaveLength(1);
    expect(BrowserWindow.instances[0]!.loaded).toEqual([
      'app://airlock/index.html#/popup?id=3f2a-77',
    ]);
    app.emit('second-instance', preventable(), ['/opt/Airlock/airlock'], '/home/me', {});
    expect(BrowserWindow.instances[0]!.visible).toBe(true); // focused the existing window
    expect(BrowserWindow.instances).toHaveLength(1);
    app.emit('second-instance', preventable(), ['airlock', 'airlock://open/agents'], '/', {});
    expect(BrowserWindow.instances.at(-1)!.loaded).toEqual(['app://airlock/index.html#/agents']);
  });

  it('macOS open-url before the shell is ready waits, and is handled once ready', () => {
    const instance = new SingleInstance();
    expect(instance.claim()).toBe(true);
    const e = preventable();
    app.emit('open-url', e, 'airlock://open/servers');
    expect(e.defaultPrevented).toBe(true);
    const handler = vi.fn();
    // What came before is handed over for the launch to open; what comes after goes to the handler.
    expect(instance.ready(handler)).toEqual([
      { links: [{ kind: 'page', route: '/servers' }], source: 'open-url' },
    ]);
    expect(handler).not.toHaveBeenCalled();
    app.emit('open-url', preventable(), 'airlock://approval/a1');
    expect(handler).toHaveBeenCalledWith({
      links: [{ kind: 'approval', id: 'a1' }],
      source: 'open-url',
    });
  });

  it('deep links are read strictly', () => {
    expect(parseDeepLink('airlock://approval/abc_DEF-1')).toEqual({
      kind: 'approval',
      id: 'abc_DEF-1',
    });
    expect(parseDeepLink('airlock://open')).toEqual({ kind: 'page', route: '/approvals' });
    for (const bad of [
      'airlock://approval/a/b',
      'airlock://open/evil',
      'airlock://approval/%2e%2e',
      'https://airlock/approval/x',
      'airlock://approval/' + 'x'.repeat(65),
      'nonsense',
    ]) {
      expect(parseDeepLink(bad)).toBeNull();
    }
  });

  it('registers the airlock:// scheme, with the app path when running from source', async () => {
    await run();
    expect(app.protocolClients).toEqual([
      { scheme: 'airlock', path: process.execPath, args: ['/fake/app'] },
    ]);
  });
});

describe('start', () => {
  it('starts the core, the tray and the app:// protocol; opens the main window on a normal launch', async () => {
    const { core, dataDir, createCore } = await run();
    expect(createCore).toHaveBeenCalledWith(expect.stringContaining(dataDir.split('/').pop()!));
    expect(core.start).toHaveBeenCalledOnce();
    expect(Tray.instances).toHaveLength(1);
    expect(protocol.privileged.map((p) => p.scheme)).toEqual(['app']);
    expect(protocol.handlers.has('app')).toBe(true);
    expect(BrowserWindow.instances[0]!.loaded).toEqual(['app://airlock/index.html#/approvals']);
    // Chromium's cache and storage stay out of Airlock's own data directory.
    expect(app.paths.get('userData')).toMatch(/chromium$/);
    // With no window open a tray app keeps running.
    expect(app.listenerCount('window-all-closed')).toBe(1);
  });

  it('a loosening asked for from outside the window brings up the Tools page, without taking focus (issue 17.7)', async () => {
    const { core } = await run({ argv: ['airlock', HIDDEN_ARG] });
    expect(BrowserWindow.instances).toHaveLength(0);
    core.events.emit({
      type: 'policy.change',
      change: {
        id: 'c1',
        summary: 'let count_send run without asking',
        state: 'pending',
        requestedAt: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      },
    });
    expect(BrowserWindow.instances).toHaveLength(1);
    expect(BrowserWindow.instances[0]!.loaded).toEqual(['app://airlock/index.html#/tools']);
    expect(BrowserWindow.instances[0]!.focused).toBe(false);
    // A decided change opens nothing more.
    core.events.emit({
      type: 'policy.change',
      change: {
        id: 'c1',
        summary: 'let count_send run without asking',
        state: 'confirmed',
        requestedAt: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      },
    });
    expect(BrowserWindow.instances).toHaveLength(1);
  });

  it('a login launch (--hidden) stays in the tray', async () => {
    await run({ argv: ['airlock', HIDDEN_ARG] });
    expect(BrowserWindow.instances).toHaveLength(0);
    expect(Tray.instances).toHaveLength(1);
  });

  it('Windows gets the AppUserModelId (needed for notifications); macOS hides the Dock icon', async () => {
    await run({ platform: 'win32' });
    expect(app.appUserModelId).toBe(APP_ID);
    await resetFakeElectron({ ready: 'later' });
    await run({ platform: 'darwin' });
    expect(app.dock.hidden).toBe(true);
  });

  it('a core that cannot start is reported in a dialog and the app exits', async () => {
    const f = fakeCore();
    f.core.start.mockRejectedValueOnce(
      new Error('Airlock is already running for this data directory (pid 42).'),
    );
    const { shell } = await run({ core: f });
    expect(shell).toBeNull();
    expect(dialog.errors).toEqual([
      {
        title: 'Airlock could not start',
        content: 'Airlock is already running for this data directory (pid 42).',
      },
    ]);
    expect(app.exitCode).toBe(1);
    expect(Tray.instances).toHaveLength(0);
  });

  it('a data directory that cannot be used is said in a dialog, before anything starts', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const { shell, createCore } = await run({ env: { AIRLOCK_DATA_DIR: file } });
    expect(shell).toBeNull();
    expect(createCore).not.toHaveBeenCalled();
    expect(dialog.errors).toEqual([
      {
        title: 'Airlock could not start',
        content: expect.stringMatching(
          /^Cannot use .*a-file as the data directory: it is a file, not a folder \(ENOTDIR\)\./,
        ),
      },
    ]);
    expect(app.exitCode).toBe(1);
  });

  it('the tray switches approval style in settings', async () => {
    const { core } = await run();
    const tray = Tray.instances[0]!;
    const styles = tray.menu!.items.find((i) => i.id === 'approval-style') as {
      submenu: { id: string; click(): void }[];
    };
    styles.submenu.find((s) => s.id === 'approval-style:dialog')!.click();
    expect(core.settings.get().shell.approvalStyle).toBe('dialog');
  });
});

describe('start-up as a real Electron runs it (issue 21)', () => {
  it("nothing that needs 'ready' runs before it: the fake throws for Tray/BrowserWindow/Notification before ready", async () => {
    expect(app.isReady()).toBe(false);
    expect(() => new Tray({} as never)).toThrow(/before the app is ready/);
    expect(() => new BrowserWindow({})).toThrow(/before the app is ready/);
    expect(() => new Notification({})).toThrow(/before the app is ready/);
    expect(() => screen.getPrimaryDisplay()).toThrow(/before the app is ready/);
    const { shell } = await run();
    expect(shell).not.toBeNull();
    expect(Tray.instances).toHaveLength(1);
  });

  it('item 7: the single-instance lock is taken in the data directory (userData set first)', async () => {
    const { dataDir } = await run();
    expect(app.lockDir).toBe(join(dataDir, 'chromium'));
    expect(app.paths.get('userData')).toBe(join(dataDir, 'chromium'));
  });

  it('item 6: a deep link that starts Airlock (Windows/Linux argv) opens what it names', async () => {
    await run({ argv: ['/opt/Airlock/airlock', 'airlock://approval/first-1'] });
    expect(BrowserWindow.instances).toHaveLength(1);
    expect(BrowserWindow.instances[0]!.loaded).toEqual([
      'app://airlock/index.html#/popup?id=first-1',
    ]);
    await resetFakeElectron({ ready: 'later' });
    await run({ argv: ['airlock.exe', 'airlock://open/servers'] });
    expect(BrowserWindow.instances.map((w) => w.loaded)).toEqual([
      ['app://airlock/index.html#/servers'],
    ]);
  });

  it('item 4: a --hidden start with no visible tray (GNOME without AppIndicator) shows the window, without taking focus', async () => {
    await run({ argv: ['airlock', HIDDEN_ARG], tray: 'no' });
    expect(BrowserWindow.instances).toHaveLength(1);
    const win = BrowserWindow.instances[0]!;
    await eventually(() => expect(win.visible).toBe(true));
    expect(win.isFocused()).toBe(false);
  });

  it('item 4: with a tray that may exist (unknown), a --hidden start stays in the tray', async () => {
    await run({ argv: ['airlock', HIDDEN_ARG], tray: 'unknown' });
    expect(BrowserWindow.instances).toHaveLength(0);
  });

  it('item 3: approvals pending at start-up raise a notification', async () => {
    const f = fakeCore();
    const pending = {
      id: 'p1',
      agent: 'Claude Code',
      tool: 'gmail_send',
      effect: 'Send an e-mail to bob@example.com',
      arguments: { to: 'bob@example.com' },
      inputSchema: {},
      state: 'pending',
      createdAt: '2026-01-01T00:00:00Z',
      expiresAt: '2026-01-01T00:10:00Z',
    };
    (f.core.control.listPending as ReturnType<typeof vi.fn>).mockResolvedValue([pending]);
    await run({ core: f, argv: ['airlock', HIDDEN_ARG] });
    expect(Notification.instances.map((n) => n.options.id)).toEqual(['approval-p1']);
  });
});

describe('quit waits for the core', () => {
  it('the first quit is held until app.stop() resolves, then quits for real', async () => {
    const { core, releaseStop } = await run();
    app.quit();
    expect(core.stop).toHaveBeenCalledOnce();
    expect(app.quitted).toBe(false);
    // Windows, tray and IPC are already gone while the servers close.
    expect(Tray.instances[0]!.destroyed).toBe(true);
    expect(BrowserWindow.instances.every((w) => w.destroyed)).toBe(true);
    app.quit(); // impatient second quit: still waiting, no second stop
    expect(core.stop).toHaveBeenCalledOnce();
    await flush();
    expect(app.quitted).toBe(false);
    releaseStop();
    await eventually(() => expect(app.quitted).toBe(true));
    expect(app.quitCalls).toBe(3);
  });

  it('a core that never stops does not keep the app alive forever (10 s, on a fake clock)', async () => {
    const f = fakeCore();
    const shell = new DesktopShell({
      core: f.core as unknown as ShellCore,
      paths: { rendererDir: '/r', preload: '/p', resourcesDir: '/res' },
      instance: { ready: () => [] },
      appId: APP_ID,
      argv: [HIDDEN_ARG],
      trayPollMs: 0,
      traySupport: async () => 'yes',
    });
    await app.whenReady();
    await shell.start();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      app.quit();
      await vi.advanceTimersByTimeAsync(9_999);
      expect(app.quitted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await eventually(() => expect(app.quitted).toBe(true));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('start at login', () => {
  it('Linux: an XDG autostart entry that starts hidden, removed when turned off', () => {
    const home = tempDir();
    const item = new LoginItem({
      platform: 'linux',
      env: {},
      home,
      command: () => ['/opt/My Apps/Airlock.AppImage'],
    });
    expect(item.isEnabled()).toBe(false);
    item.setEnabled(true);
    const file = join(home, '.config', 'autostart', 'airlock.desktop');
    expect(item.desktopFile).toBe(file);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('[Desktop Entry]');
    expect(text).toContain('Exec="/opt/My Apps/Airlock.AppImage" --hidden\n');
    expect(text).toContain('X-GNOME-Autostart-enabled=true');
    expect(item.isEnabled()).toBe(true);
    item.setEnabled(false);
    expect(existsSync(file)).toBe(false);
  });

  it('Linux: honours XDG_CONFIG_HOME and $APPIMAGE; Exec arguments are quoted per the Desktop Entry spec', () => {
    const config = tempDir();
    const item = new LoginItem({
      platform: 'linux',
      env: { XDG_CONFIG_HOME: config, APPIMAGE: '/home/me/Airlock.AppImage' },
    });
    item.setEnabled(true);
    expect(readFileSync(join(config, 'autostart', 'airlock.desktop'), 'utf8')).toContain(
      'Exec=/home/me/Airlock.AppImage --hidden',
    );
    expect(quoteExecArg('a "b" $c `d` \\e')).toBe('"a \\"b\\" \\$c \\`d\\` \\\\e"');
    expect(autostartDesktopEntry(['/usr/bin/airlock'])).toContain('Exec=/usr/bin/airlock --hidden');
  });

  it('macOS and Windows: the OS login item, with --hidden', () => {
    const item = new LoginItem({ platform: 'win32' });
    item.setEnabled(true);
    expect(app.loginItem).toMatchObject({ openAtLogin: true, args: [HIDDEN_ARG] });
    expect(item.isEnabled()).toBe(true);
    item.setEnabled(false);
    expect(item.isEnabled()).toBe(false);
  });

  it('a macOS login launch is recognised without arguments', () => {
    app.loginItem.wasOpenedAtLogin = true;
    expect(
      new LoginItem({ platform: 'darwin' }).startedHidden([
        '/Applications/Airlock.app/Contents/MacOS/Airlock',
      ]),
    ).toBe(true);
    expect(new LoginItem({ platform: 'linux' }).startedHidden(['/usr/bin/airlock'])).toBe(false);
  });
});
