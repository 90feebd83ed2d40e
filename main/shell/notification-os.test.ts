import { eventually } from '../../test-support/eventually.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalView } from '../../common/contract/index.js';
import { fakeCore, run } from '../../test-support/desktop-run.js';
import {
  BrowserWindow,
  Notification,
  resetFakeElectron,
  shell,
} from '../../test-support/fake-electron.js';
import { APP_ID } from './main-process.js';
import { HIDDEN_ARG } from './login-item.js';
import { LINUX_NOTIFICATION_ICON_PX } from './tray-icons.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

beforeEach(() => resetFakeElectron({ ready: 'later' }));

const PENDING: ApprovalView = {
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

/** A login start (no main window) with one request waiting, on `platform`. */
async function startWithPending(platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}) {
  const f = fakeCore();
  (f.core.control.listPending as ReturnType<typeof vi.fn>).mockResolvedValue([PENDING]);
  await run({ platform, core: f, argv: ['airlock', HIDDEN_ARG], env });
  return f;
}

/** Where the NSIS installer puts Airlock's shortcut, with our AppUserModelID (electron-builder). */
function installStartMenuShortcut(appData: string): void {
  const programs = join(appData, 'Microsoft', 'Windows', 'Start Menu', 'Programs');
  mkdirSync(programs, { recursive: true });
  const lnk = join(programs, 'Airlock.lnk');
  writeFileSync(lnk, '');
  shell.shortcuts.set(lnk, { target: 'C:\\Airlock\\Airlock.exe', appUserModelId: APP_ID });
}

describe('Windows toasts need a Start-menu shortcut (issue 32, item 7)', () => {
  it('without one (portable build, run from source) a request opens the approval window, without focus', async () => {
    const f = fakeCore();
    await startWithPending('win32', { APPDATA: join(f.dataDir, 'AppData', 'Roaming') });
    // No toast was put up to be dropped silently…
    expect(Notification.instances.filter((n) => n.dropped)).toEqual([]);
    // …the request is in the approval window instead.
    const popup = BrowserWindow.instances.find((w) => w.loaded[0]?.includes('/popup'));
    expect(popup?.loaded).toEqual(['app://airlock/index.html#/popup?id=p1']);
    await eventually(() => expect(popup!.visible).toBe(true));
    expect(popup!.isFocused()).toBe(false);
  });

  it('with the installer’s shortcut, the toast is shown and no window opens', async () => {
    const appData = join(fakeCore().dataDir, 'AppData', 'Roaming');
    installStartMenuShortcut(appData);
    await startWithPending('win32', { APPDATA: appData });
    expect(Notification.instances.map((n) => [n.options.id, n.shown])).toEqual([
      ['approval-p1', true],
    ]);
    expect(BrowserWindow.instances).toHaveLength(0);
  });

  it('a shortcut for another app, or one that cannot be read, does not count', async () => {
    const appData = join(fakeCore().dataDir, 'AppData', 'Roaming');
    const programs = join(appData, 'Microsoft', 'Windows', 'Start Menu', 'Programs');
    mkdirSync(join(programs, 'Tools'), { recursive: true });
    writeFileSync(join(programs, 'Tools', 'Other.lnk'), '');
    shell.shortcuts.set(join(programs, 'Tools', 'Other.lnk'), {
      target: 'C:\\Other.exe',
      appUserModelId: 'com.other.app',
    });
    writeFileSync(join(programs, 'Broken.lnk'), ''); // readShortcutLink throws on it
    await startWithPending('win32', { APPDATA: appData });
    expect(BrowserWindow.instances.some((w) => w.loaded[0]?.includes('/popup'))).toBe(true);
  });
});

describe('Linux notification icon (issue 32, item 9)', () => {
  it('a small image, not the 1024-px app icon, goes to the notification server', async () => {
    await startWithPending('linux');
    const n = Notification.instances.find((x) => x.options.id === 'approval-p1')!;
    expect(n.shown).toBe(true);
    expect(n.iconBytesSent).toBeGreaterThan(0);
    expect(n.iconBytesSent).toBeLessThanOrEqual(LINUX_NOTIFICATION_ICON_PX ** 2 * 4);
  });
});
