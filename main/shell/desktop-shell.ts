import { join } from 'node:path';
import { app, clipboard, session } from 'electron';
import type { ControlApi, CoreEvent } from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import type { Settings } from '../platform/settings.js';
import { ApprovalDialog } from './approval-dialog.js';
import { ApprovalNotifier } from './approval-notifier.js';
import { ControlIpc } from './ipc.js';
import { ExternalLinkGate } from './link-gate.js';
import { LoginItem } from './login-item.js';
import type { ShellPaths } from './paths.js';
import { AppProtocol } from './protocol.js';
import { QuitGate, stopWithin, watchWindowsSessionEnd } from './quit.js';
import { hardenSession, hardenWebContents } from './security.js';
import {
  deepLinksIn,
  type ActivationRequest,
  type DeepLink,
  type SingleInstance,
} from './single-instance.js';
import { hasToastShortcut } from './toast-support.js';
import { notificationIcon, TrayIcons } from './tray-icons.js';
import type { ApprovalStyle, TrayActions } from './tray-menu.js';
import { traySupport, type TraySupport } from './tray-support.js';
import { TrayService } from './tray.js';
import { WindowManager } from './windows.js';

/** What the shell needs of the core `App` (main/app/app.ts); a started App fits it. */
export interface ShellCore {
  control: ControlApi;
  events: {
    subscribe(listener: (event: CoreEvent) => void): () => void;
    emit(event: CoreEvent): void;
  };
  settings: { get(): Settings; update(change: (draft: Settings) => void): Settings };
  logger: Logger;
  stop(): Promise<void>;
}

export interface ShellDeps {
  core: ShellCore;
  paths: ShellPaths;
  instance: Pick<SingleInstance, 'ready'>;
  /** Windows notifications need it, and it must equal electron-builder.yml `appId`. */
  appId: string;
  platform?: NodeJS.Platform;
  argv?: readonly string[];
  loginItem?: LoginItem;
  /** Upper bound on waiting for the core to stop at quit. */
  stopTimeoutMs?: number;
  trayPollMs?: number;
  /** Whether the tray icon will be seen (tray-support.ts); tests pass their answer. */
  traySupport?: () => Promise<TraySupport>;
  /** The process environment (Windows Start-menu folders). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The Electron shell (docs/architecture.md "Layers"): a thin adapter that
 * wires the tray, windows, native approvals and IPC to an already started
 * core, and owns the quit sequence. Everything here is replaceable; the
 * core never knows it exists.
 */
export class DesktopShell {
  readonly links: ExternalLinkGate;
  readonly windows: WindowManager;
  readonly ipc: ControlIpc;
  readonly tray: TrayService;
  readonly notifier: ApprovalNotifier;
  readonly loginItem: LoginItem;
  private readonly protocol: AppProtocol;
  private readonly dialog: ApprovalDialog;
  private readonly platform: NodeJS.Platform;
  private readonly quitGate = new QuitGate(() => this.stop());
  private offSessionEnd: (() => void) | undefined;
  /** start() has finished: activations from now on are the user's. */
  private launched = false;
  /** False on Windows without a Start-menu shortcut for our AppUserModelID (start()). */
  private toastsShown = true;
  private stopping: Promise<void> | null = null;
  private offPolicy: (() => void) | undefined;

  constructor(private readonly deps: ShellDeps) {
    const { core, paths } = deps;
    this.platform = deps.platform ?? process.platform;
    const logger = core.logger;
    const iconPath = join(paths.resourcesDir, 'icon.png');
    this.links = new ExternalLinkGate({ logger });
    this.loginItem = deps.loginItem ?? new LoginItem({ platform: this.platform });
    this.protocol = new AppProtocol(paths.rendererDir);
    this.windows = new WindowManager({
      preloadPath: paths.preload,
      links: this.links,
      iconPath,
      devTools: !app.isPackaged,
      logger,
      platform: this.platform,
    });
    this.ipc = new ControlIpc({
      api: core.control,
      events: core.events,
      windows: this.windows,
      logger,
    });
    this.dialog = new ApprovalDialog({
      control: core.control,
      openApproval: (id) => void this.windows.openApproval(id, { focus: true }),
      showInWindow: (id) => void this.windows.openApproval(id, { focus: false }),
      parentWindow: () => this.windows.visibleWindow(),
      platform: this.platform,
      logger,
    });
    this.notifier = new ApprovalNotifier({
      control: core.control,
      events: core.events,
      approvalStyle: () => this.approvalStyle(),
      openApproval: (id, userAsked) => void this.windows.openApproval(id, { focus: userAsked }),
      dialog: this.dialog,
      notificationsShown: () => this.toastsShown,
      icon: notificationIcon(paths.resourcesDir, this.platform),
      logger,
    });
    this.tray = new TrayService({
      control: core.control,
      events: core.events,
      icons: new TrayIcons(paths.resourcesDir, this.platform, logger),
      actions: this.trayActions(),
      openAtLogin: () => this.loginItem.isEnabled(),
      approvalStyle: () => this.approvalStyle(),
      platform: this.platform,
      logger,
      ...(deps.trayPollMs !== undefined ? { pollMs: deps.trayPollMs } : {}),
    });
  }

  /** Call once Electron is ready and the core has started. */
  async start(): Promise<void> {
    // Windows shows a notification only for an app with an AppUserModelId matching its Start-menu
    // shortcut; without that shortcut (portable build, run from source) every toast is dropped
    // silently, so approvals open in the window instead (issue 32, item 7).
    if (this.platform === 'win32') {
      app.setAppUserModelId(this.deps.appId);
      this.toastsShown = hasToastShortcut(this.deps.appId, this.deps.env ?? process.env);
      if (!this.toastsShown)
        this.deps.core.logger.warn(
          "no Start-menu shortcut carries Airlock's AppUserModelID: Windows will not show its notifications; approvals open in the window",
        );
    }
    // Packaged macOS builds have LSUIElement (no Dock icon); from source the Dock icon is hidden here.
    if (this.platform === 'darwin') app.dock?.hide();
    hardenSession(session.defaultSession);
    app.on('web-contents-created', (_event, contents) =>
      hardenWebContents(contents, this.links, this.deps.core.logger),
    );
    this.protocol.start();
    this.ipc.start();
    await this.tray.start();
    // A tray app keeps running with no window open; the default would quit. Without a visible
    // tray (below) a second launch of Airlock brings the window back.
    app.on('window-all-closed', () => {});
    this.quitGate.install();
    if (this.platform === 'win32')
      this.offSessionEnd = watchWindowsSessionEnd(() => {
        this.deps.core.logger.info('Windows is ending the session: stopping Airlock');
        app.quit();
      });
    // A second launch, a link, a Dock/Finder re-launch ('activate'); what came during start-up
    // is part of this launch.
    const early = this.deps.instance.ready((request) => this.onActivation(request));
    await this.openForLaunch(early);
    // Loosening asked for from outside the window (the CLI, an agent with a shell) waits for the
    // user's Confirm on the Tools page (issue 17 item 7): bring that page up, without taking focus.
    this.offPolicy = this.deps.core.events.subscribe((e) => {
      if (e.type === 'policy.change' && e.change.state === 'pending')
        this.windows.openMain('/tools', { focus: false });
    });
    // After the windows: requests still waiting from before start raise their notifications.
    await this.notifier.start();
    this.launched = true;
  }

  /**
   * What this launch shows (issue 32, item 3): the links it came with — on the command line
   * (Windows, Linux; issue 21, item 6) or as macOS 'open-url' before or during start-up — and
   * then nothing else; otherwise the main window, unless it is a login start (issue 21, item 4).
   * A macOS 'activate' during start-up is the launch itself (Electron emits it for "launching
   * the application for the first time", docs/api/app.md) and changes nothing of that; a second
   * launch during start-up is the user asking, and brings the window.
   */
  private async openForLaunch(early: ActivationRequest[]): Promise<void> {
    const argv = this.deps.argv ?? process.argv;
    const links = [...deepLinksIn(argv), ...early.flatMap((r) => r.links)];
    const askedAgain = early.some((r) => r.source === 'second-instance');
    if (links.length > 0) this.activate(links);
    else if (askedAgain || !this.loginItem.startedHidden(argv)) this.windows.openMain();
    else if ((await this.trayIsSeen()) === 'no') {
      // A login start with no tray to click would leave Airlock invisible (issue 21, item 4):
      // show the main window, without taking focus from whatever the user is doing.
      this.deps.core.logger.warn('no system tray found; showing the window instead');
      this.windows.openMain(undefined, { focus: false });
    }
  }

  private onActivation(request: ActivationRequest): void {
    // Until start() is done, a bare 'activate' is still the launch's own (see openForLaunch).
    if (!this.launched && request.source === 'activate' && request.links.length === 0) return;
    this.activate(request.links);
  }

  private async trayIsSeen(): Promise<TraySupport> {
    try {
      return await (this.deps.traySupport ?? (() => traySupport(this.platform, process.env)))();
    } catch {
      return 'unknown';
    }
  }

  /** A second launch or a deep link: show what it asks for, or just bring Airlock forward. */
  activate(links: DeepLink[]): void {
    if (links.length === 0) return this.windows.focus();
    for (const link of links) {
      if (link.kind === 'approval') this.windows.openApproval(link.id, { focus: true });
      else this.windows.openMain(link.route);
    }
  }

  /** Stops the shell, then waits (bounded) for the core's servers and database to close. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.offPolicy?.();
      this.offSessionEnd?.();
      this.notifier.stop();
      this.tray.stop();
      this.ipc.stop();
      this.windows.closeAll();
      this.protocol.stop();
      await stopWithin(this.deps.core, this.deps.stopTimeoutMs ?? 10_000);
    })();
    return this.stopping;
  }

  private approvalStyle(): ApprovalStyle {
    return this.deps.core.settings.get().shell.approvalStyle;
  }

  private trayActions(): TrayActions {
    const { core } = this.deps;
    const report = (what: string) => (err: unknown) =>
      core.logger.warn(`${what} failed`, {
        error: err instanceof Error ? err.message : String(err),
      });
    return {
      openApproval: (id) => void this.windows.openApproval(id, { focus: true }),
      openPage: (route) => void this.windows.openMain(route),
      copyMcpUrl: (url) => clipboard.writeText(url),
      setPaused: (paused) => void core.control.setPaused(paused).catch(report('pausing')),
      setOpenAtLogin: (on) => {
        try {
          this.loginItem.setEnabled(on);
        } catch (err) {
          report('changing start at login')(err);
        }
        void this.tray.refresh();
      },
      setApprovalStyle: (style) => {
        core.settings.update((s) => void (s.shell.approvalStyle = style));
        core.events.emit({ type: 'state.changed' });
      },
      quit: () => app.quit(),
    };
  }
}
