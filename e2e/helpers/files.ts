import { existsSync, readdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Lines the test source appended to its counter file (one per real execution step). */
export function counterLines(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** How many times `tool` really ran, optionally only runs whose line contains `marker`. */
export function runs(file: string, prefix: string, marker = ''): number {
  return counterLines(file).filter((l) => l.startsWith(`${prefix} `) && l.includes(marker)).length;
}

/**
 * Resolves when the counter file has a line matching `test`: watches the
 * directory (the file may not exist yet) instead of sleeping.
 */
export function waitForLine(
  file: string,
  test: (line: string) => boolean,
  timeoutMs = 15_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => counterLines(file).find(test);
    const found = check();
    if (found) return resolve(found);
    const watcher = watch(dirname(file), (_event, name) => {
      if (name && name !== basename(file)) return;
      const line = check();
      if (line) finish(() => resolve(line));
    });
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new Error(
              `no matching line in ${file} within ${timeoutMs} ms:\n${counterLines(file).join('\n')}`,
            ),
          ),
        ),
      timeoutMs,
    );
    const finish = (fn: () => void) => {
      clearTimeout(timer);
      watcher.close();
      fn();
    };
    // A write between the first check and the watch starting would be missed: check once more.
    const late = check();
    if (late) finish(() => resolve(late));
  });
}

export function touch(file: string): void {
  writeFileSync(file, '');
}

/** Every file under `dir` whose bytes contain `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      // Regular files only: a running server's control socket (run/control.sock) cannot be read.
      else if (st.isFile() && readFileSync(p).includes(needle)) hits.push(p);
    }
  };
  walk(dir);
  return hits;
}
