import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A test's temporary folders, each removed with all it holds after the test file's tests: made
 * with mkdtemp and left, they piled up in /tmp (`airlock-add-unreachable-*` and forty more kinds,
 * one or more a run). Removed after all the file's tests, not each test's, since some files share
 * one folder among their tests; what a test started in it is stopped by then (its own afterEach).
 * A folder a test made unremovable (a permission test's) is left with a warning, not a failure.
 */
const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (err) {
      process.stderr.write(`temp-dir: could not remove ${dir}: ${String(err)}\n`);
    }
  }
});

/** A new folder under the system's temporary folder, named `<prefix>XXXXXX`, removed after the file's tests. */
export function tempDir(prefix = 'airlock-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
