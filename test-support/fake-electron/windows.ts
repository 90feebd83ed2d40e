import { EventEmitter } from 'node:events';
import { app, assertReady, clipboard, protocol } from './app.js';
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
   * A permission *request* from the page (Chromium's PermissionService.RequestPermission, e.g.
   * `navigator.clipboard.writeText`: blink ClipboardPromise::RequestPermission asks for
   * 'clipboard-sanitized-write' by request only, with no check first). Electron
   * (shell/browser/electron_permission_manager.cc, RequestPermissionsWithDetails) hands it to
   * `setPermissionRequestHandler`'s handler with details {requestingUrl, isMainFrame}, and grants
   * it when no handler is set. Resolves to the answer.
   */
  async requestPermission(
    permission: string,
    frame: FakeWebFrame = this.mainFrame,
  ): Promise<boolean> {
    const handler = this.session.permissionRequestHandler;
    if (!handler) return true;
    return new Promise<boolean>((resolve) =>
      handler(this, permission, (granted: unknown) => resolve(granted === true), {
        requestingUrl: frame.url,
        isMainFrame: frame.parent === null,
      }),
    );
  }
  /**
   * A permission *check* from the page (Chromium's GetPermissionResultForCurrentDocument, e.g.
   * `navigator.permissions.query`). Electron's CheckPermissionWithDetails calls
   * `setPermissionCheckHandler`'s handler with the frame's last committed origin *as a URL*
   * (`GetLastCommittedOrigin().GetURL()`), so `app://airlock/` with its slash, and details
   * {embeddingOrigin, requestingUrl, isMainFrame}; with no handler everything but
   * 'deprecated-sync-clipboard-read' is granted.
   */
  checkPermission(permission: string, frame: FakeWebFrame = this.mainFrame): boolean {
    const handler = this.session.permissionCheckHandler;
    if (!handler) return permission !== 'deprecated-sync-clipboard-read';
    let top = frame;
    while (top.parent) top = top.parent;
    return (
      handler(this, permission, originUrlOf(frame.url), {
        embeddingOrigin: originUrlOf(top.url),
        requestingUrl: frame.url,
        isMainFrame: frame.parent === null,
      }) === true
    );
  }
  /**
   * `navigator.clipboard.writeText(text)` in the page: Chromium requests
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

/** Schemes whose URLs have a host-based (tuple) origin in Chromium: the web's, and ours once registered `standard`. */
const STANDARD = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:']);

/**
 * What Electron passes as `requestingOrigin`: Chromium's url::Origin turned back into a URL
 * (`Origin::GetURL().spec()`), i.e. `scheme://host[:port]/` — with a trailing slash — for http(s)
 * and for a custom scheme registered with `standard: true` (protocol.registerSchemesAsPrivileged);
 * '' for an opaque origin (data:, about:, an unregistered scheme).
 */
export function originUrlOf(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '';
  }
  const standard =
    STANDARD.has(u.protocol) ||
    protocol.privileged.some((p) => `${p.scheme}:` === u.protocol && p.privileges.standard);
  if (u.protocol === 'file:') return 'file:///';
  return standard && u.host ? `${u.protocol}//${u.host}/` : '';
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
