import { cpSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './cli-process.js';
import { tempDir } from './temp-dir.js';

/** scripts/build-cli.mjs, which bundles the checkout named as its argument. */
export const BUILD_CLI = join(repoRoot, 'scripts', 'build-cli.mjs');

/**
 * A copy of tsc's output (dist/main without its bundle, dist/common), package.json and a link to
 * node_modules: a checkout scripts/build-cli.mjs can bundle, so a test builds its own bundle and
 * leaves the repository's dist/ as it is for the tests running beside it.
 */
export function bundleCheckout(prefix: string): string {
  const dir = join(tempDir(prefix), 'checkout');
  cpSync(join(repoRoot, 'dist', 'main'), join(dir, 'dist', 'main'), {
    recursive: true,
    filter: (src) => !src.startsWith(join(repoRoot, 'dist', 'main', 'bundle')),
  });
  cpSync(join(repoRoot, 'dist', 'common'), join(dir, 'dist', 'common'), { recursive: true });
  cpSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'junction');
  return dir;
}
