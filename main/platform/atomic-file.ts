import {
  closeSync,
  constants,
  copyFileSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** Write-then-rename so a crash never leaves a half-written file behind. */
export function writeFileAtomic(path: string, data: string, mode = 0o600): void {
  const tmp = writeTempFile(path, data, mode);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  } finally {
    releaseTemp(tmp);
  }
  removeStaleTemps(path);
}

/** Temp files this process is writing now (writeTempFile until releaseTemp). */
const inFlight = new Set<string>();

/** Ends writeTempFile's claim on `tmp`, once it was renamed into place or removed. */
export function releaseTemp(tmp: string): void {
  inFlight.delete(tmp);
}

/**
 * Removes the temp files a crashed writer left next to `path` (writeTempFile's names, whose
 * process is gone). Each is a whole copy of the file as it was about to be: for the file vault,
 * every secret it held then — a token removed since (`remote remove`, a sign-out) stayed on disk
 * in it, readable with the vault's key, for good. A temp of a process still running (another
 * Airlock writing now) is left alone. Best effort: a file that cannot be removed stays.
 */
export function removeStaleTemps(path: string, alive: (pid: number) => boolean = pidAlive): void {
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    const tmp = join(dirname(path), name);
    // This process's own: stale unless it is being written now. A container restarted after a
    // crash often has the same process id as the run that left it.
    const pid = Number(m?.[1]);
    if (!m || inFlight.has(tmp) || (pid !== process.pid && alive(pid))) continue;
    // The write itself is done: a leftover that cannot go (EACCES, EBUSY, a directory of that
    // name) must not turn it into an error for the caller.
    try {
      rmSync(tmp, { force: true });
    } catch {
      // stays; the next write tries again
    }
  }
}

/** Whether a process with this id exists (signal 0 checks without sending; EPERM: it exists). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The first half of writeFileAtomic, for callers that check the new file before it replaces the
 * old one (the file vault): written and fsynced next to `path`, with `mode` from creation on.
 * Returns its name; the caller renames it into place or removes it.
 */
export function writeTempFile(path: string, data: string, mode = 0o600): string {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, 'wx', mode);
    inFlight.add(tmp);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return tmp;
  } catch (err) {
    rmSync(tmp, { force: true });
    releaseTemp(tmp);
    throw err;
  }
}

/** Errors by which a file system says it has no hard links (FAT, exFAT, some network mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Creates `path` with `data` all at once or not at all, and never replaces a `path` that exists
 * (a key file another process made meanwhile): written and fsynced under a temp name, published
 * with a hard link (link(2) fails with EEXIST when the target exists, atomically), the temp name
 * removed, the folder fsynced. A crash leaves no `path` or the whole of it, never a short one.
 * Where the file system has no hard links, an exclusive copy (COPYFILE_EXCL: O_EXCL, so never
 * over a file another process made), then fsynced: a crash in the middle of those few bytes can
 * leave a short file, but never before anything was written under it (the caller writes nothing
 * until this returns), and the file vault then says to delete it. A check-then-rename instead
 * could replace another process's key file after that process had written its vault under it.
 * Returns false when `path` already existed (and was left as it was).
 */
export function createFileAtomic(
  path: string,
  data: string,
  mode = 0o600,
  hooks: {
    link?: typeof linkSync;
    copy?: typeof copyFileSync;
    beforePublish?: (tmp: string) => void;
  } = {},
): boolean {
  const tmp = writeTempFile(path, data, mode);
  let created = true;
  try {
    hooks.beforePublish?.(tmp);
    try {
      (hooks.link ?? linkSync)(tmp, path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') created = false;
      else if (!NO_HARD_LINKS.has(code)) throw err;
      else created = copyExclusive(tmp, path, hooks.copy ?? copyFileSync);
    }
  } finally {
    rmSync(tmp, { force: true });
    releaseTemp(tmp);
  }
  syncDir(path);
  return created;
}

/** Copies `from` to a new `to` and fsyncs it; false when `to` exists (left as it was). */
function copyExclusive(from: string, to: string, copy: typeof copyFileSync): boolean {
  try {
    copy(from, to, constants.COPYFILE_EXCL);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  const fd = openSync(to, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** fsync of the folder, so a rename in it survives a power cut (POSIX; a no-op where unsupported). */
export function syncDir(path: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename itself is still atomic.
  }
}
