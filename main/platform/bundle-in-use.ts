import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Which files of the CLI bundle (dist/main/bundle/, scripts/build-cli.mjs) a running `airlock
 * serve` may still import. The bundle's lazy chunks (the /mcp endpoint at the first agent
 * request, Google's tools at first use) carry hashed names, and a running process imports them
 * by its own build's names: a rebuild with changed sources (`git pull && npm run build` while it
 * runs) must leave them. The build keeps the chunks of the build before it (GENERATION); a serve
 * kept up across two or more rebuilds lost its build's chunks to the second (docs/architecture.md,
 * "Build"). So a serve started from the bundle records the file list of the build it was loaded
 * from in `.in-use-<pid>.json` beside the chunks, and each build keeps the files of every list
 * whose process still runs, and removes the lists of processes that are gone.
 */

/** The last build's file names (written by scripts/build-cli.mjs). */
export const GENERATION = '.previous-build.json';
const IN_USE = /^\.in-use-(\d+)\.json(\.tmp)?$/;

/**
 * Records the bundle files this process may import, if it runs from the bundle (`moduleUrl`: the
 * caller's `import.meta.url`, a chunk in dist/main/bundle/; tsc's per-file output has no build
 * list beside it and records nothing). Best effort: a bundle folder this user cannot write (an
 * install owned by root) records nothing, as before. Returns the release, for a clean stop.
 *
 * The list read is the one beside the chunks now, a moment after this process loaded its
 * cli.js: a rebuild that ends in that moment (about the time to ready) records the newer list,
 * whose build kept this one's files once, as before this record existed.
 */
export function holdBundleFiles(moduleUrl: string): () => void {
  let dir: string;
  try {
    dir = dirname(fileURLToPath(moduleUrl));
    if (basename(dir) !== 'bundle') return () => {};
    const files = JSON.parse(readFileSync(join(dir, GENERATION), 'utf8')) as unknown;
    if (!Array.isArray(files)) return () => {};
    const list = join(dir, `.in-use-${process.pid}.json`);
    const partial = `${list}.tmp`;
    writeFileSync(partial, JSON.stringify(files), { mode: 0o600 });
    renameSync(partial, list);
    return () => rmSync(list, { force: true });
  } catch {
    return () => {};
  }
}

/**
 * The files that processes still running hold (their lists, read by the build), and removes the
 * lists of processes that are gone. A list that cannot be read holds nothing.
 */
export function filesInUse(dir: string, running: (pid: number) => boolean): Set<string> {
  const held = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return held;
  }
  for (const name of names) {
    const m = IN_USE.exec(name);
    if (!m) continue;
    const path = join(dir, name);
    if (!running(Number(m[1]))) {
      rmSync(path, { force: true });
      continue;
    }
    if (m[2]) continue; // its process is writing it (it arrives by rename)
    try {
      const files = JSON.parse(readFileSync(path, 'utf8')) as unknown;
      if (Array.isArray(files)) for (const f of files) if (typeof f === 'string') held.add(f);
    } catch {
      // Being written this moment (it arrives by rename, so only a foreign file): holds nothing.
    }
  }
  return held;
}

/** A bundle folder's own bookkeeping files, which are not a build's files. */
export function isBookkeeping(name: string): boolean {
  return name.startsWith(GENERATION) || name.startsWith('.in-use-');
}
