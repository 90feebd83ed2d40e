import {
  app,
  BrowserWindow,
  type BrowserWindowConstructorOptions,
  type WebContents,
} from 'electron';
import { NAVIGATE_CHANNEL } from '../../common/ipc-contract.js';
import type { Logger } from '../platform/log.js';
import type { OurWindows } from './ipc.js';
import type { ExternalLinkGate } from './link-gate.js';
import { appUrl } from './protocol.js';
import { hardenWebContents, secureWebPreferences } from './security.js';

/** Renderer routes (renderer/src/shell/routes.tsx). */
export const MAIN_ROUTE = '/approvals';
export const POPUP_ROUTE = '/popup';

export interface WindowDeps {
  preloadPath: string;
  links: ExternalLinkGate;
  iconPath?: string;
  /** DevTools only when running from source. */
  devTools?: boolean;
  logger?: Pick<Logger, 'warn'>;
  platform?: NodeJS.Platform;
}

/**
 * Whether opening a window takes the keyboard. `true` only when the user
 * asked for the window (a tray item, a notification click, a deep link,
 * a second launch): a window Airlock opens on its own must not take
 * keystrokes meant for another app (issue 21 item 2, issue 17 item 1).
 */
export interface OpenOptions {
  focus?: boolean;
}

/** The hash route of an app URL: app://airlock/index.html#/popup?id=1 → /popup?id=1. */
const routeOf = (url: string) => (url.includes('#') ? url.slice(url.indexOf('#') + 1) : '');

/**
 * The app's two windows: the main window (settings, approvals, activity)
 * and the small always-on-top approval window (issue 9, item 3). Both load
 * only app://airlock/… and get the same locked-down webPreferences.
 */
export class WindowManager implements OurWindows {
  private main: BrowserWindow | null = null;
  private popup: BrowserWindow | null = null;

  constructor(private readonly deps: WindowDeps) {}

  /**
   * Opens the main window, on `route` when given. An open window is not
   * reloaded: only its hash route changes, so what is on screen (a
   * one-time token panel, a half-filled form) survives unless the route
   * itself changes.
   */
  openMain(route?: string, opts: OpenOptions = { focus: true }): BrowserWindow {
    if (this.main && !this.main.isDestroyed()) {
      if (route) this.navigate(this.main, routeOf(appUrl(route)));
      this.reveal(this.main, opts.focus === true);
      return this.main;
    }
    const win = this.create(
      { width: 1000, height: 720, minWidth: 640, minHeight: 480, title: 'Airlock' },
      appUrl(route ?? MAIN_ROUTE),
      opts.focus === true,
    );
    win.on('closed', () => (this.main = null));
    this.main = win;
    return win;
  }

  /**
   * Opens the approval window, on one request when `id` is given. An open
   * popup keeps its page (a half-typed deny reason, an edit): it only moves
   * to the request when the route changes. It does not take focus unless
   * the user asked for it (`opts.focus`).
   */
  openApproval(id?: string, opts: OpenOptions = {}): BrowserWindow {
    const url = appUrl(POPUP_ROUTE, id ? { id } : {});
    if (this.popup && !this.popup.isDestroyed()) {
      if (id) this.navigate(this.popup, routeOf(url));
      this.reveal(this.popup, opts.focus === true);
      return this.popup;
    }
    const win = this.create(
      {
        width: 380,
        height: 560,
        minWidth: 320,
        minHeight: 360,
        title: 'Airlock — approval',
        alwaysOnTop: true,
        skipTaskbar: true,
        minimizable: false,
        maximizable: false,
        fullscreenable: false,
      },
      url,
      opts.focus === true,
    );
    // 'floating' keeps it above normal windows without covering the menu bar / full-screen apps.
    // Wayland ignores it (no protocol for "always on top"): there the popup is an ordinary window.
    win.setAlwaysOnTop(true, 'floating');
    win.on('closed', () => (this.popup = null));
    this.popup = win;
    return win;
  }

  /** Brings back whichever window exists, or opens the main one (second launch, dock click): the user asked. */
  focus(): void {
    const existing = [this.main, this.popup].find((w) => w && !w.isDestroyed());
    if (existing) this.reveal(existing, true);
    else this.openMain();
  }

  /** A window of ours the user can see (on screen, not minimised), the main one first; else null. */
  visibleWindow(): BrowserWindow | null {
    return (
      [this.main, this.popup].find(
        (w): w is BrowserWindow => !!w && !w.isDestroyed() && w.isVisible() && !w.isMinimized(),
      ) ?? null
    );
  }

  closeAll(): void {
    for (const w of [this.popup, this.main]) if (w && !w.isDestroyed()) w.destroy();
    this.main = this.popup = null;
  }

  isOurWebContents(id: number): boolean {
    return this.webContents().some((wc) => wc.id === id);
  }

  webContents(): WebContents[] {
    return [this.main, this.popup]
      .filter((w): w is BrowserWindow => !!w && !w.isDestroyed())
      .map((w) => w.webContents);
  }

  private create(
    options: BrowserWindowConstructorOptions,
    url: string,
    focus: boolean,
  ): BrowserWindow {
    const win = new BrowserWindow({
      ...options,
      show: false,
      autoHideMenuBar: true,
      ...(this.deps.iconPath ? { icon: this.deps.iconPath } : {}),
      webPreferences: secureWebPreferences(this.deps.preloadPath, {
        devTools: this.deps.devTools ?? false,
      }),
    });
    hardenWebContents(win.webContents, this.deps.links, this.deps.logger);
    // 'ready-to-show' is not guaranteed (it needs a first paint of a hidden window, which some
    // platforms and GPU setups never do): the first of it and 'did-finish-load' shows the window.
    let shown = false;
    const showOnce = () => {
      if (shown || win.isDestroyed()) return;
      shown = true;
      this.reveal(win, focus);
    };
    win.once('ready-to-show', showOnce);
    win.webContents.once('did-finish-load', showOnce);
    void win.loadURL(url).catch((err: unknown) =>
      this.deps.logger?.warn('window failed to load', {
        error: err instanceof Error ? err.message : String(err),
      }),
    );
    return win;
  }

  /**
   * Moves an open window to `route` by an in-page hash change (the preload
   * sets location.hash on NAVIGATE_CHANNEL), never by loadURL, which would
   * load a new document and drop what the user was doing. A window still
   * loading gets the route once its page (and preload) is there.
   */
  private navigate(win: BrowserWindow, route: string): void {
    const wc = win.webContents;
    if (wc.isLoading()) {
      wc.once('did-finish-load', () => this.navigate(win, route));
      return;
    }
    if (routeOf(wc.getURL()) === route) return;
    wc.send(NAVIGATE_CHANNEL, route);
  }

  /**
   * Shows a window. With `focus` (the user asked): activates it — on macOS
   * a menu-bar app must make itself the active app first, or the window
   * opens behind the app in front (`app.focus({ steal: true })`). Without:
   * shows it where it is, without taking the keyboard. Wayland honours
   * neither focus requests nor always-on-top from the app; there the window
   * appears and the compositor decides (docs/security.md).
   */
  private reveal(win: BrowserWindow, focus: boolean): void {
    if (win.isMinimized()) win.restore();
    if (!focus) {
      // Up in the stacking order, but the keyboard stays with the app in front.
      if (win.isVisible()) win.moveTop();
      else win.showInactive();
      return;
    }
    if ((this.deps.platform ?? process.platform) === 'darwin') app.focus({ steal: true });
    win.show();
    win.focus();
  }
}
