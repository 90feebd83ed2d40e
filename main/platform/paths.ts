import {
  accessSync,
  chmodSync,
  constants,
  lstatSync,
  readdirSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeDirs } from './make-dirs.js';

/** Per-OS application-data folder, the same place Electron's app.getPath('userData') uses. */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Airlock');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Airlock');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'airlock');
}

/**
 * `--data-dir` beats `AIRLOCK_DATA_DIR` beats the per-OS default. Created
 * 0700 if missing; an existing one is tightened (see tightenDataDir), and refused if it or one
 * of Airlock's entries in it belongs to another user.
 */
export function resolveDataDir(
  flag?: string,
  env: NodeJS.ProcessEnv = process.env,
  uid: number | undefined = process.getuid?.(),
): string {
  const chosen = flag ?? env.AIRLOCK_DATA_DIR ?? defaultDataDir(process.platform, env);
  const dir = resolve(chosen);
  try {
    makeDirs(dir, 0o700);
    const real = realpathSync(dir);
    // Another user's folder first, in its own words (ForeignDataDirError), before any chmod.
    tightenDataDir(real, process.platform, uid);
    // A read-only mount is said here: later it was a raw "EROFS … chmod", or worse "ENOENT …
    // mkdir logs" (Node's recursive mkdir reports EROFS as ENOENT).
    accessSync(real, constants.W_OK);
    return real;
  } catch (err) {
    if (err instanceof ForeignDataDirError) throw err;
    throw new Error(dataDirProblem(dir, err as NodeJS.ErrnoException), { cause: err });
  }
}

/**
 * The data directory a query reads (`airlock status`): chosen as resolveDataDir chooses it, but
 * nothing is made, tightened or required to be writable. A status query creates nothing (it made
 * the folder, and asked for a writable one, so a read-only copy could not even say "not running");
 * a folder that does not exist has no server running in it. A file in the way is still said.
 */
export function existingDataDir(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = resolve(flag ?? env.AIRLOCK_DATA_DIR ?? defaultDataDir(process.platform, env));
  try {
    const st = statSync(dir, { throwIfNoEntry: false });
    if (!st) return dir;
    if (!st.isDirectory())
      throw Object.assign(new Error(`ENOTDIR: not a directory, '${dir}'`), { code: 'ENOTDIR' });
    return realpathSync(dir);
  } catch (err) {
    throw new Error(dataDirProblem(dir, err as NodeJS.ErrnoException), { cause: err });
  }
}

/** Why `dir` cannot be the data directory, in words, with the way out (a raw "ENOTDIR … mkdir" was all a user got). */
function dataDirProblem(dir: string, err: NodeJS.ErrnoException): string {
  const isFile = statSync(dir, { throwIfNoEntry: false })?.isFile() === true;
  const why = isFile
    ? 'it is a file, not a folder'
    : err.code === 'ENOTDIR'
      ? 'a part of that path is a file, not a folder'
      : err.code === 'EACCES' || err.code === 'EPERM'
        ? 'permission denied'
        : err.code === 'EROFS'
          ? 'the file system is read-only'
          : err.code === 'ENOENT'
            ? 'its parent cannot hold folders (a link that leads nowhere, or a system folder such as /proc)'
            : (err.message ?? String(err));
  return `Cannot use ${dir} as the data directory: ${why}${err.code ? ` (${err.code})` : ''}. Choose another with --data-dir DIR (or AIRLOCK_DATA_DIR).`;
}

/** The files and folders Airlock itself writes in the data directory. */
// vault.enc (the file vault, file-vault.ts) is sealed, but its size and times still say what it
// holds; run/ holds the control socket (control-socket.ts). Both are made owner-only; an older
// copy or a restore may not be.
const OURS_FILE =
  /^(settings\.json|server\.json|vault\.enc|airlock\.(db|lock)(-wal|-shm|-journal)?|.+\.tmp)$/;
const OURS_DIR = new Set(['logs', 'chromium', 'run']);

/**
 * Owner-only permissions on the data directory and what Airlock keeps in it
 * (issue 17, item 5): the database holds approval arguments and results in
 * clear, and a data directory made by an older version may be world-readable.
 * Directories become 0700, files 0600. Only Airlock's own entries are
 * touched (`--data-dir` could name a folder holding other things), and
 * symbolic links are left alone (chmod would follow them out). Windows has no
 * POSIX modes: there the per-user profile folder's ACL protects the data.
 */
export function tightenDataDir(
  dir: string,
  platform: NodeJS.Platform = process.platform,
  uid: number | undefined = process.getuid?.(),
): void {
  if (platform === 'win32') return;
  const tighten = (path: string, dirMode: boolean) => {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) return;
    // Another user's folder or file here could be changed by them between Airlock's runs (a
    // settings.json naming their server, a link where a log is written): refused, as OpenSSH
    // refuses a ~/.ssh it does not own, before anything is read or chmod fails with EPERM. Root
    // too: a folder owned by a user is theirs to plant links in where root would write.
    if (uid !== undefined && st.uid !== uid) throw new ForeignDataDirError(path, st.uid, uid);
    if (dirMode && st.isDirectory() && (st.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
    if (!dirMode && st.isFile() && (st.mode & 0o077) !== 0) chmodSync(path, st.mode & 0o700);
  };
  tighten(dir, true);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (OURS_FILE.test(name)) tighten(path, false);
    else if (OURS_DIR.has(name)) {
      tighten(path, true);
      if (name === 'logs' && lstatSync(path).isDirectory())
        for (const log of readdirSync(path)) tighten(join(path, log), false);
    }
  }
}

/** The data directory, or one of Airlock's own entries in it, belongs to another user. */
export class ForeignDataDirError extends Error {
  constructor(
    readonly path: string,
    readonly owner: number,
    readonly uid: number,
  ) {
    super(
      `${path} belongs to another user (uid ${owner}; Airlock runs as uid ${uid}). Airlock keeps its ` +
        'settings, approvals and activity there and does not use what another user can change: ' +
        'choose another folder with --data-dir (or AIRLOCK_DATA_DIR), or give this one to your user ' +
        '(chown) after checking what is in it.',
    );
    this.name = 'ForeignDataDirError';
  }
}

export interface DataPaths {
  dir: string;
  settings: string;
  database: string;
  serverInfo: string;
  lock: string;
  logs: string;
}

export function dataPaths(dir: string): DataPaths {
  return {
    dir,
    settings: join(dir, 'settings.json'),
    database: join(dir, 'airlock.db'),
    serverInfo: join(dir, 'server.json'),
    lock: join(dir, 'airlock.lock'),
    logs: join(dir, 'logs'),
  };
}
