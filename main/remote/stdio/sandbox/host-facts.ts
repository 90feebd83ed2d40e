import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { keychainPaths, type ProtectedPath } from './protected-paths.js';

/**
 * What the sandbox needs to know about this machine and this Airlock
 * (issue 35), built once by the app's wiring. Tests give their own
 * (a temporary home, a bwrap that is not there).
 */
export interface SandboxHost {
  platform: NodeJS.Platform;
  /** The user's home folder (where the server's own folder is mounted on Linux). */
  home: string;
  /** Never inside a sandbox: data directory, control socket, vault key, keychain, … */
  guard: ProtectedPath[];
  /** Where each server's own folder lives (outside the data directory). */
  homesRoot: string;
  /** bubblewrap, if found (Linux). */
  bwrap?: string;
  /** The node that runs the in-sandbox proxy forwarder (Airlock's own; Electron runs as node). */
  node: string;
  /**
   * Perl at a system path (so the sandbox sees it), which binds the forwarder's port and relays
   * for a host-list server (forwarder.ts); without it the forwarder's Node starts first. Not on
   * MIPS, whose SOCK_STREAM differs from the one LAUNCH_PERL uses.
   */
  perl?: string;
}

export interface SandboxHostInput {
  dataDir: string;
  /** Airlock's control socket (its folder may be outside the data directory). */
  controlSocket?: string;
  /** The file vault's key file, when one is used. */
  vaultKeyFile?: string;
}

/** Under /usr, which every Linux sandbox sees read-only (runtime-paths.ts). */
const SYSTEM_PERL = '/usr/bin/perl';

/** Cache folder for the servers' own folders: per profile, outside the data directory. */
export function defaultHomesRoot(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  const id = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  const base =
    platform === 'darwin'
      ? join(home, 'Library', 'Caches', 'Airlock Sandboxes')
      : platform === 'win32'
        ? join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'Airlock Sandboxes')
        : join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'airlock-sandboxes');
  return join(base, id);
}

/** bubblewrap on PATH (or AIRLOCK_BWRAP), the way the sandbox will run it. */
export function findBwrap(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.AIRLOCK_BWRAP) return env.AIRLOCK_BWRAP;
  for (const dir of (env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const p = join(dir, 'bwrap');
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

export function sandboxHost(
  i: SandboxHostInput,
  over: Partial<SandboxHost> = {},
  env: NodeJS.ProcessEnv = process.env,
): SandboxHost {
  const platform = over.platform ?? process.platform;
  const home = over.home ?? homedir();
  const homesRoot = over.homesRoot ?? defaultHomesRoot(i.dataDir, platform, env, home);
  const guard: ProtectedPath[] = [
    { path: i.dataDir, what: "Airlock's data directory" },
    ...(i.controlSocket ? [{ path: i.controlSocket, what: "Airlock's control socket" }] : []),
    ...(i.vaultKeyFile ? [{ path: i.vaultKeyFile, what: "the file vault's key" }] : []),
    { path: homesRoot, what: "the local servers' own folders" },
    ...keychainPaths(platform, env, home),
    ...(over.guard ?? []),
  ];
  const bwrap = 'bwrap' in over ? over.bwrap : platform === 'linux' ? findBwrap(env) : undefined;
  const perl =
    'perl' in over
      ? over.perl
      : platform === 'linux' && !process.arch.startsWith('mips') && existsSync(SYSTEM_PERL)
        ? SYSTEM_PERL
        : undefined;
  return {
    platform,
    home,
    guard,
    homesRoot,
    ...(bwrap ? { bwrap } : {}),
    ...(perl ? { perl } : {}),
    node: over.node ?? process.execPath,
  };
}
