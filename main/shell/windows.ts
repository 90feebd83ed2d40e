import { BrowserWindow, type BrowserWindowConstructorOptions, type WebContents } from 'electron';
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
}

/**
 * The app's two windows: the main window (settings, approvals, activity)
 * and the small always-on-top approval window (issue 9, item 3). Both load
 * only app://airlock/… and get the same locked-down webPreferences.
 */
export class WindowManager implements OurWindows {
  private main: BrowserWindow | null = null;
  private popup: BrowserWindow | null = null;

  constructor(private readonly deps: WindowDeps) {}

  /** Opens (or focuses) the main window, on `route` when given. */
  openMain(route?: string): BrowserWindow {
    if (this.main && !this.main.isDestroyed()) {
      if (route) void this.main.loadURL(appUrl(route));
      this.reveal(this.main);
      return this.main;
    }
    const win = this.create(
      { width: 1000, height: 720, minWidth: 640, minHeight: 480, title: 'Airlock' },
      appUrl(route ?? MAIN_ROUTE),
    );
    win.on('closed', () => (this.main = null));
    this.main = win;
    return win;
  }

  /** Opens (or focuses) the approval window, on one request when `id` is given. */
  openApproval(id?: string): BrowserWindow {
    const url = appUrl(POPUP_ROUTE, id ? { id } : {});
    if (this.popup && !this.popup.isDestroyed()) {
      void this.popup.loadURL(url);
      this.reveal(this.popup);
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
    );
    // 'floating' keeps it above normal windows without covering the menu bar / full-screen apps.
    win.setAlwaysOnTop(true, 'floating');
    win.on('closed', () => (this.popup = null));
    this.popup = win;
    return win;
  }

  /** Brings back whichever window exists, or opens the main one (second launch, dock click). */
  focus(): void {
    const existing = [this.main, this.popup].find((w) => w && !w.isDestroyed());
    if (existing) this.reveal(existing);
    else this.openMain();
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

  private create(options: BrowserWindowConstructorOptions, url: string): BrowserWindow {
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
    win.once('ready-to-show', () => win.show());
    void win.loadURL(url).catch((err: unknown) =>
      this.deps.logger?.warn('window failed to load', {
        error: err instanceof Error ? err.message : String(err),
      }),
    );
    return win;
  }

  private reveal(win: BrowserWindow): void {
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }
}
