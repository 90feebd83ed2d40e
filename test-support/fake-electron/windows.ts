import { EventEmitter } from 'node:events';
import { app, assertReady, clipboard } from './app.js';
import { platformRules, preventable, type Listener } from './rules.js';

let nextWebContentsId = 1;

export class FakeWebFrame {
  parent: FakeWebFrame | null = null;
  constructor(public url: string) {}
}

export class FakeWebContents extends EventEmitter {
  readonly id = nextWebContentsId++;
  url = '';
  destroyed = false;
  loading = false;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  readonly mainFrame = new FakeWebFrame('');
  /** Page-local state (a half-typed reason, a one-time token panel); every document load wipes it. */
  pageState: Record<string, unknown> = {};
  /** How many documents were loaded (a reload counts). */
  documentLoads = 0;
  /** The session whose permission handlers apply to this page. */
  session = session.defaultSession;

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  getURL(): string {
    return this.url;
  }
  isLoading(): boolean {
    return this.loading;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Simulates the page asking to navigate; returns whether the shell prevented it. */
  tryNavigate(url: string, event: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    const e = preventable({ url });
    this.emit(event, e, url);
    return e.defaultPrevented;
  }
  /** Simulates `window.open(url)` / target=_blank; returns the shell's answer. */
  tryOpenWindow(url: string): { action: 'allow' | 'deny' } {
    if (!this.windowOpenHandler) return { action: 'allow' };
    return this.windowOpenHandler({ url });
  }
  /**
   * What Chromium does for a page permission (Electron's
   * ElectronPermissionManager): a check first (`setPermissionCheckHandler`,
   * default allow when no handler is set), and when the check says no, a
   * request (`setPermissionRequestHandler`, default allow). Resolves to the
   * answer.
   */
  async requestPermission(
    permission: string,
    frame: FakeWebFrame = this.mainFrame,
  ): Promise<boolean> {
    const s = this.session;
    const origin = originOf(frame.url);
    const isMainFrame = frame.parent === null;
    const checked = s.permissionCheckHandler
      ? s.permissionCheckHandler(this, permission, origin, {
          isMainFrame,
          requestingUrl: frame.url,
        })
      : true;
    if (checked === true) return true;
    if (!s.permissionRequestHandler) return true;
    return new Promise<boolean>((resolve) =>
      s.permissionRequestHandler!(
        this,
        permission,
        (granted: unknown) => resolve(granted === true),
        {
          isMainFrame,
          requestingUrl: frame.url,
        },
      ),
    );
  }
  /**
   * `navigator.clipboard.writeText(text)` in the page: Chromium asks for
   * 'clipboard-sanitized-write' and rejects with NotAllowedError when refused.
   */
  async clipboardWriteText(text: string, frame: FakeWebFrame = this.mainFrame): Promise<void> {
    if (!(await this.requestPermission('clipboard-sanitized-write', frame)))
      throw new DOMException(
        "Failed to execute 'writeText' on 'Clipboard': Write permission denied.",
        'NotAllowedError',
      );
    clipboard.writeText(text);
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

/** Strips the fragment: a URL that differs only there is the same document. */
const withoutHash = (url: string) => url.replace(/#.*$/, '');

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  visible = false;
  focused = false;
  destroyed = false;
  minimized = false;
  alwaysOnTop: boolean;
  alwaysOnTopLevel: string | undefined;
  flashed = false;

  constructor(
    readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> },
  ) {
    super();
    assertReady('BrowserWindow');
    this.alwaysOnTop = options.alwaysOnTop === true;
    BrowserWindow.instances.push(this);
  }
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.instances.filter((w) => !w.destroyed);
  }
  static getFocusedWindow(): BrowserWindow | null {
    return BrowserWindow.getAllWindows().find((w) => w.focused) ?? null;
  }
  /**
   * A browser-initiated load: always a new document (Electron's loadURL
   * reloads even when only the fragment differs), which wipes the page's
   * state. 'ready-to-show' comes only when `platformRules.readyToShow`
   * and the window was never shown; 'did-finish-load' always.
   */
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    const wc = this.webContents;
    wc.url = url;
    wc.mainFrame.url = url;
    wc.pageState = {};
    wc.documentLoads++;
    wc.loading = true;
    return new Promise((resolve) =>
      queueMicrotask(() => {
        if (this.destroyed) return resolve();
        wc.loading = false;
        wc.emit('did-finish-load');
        if (platformRules.readyToShow && !this.visible) this.emit('ready-to-show');
        resolve();
      }),
    );
  }
  /** The page changes its own hash (`location.hash = …`): same document, state kept. */
  pageSetsHash(route: string): void {
    const url = `${withoutHash(this.webContents.url)}#${route}`;
    this.webContents.url = url;
    this.webContents.mainFrame.url = url;
  }
  setAlwaysOnTop(flag: boolean, level?: string): void {
    this.alwaysOnTop = flag;
    this.alwaysOnTopLevel = level;
  }
  isAlwaysOnTop(): boolean {
    // Wayland has no protocol for it: the compositor ignores the request.
    return this.alwaysOnTop && !platformRules.wayland;
  }
  /**
   * Shows and activates. On macOS an inactive app's window comes up behind
   * the active app unless the app was made active (`app.focus({steal})`).
   */
  show(): void {
    this.visible = true;
    this.minimized = false;
    if (platformRules.platform === 'darwin' && !app.active) return;
    this.takeFocus();
  }
  /** Shows without taking focus. */
  showInactive(): void {
    this.visible = true;
  }
  /** Raises it in the stacking order without focusing it. */
  moveTop(): void {
    this.movedTop++;
  }
  movedTop = 0;
  hide(): void {
    this.visible = false;
    this.focused = false;
  }
  /** Wayland ignores a client's request for focus; macOS only for the active app. */
  focus(): void {
    if (platformRules.wayland) return;
    if (platformRules.platform === 'darwin' && !app.active) return;
    if (this.visible) this.takeFocus();
  }
  isFocused(): boolean {
    return this.focused;
  }
  flashFrame(flag: boolean): void {
    this.flashed = flag;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  minimize(): void {
    this.minimized = true;
    this.focused = false;
  }
  restore(): void {
    this.minimized = false;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  close(): void {
    this.destroy();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.focused = false;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
  private takeFocus(): void {
    for (const w of BrowserWindow.instances) w.focused = false;
    this.focused = true;
  }
}

export const session = {
  defaultSession: {
    permissionRequestHandler: null as Listener | null,
    permissionCheckHandler: null as ((...args: unknown[]) => boolean) | null,
    setPermissionRequestHandler(h: Listener) {
      this.permissionRequestHandler = h;
    },
    setPermissionCheckHandler(h: (...args: unknown[]) => boolean) {
      this.permissionCheckHandler = h;
    },
  },
};
