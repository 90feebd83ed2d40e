import { closeSync, fsyncSync, openSync, renameSync, writeSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

/** Write-then-rename so a crash never leaves a half-written file behind. */
export function writeFileAtomic(path: string, data: string, mode = 0o600): void {
  const tmp = writeTempFile(path, data, mode);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
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
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return tmp;
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
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
