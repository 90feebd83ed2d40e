import { Menu, Tray, type MenuItemConstructorOptions } from 'electron';
import type { ControlApi, CoreEvent } from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import {
  buildTrayMenu,
  trayIconState,
  trayTooltip,
  type ApprovalStyle,
  type TrayActions,
  type TrayState,
} from './tray-menu.js';
import type { TrayIcons } from './tray-icons.js';

export interface TrayDeps {
  control: Pick<ControlApi, 'getStatus' | 'listPending'>;
  events: { subscribe(listener: (event: CoreEvent) => void): () => void };
  icons: Pick<TrayIcons, 'image'>;
  actions: TrayActions;
  openAtLogin: () => boolean;
  approvalStyle: () => ApprovalStyle;
  platform?: NodeJS.Platform;
  logger?: Pick<Logger, 'warn'>;
  /** Re-reads state this often too: "agents connected" changes without a core event. */
  pollMs?: number;
  /** Longest a change waits for an open menu to report closing (see setMenu). */
  menuOpenLimitMs?: number;
  /** Timers for that wait; tests pass a clock they drive. */
  timers?: MenuTimers;
}

export interface MenuTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: MenuTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A menu is not read for longer than this; a host that never says it closed is believed closed after it. */
export const MENU_OPEN_LIMIT_MS = 30_000;

/**
 * What a menu shows, for comparing two builds: labels, ids, types, checked
 * and enabled states, nesting (JSON drops the click functions).
 */
const menuKey = (template: MenuItemConstructorOptions[]) => JSON.stringify(template);

/**
 * The tray (issue 9, item 2), in the style of Signal's SystemTrayService:
 * it owns the Tray object and derives menu, icon and tooltip from the
 * core's state on every core event and every poll. Reads are serialised
 * and coalesced (a burst of events costs one extra read), and the menu is
 * replaced only when what it shows changed (issue 21, item 4): replacing
 * the menu closes it if it is open on some desktops. While the user has
 * it open (Menu 'menu-will-show' … 'menu-will-close', where the platform
 * reports them — not every Linux tray host does) a change waits for it to close.
 */
export class TrayService {
  private tray: Tray | null = null;
  private off: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private queued = false;
  private current: TrayState | null = null;
  private shown = { menu: '', icon: '', tooltip: '', title: '' };
  private menuOpen = false;
  private menuTimer: unknown = null;
  private deferred: MenuItemConstructorOptions[] | null = null;

  private readonly timers: MenuTimers;

  constructor(private readonly deps: TrayDeps) {
    this.timers = deps.timers ?? realTimers;
  }

  get state(): TrayState | null {
    return this.current;
  }

  async start(): Promise<void> {
    const platform = this.deps.platform ?? process.platform;
    this.tray = new Tray(this.deps.icons.image('idle'));
    this.tray.setToolTip('Airlock');
    this.shown = { menu: '', icon: 'idle', tooltip: 'Airlock', title: '' };
    // Windows opens a tray app's window on a left click; macOS/Linux show the menu.
    if (platform === 'win32') this.tray.on('click', () => this.deps.actions.openPage());
    this.off = this.deps.events.subscribe(() => void this.refresh());
    const pollMs = this.deps.pollMs ?? 15_000;
    if (pollMs > 0) {
      this.timer = setInterval(() => void this.refresh(), pollMs);
      this.timer.unref();
    }
    await this.refresh();
  }

  /** Schedules a rebuild; resolves when the state at call time (or newer) is shown. */
  refresh(): Promise<void> {
    if (this.queued) return this.chain;
    this.queued = true;
    this.chain = this.chain.then(async () => {
      this.queued = false;
      await this.rebuild();
    });
    return this.chain;
  }

  stop(): void {
    this.off?.();
    this.off = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clearMenuTimer();
    this.tray?.destroy();
    this.tray = null;
  }

  private async rebuild(): Promise<void> {
    if (!this.tray) return;
    let state: TrayState;
    try {
      const [status, pending] = await Promise.all([
        this.deps.control.getStatus(),
        this.deps.control.listPending(),
      ]);
      state = {
        status,
        pending,
        openAtLogin: this.deps.openAtLogin(),
        approvalStyle: this.deps.approvalStyle(),
      };
    } catch (err) {
      this.deps.logger?.warn('tray refresh failed', {
        error: err instanceof Error ? err.message : String(err),
      });
      return;
    }
    const tray = this.tray;
    if (!tray || tray.isDestroyed()) return;
    this.current = state;
    const template = buildTrayMenu(state, this.deps.actions);
    const key = menuKey(template);
    if (key !== this.shown.menu) {
      this.shown.menu = key;
      this.deferred = this.menuOpen ? template : null;
      if (!this.menuOpen) this.setMenu(tray, template);
    }
    const icon = trayIconState(state);
    if (icon !== this.shown.icon) {
      this.shown.icon = icon;
      tray.setImage(this.deps.icons.image(icon));
    }
    const tooltip = trayTooltip(state);
    if (tooltip !== this.shown.tooltip) {
      this.shown.tooltip = tooltip;
      tray.setToolTip(tooltip);
    }
    // macOS shows a short title next to the icon: the number waiting.
    const title = state.pending.length ? String(state.pending.length) : '';
    if ((this.deps.platform ?? process.platform) === 'darwin' && title !== this.shown.title) {
      this.shown.title = title;
      tray.setTitle(title);
    }
  }

  /**
   * Some tray hosts report the menu opening but never its closing (Linux trays drawn through
   * StatusNotifierItem/DBusMenu: electron/electron#28837); a change waiting for 'menu-will-close'
   * would then wait for ever — Pause could not be undone from the tray (issue 32, item 8). So the
   * wait is bounded: after menuOpenLimitMs the menu is taken as closed and the change is shown.
   */
  private setMenu(tray: Tray, template: MenuItemConstructorOptions[]): void {
    const menu = Menu.buildFromTemplate(template);
    menu.on('menu-will-show', () => {
      this.menuOpen = true;
      this.clearMenuTimer();
      this.menuTimer = this.timers.setTimeout(
        () => this.menuClosed(),
        this.deps.menuOpenLimitMs ?? MENU_OPEN_LIMIT_MS,
      );
    });
    menu.on('menu-will-close', () => this.menuClosed());
    tray.setContextMenu(menu);
  }

  private menuClosed(): void {
    this.clearMenuTimer();
    this.menuOpen = false;
    // After the click that closed it has been handled ('menu-will-close' may come before 'click').
    setImmediate(() => {
      const next = this.deferred;
      this.deferred = null;
      if (next && this.tray && !this.tray.isDestroyed() && !this.menuOpen)
        this.setMenu(this.tray, next);
    });
  }

  private clearMenuTimer(): void {
    if (this.menuTimer !== null) this.timers.clearTimeout(this.menuTimer);
    this.menuTimer = null;
  }
}
