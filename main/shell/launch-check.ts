import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Can this machine run the desktop app? Used by `npm start`
 * (scripts/start.mjs) before it launches Electron (issue 9, item 6). Plain
 * Node, no 'electron' import: `require('electron')` would try to download
 * the binary from GitHub when it is missing (node_modules/electron/index.js).
 */
export type LaunchPlan =
  | { mode: 'desktop'; electron: string }
  | {
      mode: 'headless';
      /** Every reason, joined with "; " (issue 19: the first one alone hid the others). */
      reason: string;
      reasons: string[];
      /** What to do to get the desktop app, one line per reason. */
      fixes: string[];
    };

export interface LaunchEnv {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** node_modules/electron, or null when the package is not installed. */
  electronDir?: string | null;
  exists?: (path: string) => boolean;
  readText?: (path: string) => string | null;
}

function findElectronDir(): string | null {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

const readOrNull = (p: string) => {
  try {
    return readFileSync(p, 'utf8').trim();
  } catch {
    return null;
  }
};

/** The Electron executable, found the way node_modules/electron/index.js finds it, minus the download. */
export function electronBinary(opts: LaunchEnv = {}): { path: string } | { reason: string } {
  const env = opts.env ?? process.env;
  const exists = opts.exists ?? existsSync;
  const dir = opts.electronDir === undefined ? findElectronDir() : opts.electronDir;
  if (!dir) return { reason: 'the electron package is not installed' };
  const rel = (opts.readText ?? readOrNull)(join(dir, 'path.txt'));
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(env.ELECTRON_OVERRIDE_DIST_PATH, rel || 'electron');
    return exists(p)
      ? { path: p }
      : { reason: `no Electron binary at ELECTRON_OVERRIDE_DIST_PATH (${p})` };
  }
  if (!rel)
    return { reason: "Electron's binary was never downloaded (it comes from GitHub on first use)" };
  const p = join(dir, 'dist', rel);
  return exists(p) ? { path: p } : { reason: `Electron's binary is missing (${p})` };
}

/** How to get the binary: the electron package downloads it from GitHub on install. */
export const GET_ELECTRON =
  'get the Electron binary with "node node_modules/electron/install.js" (downloads it from GitHub; or point ELECTRON_OVERRIDE_DIST_PATH at an unpacked Electron)';
const GET_PACKAGE = 'install the electron package with "npm ci" (without --omit=dev)';
const GET_DISPLAY =
  'run from a desktop session (DISPLAY or WAYLAND_DISPLAY set), or under a virtual display: xvfb-run npm start';

export function planLaunch(opts: LaunchEnv = {}): LaunchPlan {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  if (env.AIRLOCK_HEADLESS === '1')
    return headless([['AIRLOCK_HEADLESS=1', 'unset AIRLOCK_HEADLESS for the desktop app']]);
  const found: [string, string][] = [];
  const bin = electronBinary(opts);
  if ('reason' in bin)
    found.push([
      bin.reason,
      bin.reason === 'the electron package is not installed' ? GET_PACKAGE : GET_ELECTRON,
    ]);
  // macOS and Windows always have a window server for a logged-in user; Linux may not (SSH, CI, containers).
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY)
    found.push(['no display (DISPLAY and WAYLAND_DISPLAY are unset)', GET_DISPLAY]);
  if (found.length > 0 || 'reason' in bin) return headless(found);
  return { mode: 'desktop', electron: bin.path };
}

function headless(found: [string, string][]): LaunchPlan {
  const reasons = found.map(([r]) => r);
  return { mode: 'headless', reason: reasons.join('; '), reasons, fixes: found.map(([, f]) => f) };
}
