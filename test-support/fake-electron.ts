/**
 * A stand-in for the parts of the 'electron' module the shell uses, for
 * unit tests (`vi.mock('electron', () => import('../../test-support/fake-electron.js'))`).
 * Electron's binary cannot be downloaded on our machines (README
 * "Status"); this records what the shell asks of Electron,
 * lets tests fire Electron's events, and follows Electron 45's rules
 * (issue 21): nothing before 'ready', Chromium's permission flow, failing
 * notifications, empty images for missing files, per-platform focus; and
 * (issue 32) origins as Electron passes them, blocking parentless macOS
 * message boxes, macOS launch events, Windows toasts that need a Start-menu
 * shortcut, Linux scheme registration that needs a desktop entry, tray hosts
 * that never report a menu closing, Windows session end without
 * 'before-quit'. Each rule cites Electron's documentation or source where it
 * is modelled. Never built or packaged. The parts, by what they fake:
 *   fake-electron/rules.ts     platformRules (which OS and session to behave like), preventable events
 *   fake-electron/app.ts       app (ready, single-instance lock, focus), protocol, shell, clipboard
 *   fake-electron/windows.ts   BrowserWindow, webContents (loads, permissions, clipboard), session
 *   fake-electron/base-window.ts  BaseWindow, the end of a Windows session
 *   fake-electron/desktop.ts   nativeImage, Menu, Tray, Notification, dialog
 *   fake-electron/ipc.ts       ipcMain, ipcRenderer, contextBridge
 */
import { app, clipboard, protocol, shell } from './fake-electron/app.js';
import { dialog, Menu, Notification, Tray } from './fake-electron/desktop.js';
import { contextBridge, ipcMain, ipcRenderer } from './fake-electron/ipc.js';
import { platformRules, preventable } from './fake-electron/rules.js';
import { BaseWindow } from './fake-electron/base-window.js';
import { BrowserWindow, session } from './fake-electron/windows.js';

export * from './fake-electron/app.js';
export * from './fake-electron/base-window.js';
export * from './fake-electron/desktop.js';
export * from './fake-electron/ipc.js';
export * from './fake-electron/rules.js';
export * from './fake-electron/windows.js';

/** Counts resetFakeElectron calls, so a launch scheduled by an earlier reset does not run. */
let launches = 0;

/**
 * Clears every record between tests and starts Electron again. By default
 * it is ready when the returned promise resolves (`beforeEach(() =>
 * resetFakeElectron())`); with `{ ready: 'later' }` 'ready' comes on the
 * next turn of the event loop, so a test of start-up sees what runs before
 * it.
 */
export function resetFakeElectron(
  opts: {
    ready?: 'now' | 'later';
    /**
     * A macOS launch, as Electron reports it: `atLogin` sets what
     * `getLoginItemSettings().wasOpenedAtLogin` says (Electron reads the launch Apple event's
     * keyAELaunchedAsLogInItem in applicationDidFinishLaunching, before 'ready':
     * shell/browser/mac/electron_application_delegate.mm); `url` arrives as 'open-url' before
     * 'ready' (docs/api/app.md "Event: 'open-url'": a listener registered on 'ready' misses "URLs
     * that trigger the launch"). The launch's own 'activate' (docs/api/app.md "Event: 'activate'":
     * "launching the application for the first time") is `app.emitActivate()`, at the moment a
     * test chooses: its timing is not specified (electron/electron#5272).
     */
    macLaunch?: { url?: string; atLogin?: boolean };
  } = {},
): Promise<void> {
  BrowserWindow.instances.length = 0;
  BaseWindow.instances.length = 0;
  Tray.instances.length = 0;
  Notification.instances.length = 0;
  Notification.supported = true;
  Notification.failWith = null;
  Menu.built = 0;
  Object.assign(platformRules, {
    platform: 'linux',
    wayland: false,
    trayVisible: true,
    readyToShow: true,
    trayMenuCloseReported: true,
  });
  ipcMain.handlers.clear();
  app.removeAllListeners();
  Object.assign(app, {
    isPackaged: false,
    singleInstanceLock: true,
    quitCalls: 0,
    quitted: false,
    exitCode: null,
    appUserModelId: null,
    protocolClients: [],
    lockDir: null,
    active: false,
    focusCalls: [],
    env: { CHROME_DESKTOP: 'airlock.desktop' },
  });
  app.loginItem = { openAtLogin: false, wasOpenedAtLogin: false, args: [] };
  app.paths.clear();
  app.dock.hidden = false;
  protocol.privileged.length = 0;
  protocol.handlers.clear();
  session.defaultSession.permissionRequestHandler = null;
  session.defaultSession.permissionCheckHandler = null;
  shell.opened.length = 0;
  shell.shortcuts.clear();
  clipboard.text = '';
  dialog.answers.length = 0;
  dialog.shown.length = 0;
  dialog.errors.length = 0;
  contextBridge.exposed.clear();
  ipcRenderer.invoked.length = 0;
  ipcRenderer.listeners.clear();
  app.unready();
  if (opts.macLaunch) {
    platformRules.platform = 'darwin';
    app.loginItem.wasOpenedAtLogin = opts.macLaunch.atLogin === true;
  }
  if (opts.ready === 'later' || opts.macLaunch) {
    const url = opts.macLaunch?.url;
    const launch = ++launches;
    setImmediate(() => {
      // A later reset started another launch: this one never happened.
      if (launch !== launches) return;
      app.emit('will-finish-launching');
      if (url) app.emit('open-url', preventable(), url);
      app.emitReady();
    });
    return Promise.resolve();
  }
  app.emitReady();
  return Promise.resolve();
}
