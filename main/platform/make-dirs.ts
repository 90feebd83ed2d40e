import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `mkdir -p` that ends. Node's `mkdirSync(dir, { recursive: true })` reads ENOENT as "the parent
 * is missing", creates the parent (EEXIST: fine) and retries, forever, when the parent exists but
 * cannot hold the child: a path under /proc or /sys answers ENOENT to every mkdir. The process
 * then spins at 100 % CPU with no output (nodejs/node issue 27198 is the Windows relative; the
 * same loop is reported for procfs paths). Here each missing folder is made on its own, parents
 * first, so every error is the kernel's answer for that one folder.
 */
export function makeDirs(dir: string, mode: number): void {
  const missing: string[] = [];
  for (let d = dir; !statSync(d, { throwIfNoEntry: false }); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) {
    try {
      mkdirSync(d, { mode });
    } catch (err) {
      // Someone else made it meanwhile: what we wanted.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(d).isDirectory()) throw err;
    }
  }
  if (!statSync(dir).isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR' });
  }
}
