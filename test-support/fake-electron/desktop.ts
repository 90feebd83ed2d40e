import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { app, assertReady, shell } from './app.js';
import { platformRules, preventable } from './rules.js';

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
    if (platformRules.trayMenuCloseReported) m?.emit('menu-will-close', preventable());
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
  /** Windows dropped it silently (no Start-menu shortcut with the app's AppUserModelID). */
  dropped = false;
  /** Linux: bytes of icon pixels sent to the notification server (RGBA, 4 per pixel). */
  iconBytesSent = 0;
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
    // Windows shows a toast only for an app whose AppUserModelID a Start-menu shortcut carries
    // (docs/tutorial/notifications.md, "Windows"); otherwise it is dropped without a 'failed'.
    if (platformRules.platform === 'win32' && !windowsToastShortcut()) {
      this.dropped = true;
      return;
    }
    this.shown = true;
    // Linux: the icon's pixels go over D-Bus with the notification, at the image's own size
    // (shell/browser/notifications/linux/libnotify_notification.cc: set_image_from_pixbuf).
    if (platformRules.platform === 'linux') this.iconBytesSent = iconBytes(this.options.icon);
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

/** A message box the shell showed, as the fake saw it. */
export type ShownMessageBox = Record<string, unknown> & {
  signal?: AbortSignal;
  cancelId?: number;
  /** The window it is a sheet on (macOS) / modal to; null when it has none. */
  parent: { isVisible(): boolean } | null;
  /**
   * macOS, no parent window: Electron runs `[NSAlert runModal]`, a synchronous modal loop that
   * stops the whole main process until the user answers (shell/browser/ui/message_box_mac.mm
   * ShowMessageBox), and such a box cannot be closed by `signal` (docs/api/dialog.md: "On macOS,
   * `signal` does not work with message boxes that do not have a parent window, since those
   * message boxes run synchronously due to platform limitations"). The fake cannot freeze the
   * process; it records it here.
   */
  blocking: boolean;
  /** Still on screen (no answer yet, not closed by its signal). */
  open: boolean;
};

export const dialog = {
  /** Answers for showMessageBox; each call takes one (a number, or a promise for aborted dialogs). */
  answers: [] as (number | Promise<number>)[],
  shown: [] as ShownMessageBox[],
  errors: [] as { title: string; content: string }[],
  /** `showMessageBox([window, ]options)`: with a window, a sheet on it (macOS) / modal to it. */
  async showMessageBox(
    ...args:
      | [options: Record<string, unknown> & { signal?: AbortSignal; cancelId?: number }]
      | [
          window: { isVisible(): boolean },
          options: Record<string, unknown> & { signal?: AbortSignal; cancelId?: number },
        ]
  ): Promise<{ response: number; checkboxChecked: boolean }> {
    const [parent, options] = args.length === 2 ? args : [null, args[0]];
    const blocking = platformRules.platform === 'darwin' && parent === null;
    const box: ShownMessageBox = { ...options, parent, blocking, open: true };
    this.shown.push(box);
    const answer = this.answers.shift();
    const close = (response: number) => {
      box.open = false;
      return { response, checkboxChecked: false };
    };
    if (answer !== undefined) return close(await answer);
    // No scripted answer: stays open, like a dialog nobody clicks — until its signal closes it,
    // which a blocking macOS box ignores.
    if (blocking) return new Promise(() => {});
    await new Promise<void>((resolve) => {
      if (options.signal?.aborted) return resolve();
      options.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    return close(options.cancelId ?? 0);
  },
  showErrorBox(title: string, content: string): void {
    this.errors.push({ title, content });
  },
};

/** Electron's screen module cannot be used before 'ready'; the shell does not use it (yet). */
export const screen = {
  getPrimaryDisplay() {
    assertReady('screen (getPrimaryDisplay)');
    return { workArea: { x: 0, y: 0, width: 1280, height: 800 }, scaleFactor: 1 };
  },
};

/** Whether a shortcut (in the Start menu) carries the AppUserModelID the app set. */
function windowsToastShortcut(): boolean {
  const id = app.appUserModelId;
  return !!id && [...shell.shortcuts.values()].some((s) => s.appUserModelId === id);
}

/** RGBA bytes of a notification icon given as a path or an image (0 for none or an empty one). */
function iconBytes(icon: unknown): number {
  const size =
    icon instanceof FakeImage
      ? icon.getSize()
      : typeof icon === 'string'
        ? (pngSize(icon) ?? { width: 0, height: 0 })
        : { width: 0, height: 0 };
  return size.width * size.height * 4;
}
