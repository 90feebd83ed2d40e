import { closeSync, fsyncSync, openSync, renameSync, writeSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/** Write-then-rename so a crash never leaves a half-written file behind. */
export function writeFileAtomic(path: string, data: string, mode = 0o600): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, 'w', mode);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
