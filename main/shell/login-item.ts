import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { app } from 'electron';

/** The argument a login launch carries, so Airlock starts in the tray without a window. */
export const HIDDEN_ARG = '--hidden';

export interface LoginItemDeps {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** The command that starts Airlock (Linux): the AppImage, the packaged binary, or electron + app path. */
  command?: () => string[];
}

/**
 * Quotes one argument of a .desktop Exec line (freedesktop Desktop Entry
 * Specification, "The Exec key"): reserved characters inside double quotes,
 * with `"`, `` ` ``, `$` and `\` escaped by a backslash.
 */
export function quoteExecArg(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function autostartDesktopEntry(command: string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Airlock',
    'Comment=Approval gateway for your AI agents',
    `Exec=${[...command, HIDDEN_ARG].map(quoteExecArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * Start at login (issue 9, item 1), starting hidden. macOS and Windows:
 * the OS login items (`app.setLoginItemSettings`); Linux: an XDG autostart
 * entry in $XDG_CONFIG_HOME/autostart (XDG Autostart Specification).
 */
export class LoginItem {
  private readonly platform: NodeJS.Platform;
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly deps: LoginItemDeps = {}) {
    this.platform = deps.platform ?? process.platform;
    this.env = deps.env ?? process.env;
  }

  get desktopFile(): string {
    const config = this.env.XDG_CONFIG_HOME || join(this.deps.home ?? homedir(), '.config');
    return join(config, 'autostart', 'airlock.desktop');
  }

  isEnabled(): boolean {
    if (this.platform === 'linux') return existsSync(this.desktopFile);
    return app.getLoginItemSettings({ args: [HIDDEN_ARG] }).openAtLogin;
  }

  setEnabled(on: boolean): void {
    if (this.platform === 'linux') {
      if (!on) {
        rmSync(this.desktopFile, { force: true });
        return;
      }
      mkdirSync(join(this.desktopFile, '..'), { recursive: true });
      writeFileSync(this.desktopFile, autostartDesktopEntry(this.command()), { mode: 0o644 });
      return;
    }
    // macOS ignores `args` (SMAppService); a login launch is recognised by wasOpenedAtLogin instead.
    app.setLoginItemSettings({ openAtLogin: on, args: [HIDDEN_ARG] });
  }

  /** Whether this launch should stay in the tray: started at login, or asked to. */
  startedHidden(argv: readonly string[] = process.argv): boolean {
    if (argv.includes(HIDDEN_ARG)) return true;
    return this.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
  }

  private command(): string[] {
    return this.deps.command ? this.deps.command() : launchCommand(this.env);
  }
}

/** The command that starts this Airlock: the AppImage, the packaged binary, or electron + app path. */
export function launchCommand(env: NodeJS.ProcessEnv): string[] {
  // An AppImage runs from a temporary mount; $APPIMAGE is the file the user keeps.
  if (env.APPIMAGE) return [env.APPIMAGE];
  return app.isPackaged ? [process.execPath] : [process.execPath, app.getAppPath()];
}
