import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { platformRules, preventable } from './rules.js';

/** Electron throws for these modules' constructors before 'ready'. */
export function assertReady(what: string): void {
  if (!app.isReady()) throw new Error(`Cannot create ${what} before the app is ready`);
}

export class FakeApp extends EventEmitter {
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
  /**
   * macOS 'activate' (docs/api/app.md): a Dock or Finder re-launch of the running app, and also
   * the launch itself ("launching the application for the first time"), before or after 'ready'.
   */
  emitActivate(hasVisibleWindows = false): void {
    this.emit('activate', preventable(), hasVisibleWindows);
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
  /**
   * The environment Electron's own code reads (the process's, in a real Electron). Electron sets
   * CHROME_DESKTOP to `<app name>.desktop` at start-up (lib/browser/init.ts setDesktopName).
   */
  env: NodeJS.ProcessEnv = { CHROME_DESKTOP: 'airlock.desktop' };
  /**
   * Registers `scheme` and returns whether the OS took it. Linux (shell/browser/browser_linux.cc
   * SetDefaultWebClient): false without $CHROME_DESKTOP, and false unless a desktop entry of that
   * name is installed in an XDG data directory (`g_desktop_app_info_new` finds none otherwise);
   * `path` and `args` are ignored there.
   */
  setAsDefaultProtocolClient(scheme: string, path?: string, args?: string[]): boolean {
    if (platformRules.platform === 'linux') {
      const id = this.env.CHROME_DESKTOP;
      const dirs = [
        this.env.XDG_DATA_HOME || join(this.env.HOME || '/nonexistent', '.local', 'share'),
        ...(this.env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':'),
      ];
      if (!id || !dirs.some((d) => d && existsSync(join(d, 'applications', id)))) return false;
    }
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

export const shell = {
  opened: [] as string[],
  /**
   * Windows shortcuts by path, as `shell.readShortcutLink` reads them (docs/api/shell.md: returns
   * ShortcutDetails; "An exception will be thrown when any error happens").
   */
  shortcuts: new Map<string, { target: string; appUserModelId?: string }>(),
  readShortcutLink(path: string): { target: string; appUserModelId?: string } {
    if (platformRules.platform !== 'win32') throw new Error('readShortcutLink is Windows only');
    const link = this.shortcuts.get(path);
    if (!link) throw new Error(`Failed to read shortcut link: ${path}`);
    return { ...link };
  },
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
