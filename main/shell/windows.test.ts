import { beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { NAVIGATE_CHANNEL } from '../../common/ipc-contract.js';
import {
  app,
  BrowserWindow,
  platformRules,
  resetFakeElectron,
} from '../../test-support/fake-electron.js';
import { ExternalLinkGate } from './link-gate.js';
import { WindowManager } from './windows.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

/**
 * How the shell opens and reveals windows (issue 21, items 2 and 5),
 * against a fake whose windows follow the platform rules: loadURL loads a
 * new document (page state lost), show() activates and showInactive() does
 * not, macOS brings a background app's window forward only after
 * app.focus({ steal: true }), Wayland ignores focus requests, and
 * 'ready-to-show' may never come.
 */
beforeEach(() => resetFakeElectron());

function manager(platform: NodeJS.Platform = 'linux') {
  platformRules.platform = platform;
  return new WindowManager({
    preloadPath: '/p.cjs',
    links: new ExternalLinkGate(),
    platform,
  });
}

/** The preload's part: a NAVIGATE_CHANNEL message becomes an in-page hash change. */
function followNavigation(win: BrowserWindow): void {
  const send = win.webContents.send.bind(win.webContents);
  win.webContents.send = (channel: string, ...args: unknown[]) => {
    send(channel, ...args);
    if (channel === NAVIGATE_CHANNEL) win.pageSetsHash(args[0] as string);
  };
}

const shown = (win: BrowserWindow) => eventually(() => expect(win.visible).toBe(true));

describe('the popup keeps the user’s work', () => {
  it('a second request moves the open popup by hash change: no reload, the half-typed reason survives', async () => {
    const w = manager();
    const popup = w.openApproval('a1') as unknown as BrowserWindow;
    await shown(popup);
    followNavigation(popup);
    popup.webContents.pageState.denyReason = 'not this rec';
    w.openApproval('a2');
    expect(popup.webContents.documentLoads).toBe(1);
    expect(popup.loaded).toEqual(['app://airlock/index.html#/popup?id=a1']);
    expect(popup.webContents.getURL()).toBe('app://airlock/index.html#/popup?id=a2');
    expect(popup.webContents.pageState.denyReason).toBe('not this rec');
  });

  it('opening the popup on the request it already shows sends nothing; opening it without an id keeps its route', async () => {
    const w = manager();
    const popup = w.openApproval('a1') as unknown as BrowserWindow;
    await shown(popup);
    w.openApproval('a1');
    w.openApproval();
    expect(popup.webContents.sent.filter((m) => m.channel === NAVIGATE_CHANNEL)).toEqual([]);
    expect(popup.webContents.documentLoads).toBe(1);
  });

  it('a route asked for while the popup is still loading is sent once its page is there', async () => {
    const w = manager();
    const popup = w.openApproval('a1') as unknown as BrowserWindow;
    expect(popup.webContents.isLoading()).toBe(true);
    w.openApproval('a2');
    expect(popup.webContents.sent).toEqual([]);
    await shown(popup);
    expect(popup.webContents.sent).toEqual([{ channel: NAVIGATE_CHANNEL, args: ['/popup?id=a2'] }]);
    expect(popup.webContents.documentLoads).toBe(1);
  });

  it('openMain(route) on the open main window does not reload it (a one-time token panel stays)', async () => {
    const w = manager();
    const main = w.openMain('/agents') as unknown as BrowserWindow;
    await shown(main);
    followNavigation(main);
    main.webContents.pageState.tokenPanel = 'al_once_123';
    w.openMain('/agents');
    expect(main.webContents.sent).toEqual([]);
    w.openMain('/activity');
    expect(main.webContents.documentLoads).toBe(1);
    expect(main.webContents.getURL()).toBe('app://airlock/index.html#/activity');
    expect(main.webContents.pageState.tokenPanel).toBe('al_once_123');
  });
});

describe('focus', () => {
  it('a popup Airlock opens on its own appears without taking the keyboard from the app in front', async () => {
    const w = manager();
    const main = w.openMain() as unknown as BrowserWindow;
    await shown(main);
    expect(main.isFocused()).toBe(true);
    const popup = w.openApproval('a1') as unknown as BrowserWindow;
    await shown(popup);
    expect(popup.isFocused()).toBe(false);
    expect(main.isFocused()).toBe(true);
    // A later automatic open of the same popup raises it, and does not take focus either.
    w.openApproval('a2');
    expect(popup.movedTop).toBe(1);
    expect(popup.isFocused()).toBe(false);
  });

  it('a popup the user asked for (notification click, tray item, link) takes focus', async () => {
    const w = manager();
    const popup = w.openApproval('a1', { focus: true }) as unknown as BrowserWindow;
    await shown(popup);
    expect(popup.isFocused()).toBe(true);
    popup.minimize();
    w.openApproval('a1', { focus: true });
    expect(popup.isMinimized()).toBe(false);
    expect(popup.isFocused()).toBe(true);
  });

  it('macOS: a window the user opens from the menu bar comes to the front (app.focus({ steal: true }))', async () => {
    const w = manager('darwin');
    const main = w.openMain() as unknown as BrowserWindow;
    await shown(main);
    expect(app.focusCalls).toContainEqual({ steal: true });
    expect(main.isFocused()).toBe(true);
    // An automatic popup does not make Airlock the active app.
    app.focusCalls.length = 0;
    w.openApproval('a1');
    expect(app.focusCalls).toEqual([]);
  });

  it("a window shows even when 'ready-to-show' never comes", async () => {
    platformRules.readyToShow = false;
    const w = manager();
    const main = w.openMain() as unknown as BrowserWindow;
    await shown(main);
    expect(main.isFocused()).toBe(true);
  });

  it('Wayland: the popup still appears though focus and always-on-top are not honoured', async () => {
    platformRules.wayland = true;
    const w = manager();
    const popup = w.openApproval('a1', { focus: true }) as unknown as BrowserWindow;
    await shown(popup);
    expect(popup.isAlwaysOnTop()).toBe(false);
  });
});

describe('a parent for a sheet (issue 32, item 2)', () => {
  it('visibleWindow is a window of ours the user can see: not hidden, minimised or closed', async () => {
    const m = manager('darwin');
    expect(m.visibleWindow()).toBeNull();
    const main = m.openMain(undefined, { focus: false }) as unknown as BrowserWindow;
    await eventually(() => expect(main.visible).toBe(true));
    expect(m.visibleWindow()).toBe(main);
    main.minimize();
    expect(m.visibleWindow()).toBeNull();
    main.restore();
    main.hide();
    expect(m.visibleWindow()).toBeNull();
    main.close();
    expect(m.visibleWindow()).toBeNull();
  });
});
