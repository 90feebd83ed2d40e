import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * Node's on-disk compile cache for Airlock's own processes (issue 34, cold start). Node keeps V8's
 * code cache of every module it compiles in a directory and reuses it on the next start, so a
 * start after the first skips most of parsing and compiling (Node docs, "Module compile cache",
 * module.enableCompileCache, Node ≥ 22.1). The cache is a speed-up only: any failure here leaves
 * the start exactly as it was without it, and never throws.
 *
 * Where: a per-user cache folder, `airlock/compile-cache` under $XDG_CACHE_HOME or ~/.cache
 * (Linux and other POSIX systems), ~/Library/Caches (macOS), %LOCALAPPDATA% (Windows). Node makes
 * one subfolder per Node version and architecture in it. Deleting the folder at any time is
 * safe (the next start rebuilds it); NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's own
 * variable), and NODE_COMPILE_CACHE=DIR (also Node's) moves it.
 */
export function compileCacheDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'airlock', 'compile-cache');
  if (platform === 'win32')
    return join(
      absolute(env.LOCALAPPDATA) ?? join(home, 'AppData', 'Local'),
      'airlock',
      'compile-cache',
    );
  // XDG Base Directory spec: "If an implementation encounters a relative path in any of these
  // variables it should consider the path invalid and ignore it."
  return join(absolute(env.XDG_CACHE_HOME) ?? join(home, '.cache'), 'airlock', 'compile-cache');
}

function absolute(path: string | undefined): string | undefined {
  return path && isAbsolute(path) ? path : undefined;
}

/**
 * Creates the cache folder and its `airlock` parent owner-only (0700), tightens them if Airlock
 * made them looser before, and refuses folders it does not own or that are symbolic links. V8
 * runs a code cache whose source hash matches without re-checking the bytecode, so a cache that
 * another user could write would let them run code in Airlock. Windows has no POSIX modes: there
 * %LOCALAPPDATA%'s per-user ACL protects it. Returns why not, or null when the folder is fit.
 */
export function prepareCompileCacheDir(
  dir: string,
  platform: NodeJS.Platform = process.platform,
  uid: number | undefined = process.getuid?.(),
): string | null {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (platform === 'win32') return null;
    for (const path of [dirname(dir), dir]) {
      // lstat: a symbolic link is not a directory here, so chmod never follows one elsewhere.
      const st = lstatSync(path);
      if (!st.isDirectory()) return `${path} is not a plain folder`;
      if (uid !== undefined && st.uid !== uid) return `${path} belongs to another user`;
      if ((st.mode & 0o077) !== 0) chmodSync(path, 0o700);
    }
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export type CompileCacheResult =
  { status: 'enabled'; directory: string } | { status: 'off'; why: string };

/** What of node:module this needs; absent on a Node older than 22.1 (Electron's Node included). */
export interface CompileCacheApi {
  enableCompileCache?: (dir: string) => { status: number; message?: string; directory?: string };
  flushCompileCache?: () => void;
  constants?: { compileCacheStatus?: Record<string, number> };
}

/**
 * Turns Node's compile cache on for this process, as early as the entry can (only modules
 * compiled afterwards are cached): bin/airlock.js calls it before it imports the CLI.
 */
export function enableCompileCache(
  o: {
    env?: NodeJS.ProcessEnv;
    dir?: string;
    api?: CompileCacheApi;
    platform?: NodeJS.Platform;
    uid?: number;
  } = {},
): CompileCacheResult {
  const env = o.env ?? process.env;
  const api = o.api ?? (module as CompileCacheApi);
  try {
    if (typeof api.enableCompileCache !== 'function')
      return { status: 'off', why: 'this Node has no module.enableCompileCache' };
    // Node's own switches win: NODE_DISABLE_COMPILE_CACHE turns it off (no folder is made), and
    // NODE_COMPILE_CACHE has already turned it on in the user's folder when Node started.
    if (env.NODE_DISABLE_COMPILE_CACHE)
      return { status: 'off', why: 'NODE_DISABLE_COMPILE_CACHE is set' };
    if (env.NODE_COMPILE_CACHE) return { status: 'off', why: 'NODE_COMPILE_CACHE is set' };
    const platform = o.platform ?? process.platform;
    const dir = o.dir ?? compileCacheDir(platform, env);
    const unfit = prepareCompileCacheDir(dir, platform, 'uid' in o ? o.uid : process.getuid?.());
    if (unfit) return { status: 'off', why: unfit };
    const r = api.enableCompileCache(dir);
    const s = api.constants?.compileCacheStatus ?? {};
    if (r.status === s.ENABLED || r.status === s.ALREADY_ENABLED)
      return { status: 'enabled', directory: r.directory ?? dir };
    return { status: 'off', why: r.message ?? `status ${r.status}` };
  } catch (err) {
    return { status: 'off', why: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Writes what has been compiled so far to the cache now rather than at a normal exit: a server
 * closed with its terminal (SIGHUP) or killed never reaches one. Called after the ready line.
 */
export function flushCompileCache(api: CompileCacheApi = module as CompileCacheApi): void {
  try {
    api.flushCompileCache?.();
  } catch {
    // A cache that cannot be written is only a slower next start.
  }
}
