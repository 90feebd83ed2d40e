import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve(import.meta.dirname, '..');
export const AIRLOCK_BIN = join(ROOT, 'bin', 'airlock.js');

/** Compiles dist/ from the current sources and bundles the CLI (bin/airlock.js runs the bundle). */
export async function buildDist(): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.json')], {
    cwd: ROOT,
    timeout: 120_000,
  }).catch((err: { stdout?: string }) => {
    process.stdout.write(
      `tsc reported errors (the build is still emitted):\n${err.stdout ?? ''}\n`,
    );
  });
  if (!existsSync(join(ROOT, 'dist', 'main', 'cli.js')))
    throw new Error('dist/main/cli.js was not built');
  // bin/airlock.js runs the CLI bundle made from that output (npm run build:main does the same).
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], {
    cwd: ROOT,
    timeout: 120_000,
  });
  if (!existsSync(join(ROOT, 'dist', 'main', 'bundle', 'cli.js')))
    throw new Error('dist/main/bundle/cli.js was not built');
}
