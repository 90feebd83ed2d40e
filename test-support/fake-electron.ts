import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';

/**
 * A stand-in for the parts of the 'electron' module the shell uses, for
 * unit tests (`vi.mock('electron', () => import('./testing/fake-electron.js'))`).
 * Electron's binary cannot be downloaded on our machines (DESIGN "Testing
 * against real things"); this records what the shell asks of Electron so
 * tests can assert it, and lets tests fire Electron's events.
 * Not part of the packaged app (electron-builder.yml excludes it).
 */

type Listener = (...args: unknown[]) => unknown;

/**
 * The platform rules the fake follows (issue 21, item 9). Real Electron
 * behaves differently per OS and session; tests set these to the case
 * they model. Defaults: X11 Linux with a working tray.
 */
export const platformRules = {
  platform: 'linux' as NodeJS.Platform,
  /** Wayland: `focus()` from the app is not honoured, and neither is alwaysOnTop. */
  wayland: false,
  /**
   * Whether a created Tray is actually visible to the user. GNOME without the
   * AppIndicator extension shows nothing, and Electron does not say so: the
   * Tray object is created as usual.
   */
  trayVisible: true,
  /** Whether `loadURL` leads to 'ready-to-show' (it may not: e.g. a window never painted while hidden). */
  readyToShow: true,
};

/** Electron throws for these modules' constructors before 'ready'. */
function assertReady(what: string): void {
  if (!app.isReady()) throw new Error(`Cannot create ${what} before the app is ready`);
}

/** An Electron-style event whose default can be prevented. */
export function preventable<T extends object>(
  extra: T = {} as T,
): T & { preventDefault(): void; defaultPrevented: boolean } {
  const e = {
    ...extra,
    defaultPrevented: false,
    preventDefault: () => void (e.defaultPrevented = true),
  };
  return e;
}

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

/** Width and height from a PNG's IHDR chunk, or null for anything else. */
function pngSize(path: string): { width: number; height: number } | null {
  try {
    const b = readFileSync(path);
    if (b.length < 24 || b.toString('ascii', 12, 16) !== 'IHDR') return null;
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  } catch {
    return null;
  }
}

export class FakeImage {
  template = false;
  /** Set when the image was scaled from its file's size (a resized bitmap, not drawn at this size). */
  resizedFrom: { width: number; height: number } | null = null;
  constructor(
    readonly path: string,
    public size: { width: number; height: number } | null = null,
  ) {}
  setTemplateImage(on: boolean): void {
    this.template = on;
  }
  isTemplateImage(): boolean {
    return this.template;
  }
  resize(size: { width: number; height: number }): FakeImage {
    if (this.isEmpty()) return new FakeImage('');
    const copy = new FakeImage(this.path, size);
    copy.resizedFrom = this.size;
    return copy;
  }
  getSize(): { width: number; height: number } {
    return this.size ?? { width: 0, height: 0 };
  }
  isEmpty(): boolean {
    return this.size === null;
  }
}

/** Like Electron's: a missing or unreadable file gives an empty image, not an error. */
export const nativeImage = {
  createFromPath: (path: string) =>
    existsSync(path) ? new FakeImage(path, pngSize(path)) : new FakeImage(path),
  createEmpty: () => new FakeImage(''),
};

/** A built menu; it emits 'menu-will-show' / 'menu-will-close' like Electron's Menu. */
export class FakeMenu extends EventEmitter {
  constructor(readonly items: Record<string, unknown>[]) {
    super();
  }
}

export const Menu = {
  built: 0,
  buildFromTemplate(template: Record<string, unknown>[]): FakeMenu {
    this.built++;
    return new FakeMenu(template);
  },
};

export class Tray extends EventEmitter {
  static instances: Tray[] = [];
  menu: FakeMenu | null = null;
  tooltip = '';
  title = '';
  destroyed = false;
  /** Whether the user can see it (see platformRules.trayVisible). */
  readonly visibleToUser = platformRules.trayVisible;
  /** The menu the user has open right now, if any. */
  openMenu: FakeMenu | null = null;
  /** Menus that were open when the app replaced them: the user saw the menu close under the pointer. */
  menusClosedUnderUser = 0;
  setContextMenuCalls = 0;
  constructor(public image: FakeImage) {
    super();
    assertReady('Tray');
    Tray.instances.push(this);
  }
  setContextMenu(menu: FakeMenu): void {
    this.setContextMenuCalls++;
    if (this.openMenu) {
      this.menusClosedUnderUser++;
      this.closeMenu();
    }
    this.menu = menu;
  }
  /** The user opens the tray menu. */
  openContextMenu(): void {
    if (!this.menu) return;
    this.openMenu = this.menu;
    this.menu.emit('menu-will-show', preventable());
  }
  /** The menu closes (a click elsewhere, an item chosen). */
  closeMenu(): void {
    const m = this.openMenu;
    this.openMenu = null;
    m?.emit('menu-will-close', preventable());
  }
  setImage(image: FakeImage): void {
    this.image = image;
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setTitle(title: string): void {
    this.title = title;
  }
  destroy(): void {
    this.destroyed = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class Notification extends EventEmitter {
  static instances: Notification[] = [];
  static supported = true;
  /**
   * When set, show() fails and emits 'failed' with this error, as Windows
   * does without a Start-menu shortcut and macOS for an unsigned build or
   * when the user denied notifications.
   */
  static failWith: string | null = null;
  shown = false;
  closed = false;
  constructor(
    readonly options: Record<string, unknown> & { actions?: { type: string; text: string }[] },
  ) {
    super();
    assertReady('Notification');
    Notification.instances.push(this);
  }
  static isSupported(): boolean {
    return Notification.supported;
  }
  show(): void {
    const error = Notification.failWith;
    if (error !== null) {
      queueMicrotask(() => this.emit('failed', preventable(), error));
      return;
    }
    this.shown = true;
    this.emit('show', preventable());
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close', preventable());
  }
  /**
   * Simulates a click on action button `index`, the way Electron 45 reports
   * it. Linux notification servers show no action buttons for Electron: there
   * is nothing to click there.
   */
  clickAction(index: number): void {
    if (platformRules.platform === 'linux')
      throw new Error('Linux shows no notification action buttons');
    if (!this.shown) throw new Error('the notification is not on screen');
    this.emit('action', { actionIndex: index, selectionIndex: -1, preventDefault() {} }, index, -1);
  }
}

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, InvokeHandler>(),
  handle(channel: string, handler: InvokeHandler): void {
    if (this.handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  },
  /** What `ipcRenderer.invoke` from `sender` would get. */
  async invoke(
    channel: string,
    sender: { sender: FakeWebContents; senderFrame: FakeWebFrame | null },
    ...args: unknown[]
  ): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(sender, ...args);
  },
};

class FakeApp extends EventEmitter {
  isPackaged = false;
  singleInstanceLock = true;
  /** The userData directory at the moment the single-instance lock was requested (where Chromium puts it). */
  lockDir: string | null = null;
  quitCalls = 0;
  exitCode: number | null = null;
  appUserModelId: string | null = null;
  loginItem = { openAtLogin: false, wasOpenedAtLogin: false, args: [] as string[] };
  protocolClients: { scheme: string; path?: string; args?: string[] }[] = [];
  paths = new Map<string, string>();
  /** macOS: whether Airlock is the active app (windows come to the front only then). */
  active = false;
  focusCalls: { steal?: boolean }[] = [];
  readonly dock = { hidden: false, hide: () => void (this.dock.hidden = true) };
  private readyState: { ready: boolean; promise: Promise<void>; resolve: () => void } =
    this.freshReady();
  requestSingleInstanceLock(): boolean {
    this.lockDir = this.getPath('userData');
    return this.singleInstanceLock;
  }
  isReady(): boolean {
    return this.readyState.ready;
  }
  /** Resolves once 'ready' was emitted (never at once, as Electron's does after start-up). */
  whenReady(): Promise<void> {
    return this.readyState.promise;
  }
  /** Simulates Electron finishing start-up. */
  emitReady(): void {
    if (this.readyState.ready) return;
    this.readyState.ready = true;
    this.emit('ready', preventable(), {});
    this.readyState.resolve();
  }
  /** Back to "not ready yet" (resetFakeElectron). */
  unready(): void {
    this.readyState = this.freshReady();
  }
  /** Set when a quit went through (a 'before-quit' nobody prevented). */
  quitted = false;
  quit(): void {
    this.quitCalls++;
    const e = preventable();
    this.emit('before-quit', e);
    if (!e.defaultPrevented) this.quitted = true;
  }
  exit(code = 0): void {
    this.exitCode = code;
  }
  focus(options?: { steal?: boolean }): void {
    this.focusCalls.push({ ...(options ?? {}) });
    // macOS: without `steal` an app in the background only asks; with it, it becomes active.
    if (platformRules.platform !== 'darwin' || options?.steal) this.active = true;
  }
  getAppPath(): string {
    return '/fake/app';
  }
  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }
  getPath(name: string): string {
    return this.paths.get(name) ?? `/fake/${name}`;
  }
  setAppUserModelId(id: string): void {
    this.appUserModelId = id;
  }
  setLoginItemSettings(s: { openAtLogin?: boolean; args?: string[] }): void {
    this.loginItem = { ...this.loginItem, openAtLogin: !!s.openAtLogin, args: s.args ?? [] };
  }
  getLoginItemSettings(): { openAtLogin: boolean; wasOpenedAtLogin: boolean } {
    return { ...this.loginItem };
  }
  setAsDefaultProtocolClient(scheme: string, path?: string, args?: string[]): boolean {
    this.protocolClients.push({ scheme, ...(path ? { path } : {}), ...(args ? { args } : {}) });
    return true;
  }
  private freshReady() {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { ready: false, promise, resolve };
  }
}

export const app = new FakeApp();

export const protocol = {
  privileged: [] as { scheme: string; privileges: Record<string, boolean> }[],
  handlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
  registerSchemesAsPrivileged(
    schemes: { scheme: string; privileges: Record<string, boolean> }[],
  ): void {
    if (app.isReady())
      throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response> | Response): void {
    if (!app.isReady()) throw new Error('protocol.handle must be called after the app is ready');
    this.handlers.set(scheme, handler);
  },
  unhandle(scheme: string): void {
    this.handlers.delete(scheme);
  },
};

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

export const shell = {
  opened: [] as string[],
  openExternal(url: string): Promise<void> {
    this.opened.push(url);
    return Promise.resolve();
  },
};

export const clipboard = {
  text: '',
  writeText(text: string): void {
    this.text = text;
  },
};

export const dialog = {
  /** Answers for showMessageBox; each call takes one (a number, or a promise for aborted dialogs). */
  answers: [] as (number | Promise<number>)[],
  shown: [] as Record<string, unknown>[],
  errors: [] as { title: string; content: string }[],
  async showMessageBox(
    options: Record<string, unknown> & { signal?: AbortSignal; cancelId?: number },
  ): Promise<{ response: number; checkboxChecked: boolean }> {
    this.shown.push(options);
    const answer = this.answers.shift();
    if (answer === undefined) {
      // No scripted answer: stays open until aborted, like a dialog nobody clicks.
      await new Promise<void>((resolve) =>
        options.signal?.addEventListener('abort', () => resolve(), { once: true }),
      );
      return { response: options.cancelId ?? 0, checkboxChecked: false };
    }
    return { response: await answer, checkboxChecked: false };
  },
  showErrorBox(title: string, content: string): void {
    this.errors.push({ title, content });
  },
};

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    this.exposed.set(key, api);
  },
};

export const ipcRenderer = {
  invoked: [] as { channel: string; args: unknown[] }[],
  listeners: new Map<string, Set<Listener>>(),
  reply: (_channel: string, ..._args: unknown[]): unknown => ({ ok: true, value: null }),
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push({ channel, args });
    return this.reply(channel, ...args);
  },
  on(channel: string, l: Listener) {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)!.add(l);
    return this;
  },
  removeListener(channel: string, l: Listener) {
    this.listeners.get(channel)?.delete(l);
    return this;
  },
};

/**
 * Clears every record between tests and starts Electron again. By default
 * it is ready when the returned promise resolves (`beforeEach(() =>
 * resetFakeElectron())`); with `{ ready: 'later' }` 'ready' comes on the
 * next turn of the event loop, so a test of start-up sees what runs before
 * it.
 */
export function resetFakeElectron(opts: { ready?: 'now' | 'later' } = {}): Promise<void> {
  BrowserWindow.instances.length = 0;
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
  });
  app.loginItem = { openAtLogin: false, wasOpenedAtLogin: false, args: [] };
  app.paths.clear();
  app.dock.hidden = false;
  protocol.privileged.length = 0;
  protocol.handlers.clear();
  session.defaultSession.permissionRequestHandler = null;
  session.defaultSession.permissionCheckHandler = null;
  shell.opened.length = 0;
  clipboard.text = '';
  dialog.answers.length = 0;
  dialog.shown.length = 0;
  dialog.errors.length = 0;
  contextBridge.exposed.clear();
  ipcRenderer.invoked.length = 0;
  ipcRenderer.listeners.clear();
  app.unready();
  if (opts.ready === 'later') {
    setImmediate(() => app.emitReady());
    return Promise.resolve();
  }
  app.emitReady();
  return Promise.resolve();
}
