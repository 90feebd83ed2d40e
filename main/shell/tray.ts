import { Menu, Tray } from 'electron';
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
}

/**
 * The tray (issue 9, item 2), in the style of Signal's SystemTrayService:
 * it owns the Tray object and rebuilds menu, icon and tooltip from the
 * core's state on every core event. Rebuilds are serialised and coalesced:
 * a burst of events costs one extra rebuild, not one each.
 */
export class TrayService {
  private tray: Tray | null = null;
  private off: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private queued = false;
  private current: TrayState | null = null;

  constructor(private readonly deps: TrayDeps) {}

  get state(): TrayState | null {
    return this.current;
  }

  async start(): Promise<void> {
    const platform = this.deps.platform ?? process.platform;
    this.tray = new Tray(this.deps.icons.image('idle'));
    this.tray.setToolTip('Airlock');
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
    tray.setContextMenu(Menu.buildFromTemplate(buildTrayMenu(state, this.deps.actions)));
    tray.setImage(this.deps.icons.image(trayIconState(state)));
    tray.setToolTip(trayTooltip(state));
    // macOS shows a short title next to the icon: the number waiting.
    if ((this.deps.platform ?? process.platform) === 'darwin')
      tray.setTitle(state.pending.length ? String(state.pending.length) : '');
  }
}
