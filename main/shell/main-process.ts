import { join } from 'node:path';
import { app, dialog } from 'electron';
import { resolveDataDir } from '../platform/paths.js';
import { DesktopShell, type ShellCore, type ShellDeps } from './desktop-shell.js';
import { shellPaths, type ShellPaths } from './paths.js';
import { registerAppScheme } from './protocol.js';
import { SingleInstance } from './single-instance.js';
import { UrlScheme } from './url-scheme.js';

/** Must equal electron-builder.yml `appId` (Windows matches notifications to the Start-menu shortcut by it). */
export const APP_ID = 'dev.airlock.app';

export interface StartableCore extends ShellCore {
  start(): Promise<unknown>;
}

export interface RunOptions {
  /** Builds the core for a data directory, after 'ready'; main/index.ts passes the real `App`. */
  createCore: (dataDir: string) => StartableCore | Promise<StartableCore>;
  env?: NodeJS.ProcessEnv;
  argv?: readonly string[];
  platform?: NodeJS.Platform;
  /** Tests answer whether a tray is seen, instead of asking the session bus. */
  traySupport?: ShellDeps['traySupport'];
  /** Where the shell's files are; by default next to the compiled shell (paths.ts). */
  paths?: ShellPaths;
}

/**
 * The Electron main process from launch to a running tray app. Order
 * matters: privileged schemes, userData, then the single-instance lock before `ready`;
 * the core (and its own per-data-dir lock) after; the shell last.
 * Returns null when this launch handed over to a running instance or
 * could not start.
 */
export async function runDesktop(opts: RunOptions): Promise<DesktopShell | null> {
  registerAppScheme();
  let dataDir: string;
  try {
    dataDir = resolveDataDir(undefined, opts.env ?? process.env);
  } catch (err) {
    // A data directory that cannot be used (a file in the way, a read-only mount: paths.ts says
    // which) is said in a dialog, as a core that cannot start is: a launch from the desktop has no
    // terminal to read a stack trace in. showErrorBox may be called before 'ready' (Electron's
    // dialog docs; on Linux it then goes to stderr).
    dialog.showErrorBox(
      'Airlock could not start',
      err instanceof Error ? err.message : String(err),
    );
    app.exit(1);
    return null;
  }
  // Chromium's own files (cache, local storage) go in a folder of the data directory. Before the
  // lock: Chromium keeps the single-instance lock in userData, so one Airlock per data directory
  // (issue 21, item 7), not one per Electron default profile.
  app.setPath('userData', join(dataDir, 'chromium'));
  const instance = new SingleInstance();
  if (!instance.claim()) {
    // The running instance got our argv in 'second-instance'.
    app.quit();
    return null;
  }
  await app.whenReady();

  let core: StartableCore | null = null;
  try {
    core = await opts.createCore(dataDir);
    await core.start();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (core) core.logger.error('the core failed to start', { error: message });
    else process.stderr.write(`airlock: the core could not be built: ${message}\n`);
    dialog.showErrorBox('Airlock could not start', message);
    app.exit(1);
    return null;
  }
  new UrlScheme({
    env: opts.env ?? process.env,
    logger: core.logger,
    ...(opts.platform ? { platform: opts.platform } : {}),
  }).register();
  const shell = new DesktopShell({
    core,
    instance,
    paths:
      opts.paths ??
      shellPaths({ isPackaged: app.isPackaged, resourcesPath: process.resourcesPath }),
    appId: APP_ID,
    argv: opts.argv ?? process.argv,
    env: opts.env ?? process.env,
    ...(opts.platform ? { platform: opts.platform } : {}),
    ...(opts.traySupport ? { traySupport: opts.traySupport } : {}),
  });
  await shell.start();
  return shell;
}

/** An error that escaped runDesktop: said on stderr, and the app exits (main/desktop.ts). */
export function exitOnStartError(err: unknown): void {
  process.stderr.write(
    `airlock: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  app.exit(1);
}
