import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { app } from 'electron';
import type { Logger } from '../platform/log.js';
import { launchCommand, quoteExecArg } from './login-item.js';
import { DEEP_LINK_SCHEME } from './single-instance.js';

/** Marks a desktop entry Airlock wrote itself (and may rewrite); any other is left alone. */
const GENERATED = 'X-Airlock-Generated=true';

/** A desktop entry that opens `airlock://` links with `command` (Desktop Entry Specification: %u is the URL). */
export function urlHandlerDesktopEntry(command: string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Airlock',
    'Comment=Approval gateway for your AI agents',
    `Exec=${command.map(quoteExecArg).join(' ')} %u`,
    'Terminal=false',
    // A handler for links, not a second launcher next to the one a package may install.
    'NoDisplay=true',
    `MimeType=x-scheme-handler/${DEEP_LINK_SCHEME};`,
    GENERATED,
    '',
  ].join('\n');
}

export interface UrlSchemeDeps {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  home?: string;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Registers `airlock://` with the OS (issue 21, item 6; issue 32, item 5). macOS takes it from
 * Info.plist (electron-builder.yml `protocols`), Windows from the registry Electron writes. On
 * Linux Electron registers the scheme for the desktop entry named by $CHROME_DESKTOP (which it sets
 * to `<app name>.desktop` at start-up) and fails when no such entry is installed
 * (shell/browser/browser_linux.cc SetDefaultWebClient: g_desktop_app_info_new, then
 * g_app_info_set_as_default_for_type). The .deb installs one; an AppImage and `npm start` have
 * none, so Airlock writes its own to $XDG_DATA_HOME/applications first. The OS's answer is
 * returned and a refusal logged, never ignored.
 */
export class UrlScheme {
  private readonly platform: NodeJS.Platform;
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly deps: UrlSchemeDeps = {}) {
    this.platform = deps.platform ?? process.platform;
    this.env = deps.env ?? process.env;
  }

  register(): boolean {
    if (this.platform === 'linux') {
      try {
        this.ensureDesktopEntry();
      } catch (err) {
        this.deps.logger?.warn('could not write the desktop entry for airlock:// links', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
    // From source, Electron must be told to start the app path, not the bare electron binary.
    const ok = app.isPackaged
      ? app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME)
      : app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [app.getAppPath()]);
    if (!ok) this.deps.logger?.warn('the OS did not take airlock:// links for Airlock');
    return ok;
  }

  /** The desktop entry's id: what Electron put in $CHROME_DESKTOP (lib/browser/init.ts). */
  get desktopId(): string {
    return this.env.CHROME_DESKTOP || 'airlock.desktop';
  }

  /** $XDG_DATA_HOME/applications/<id>, where a user's own desktop entries live (XDG Base Directory). */
  get userEntry(): string {
    const dataHome = this.env.XDG_DATA_HOME || join(this.deps.home ?? homedir(), '.local', 'share');
    return join(dataHome, 'applications', this.desktopId);
  }

  /**
   * Writes the user desktop entry unless one is installed system-wide ($XDG_DATA_DIRS, e.g. by
   * the .deb) or the user has an entry of that name that Airlock did not write. Rewritten on
   * every start, as the AppImage may have moved. Returns the file written, or null.
   */
  ensureDesktopEntry(): string | null {
    const dataDirs = (this.env.XDG_DATA_DIRS || '/usr/local/share:/usr/share')
      .split(':')
      .filter(Boolean);
    if (dataDirs.some((d) => existsSync(join(d, 'applications', this.desktopId)))) return null;
    const file = this.userEntry;
    if (existsSync(file) && !readFileSync(file, 'utf8').includes(GENERATED)) return null;
    const text = urlHandlerDesktopEntry(launchCommand(this.env));
    if (existsSync(file) && readFileSync(file, 'utf8') === text) return file;
    mkdirSync(join(file, '..'), { recursive: true });
    // Whole or not at all: the desktop database never reads half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o644 });
    renameSync(tmp, file);
    return file;
  }
}
