import { EventEmitter } from 'node:events';

/**
 * A stand-in for the parts of the 'electron' module the shell uses, for
 * unit tests (`vi.mock('electron', () => import('./testing/fake-electron.js'))`).
 * Electron's binary cannot be downloaded on our machines (README
 * "Status"); this records what the shell asks of Electron so
 * tests can assert it, and lets tests fire Electron's events.
 * Not part of the packaged app (electron-builder.yml excludes it).
 */

type Listener = (...args: unknown[]) => unknown;

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
  readonly sent: { channel: string; args: unknown[] }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  readonly mainFrame = new FakeWebFrame('');

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  getURL(): string {
    return this.url;
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
}

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  visible = false;
  destroyed = false;
  alwaysOnTop: boolean;
  alwaysOnTopLevel: string | undefined;

  constructor(
    readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> },
  ) {
    super();
    this.alwaysOnTop = options.alwaysOnTop === true;
    BrowserWindow.instances.push(this);
  }
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.instances.filter((w) => !w.destroyed);
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
    this.webContents.mainFrame.url = url;
    queueMicrotask(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  setAlwaysOnTop(flag: boolean, level?: string): void {
    this.alwaysOnTop = flag;
    this.alwaysOnTopLevel = level;
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {}
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
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
    this.webContents.destroyed = true;
    this.emit('closed');
  }
}

export class FakeImage {
  template = false;
  size: { width: number; height: number } | null = null;
  constructor(readonly path: string) {}
  setTemplateImage(on: boolean): void {
    this.template = on;
  }
  isTemplateImage(): boolean {
    return this.template;
  }
  resize(size: { width: number; height: number }): FakeImage {
    const copy = new FakeImage(this.path);
    copy.size = size;
    return copy;
  }
  isEmpty(): boolean {
    return false;
  }
}

export const nativeImage = {
  createFromPath: (path: string) => new FakeImage(path),
  createEmpty: () => new FakeImage(''),
};

export interface FakeMenu {
  items: Record<string, unknown>[];
}

export const Menu = {
  buildFromTemplate: (template: Record<string, unknown>[]): FakeMenu => ({ items: template }),
};

export class Tray extends EventEmitter {
  static instances: Tray[] = [];
  menu: FakeMenu | null = null;
  tooltip = '';
  title = '';
  destroyed = false;
  constructor(public image: FakeImage) {
    super();
    Tray.instances.push(this);
  }
  setContextMenu(menu: FakeMenu): void {
    this.menu = menu;
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
  shown = false;
  closed = false;
  constructor(
    readonly options: Record<string, unknown> & { actions?: { type: string; text: string }[] },
  ) {
    super();
    Notification.instances.push(this);
  }
  static isSupported(): boolean {
    return Notification.supported;
  }
  show(): void {
    this.shown = true;
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close', preventable());
  }
  /** Simulates a click on action button `index`, the way Electron 45 reports it. */
  clickAction(index: number): void {
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
  quitCalls = 0;
  exitCode: number | null = null;
  appUserModelId: string | null = null;
  loginItem = { openAtLogin: false, wasOpenedAtLogin: false, args: [] as string[] };
  protocolClients: { scheme: string; path?: string; args?: string[] }[] = [];
  paths = new Map<string, string>();
  readonly dock = { hidden: false, hide: () => void (this.dock.hidden = true) };
  requestSingleInstanceLock(): boolean {
    return this.singleInstanceLock;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
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
}

export const app = new FakeApp();

export const protocol = {
  privileged: [] as { scheme: string; privileges: Record<string, boolean> }[],
  handlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
  registerSchemesAsPrivileged(
    schemes: { scheme: string; privileges: Record<string, boolean> }[],
  ): void {
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response> | Response): void {
    this.handlers.set(scheme, handler);
  },
  unhandle(scheme: string): void {
    this.handlers.delete(scheme);
  },
};

export const session = {
  defaultSession: {
    permissionRequestHandler: null as Listener | null,
    permissionCheckHandler: null as Listener | null,
    setPermissionRequestHandler(h: Listener) {
      this.permissionRequestHandler = h;
    },
    setPermissionCheckHandler(h: Listener) {
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

/** Clears every record between tests. */
export function resetFakeElectron(): void {
  BrowserWindow.instances.length = 0;
  Tray.instances.length = 0;
  Notification.instances.length = 0;
  Notification.supported = true;
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
}
