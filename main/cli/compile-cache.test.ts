import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  airlockBin,
  initializeStatus,
  requireBuilt,
  runCli,
  startUntilReady,
  stop,
} from '../../test-support/cli-process.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 34 (cold start): bin/airlock.js turns on Node's compile cache in the per-user cache folder
 * (main/platform/compile-cache.ts) before it loads the CLI. The real `airlock serve`, started with
 * a cache that is fresh, filled with garbage, impossible to create, or switched off, starts and
 * serves an agent's initialize every time; the cache only ever changes how fast.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tmp(name: string): string {
  const dir = tempDir(`airlock-cc-${name}-`);
  dirs.push(dir);
  return dir;
}

/** A file-vault profile (no keychain needed) whose only cache setting is `cache`. */
function envWith(cache: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: tmp('home'),
    AIRLOCK_VAULT: 'file',
    AIRLOCK_VAULT_PASSPHRASE: 'compile cache test passphrase',
    ...cache,
  };
  for (const key of ['NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'AIRLOCK_DATA_DIR'])
    if (!(key in cache)) delete env[key];
  return env;
}

/** Starts `airlock serve`, adds an agent and initializes as it, stops; the initialize's status. */
async function startAndServe(env: NodeJS.ProcessEnv): Promise<number> {
  requireBuilt();
  const dataDir = tmp('data');
  const { child, ready } = await startUntilReady(
    process.execPath,
    [airlockBin, 'serve', '--port', '0', '--data-dir', dataDir],
    env,
  );
  try {
    const added = await runCli(['agent', 'add', 'cc', '--json', '--data-dir', dataDir], env);
    expect(added.stderr).toBe('');
    const { token } = JSON.parse(added.stdout) as { token: string };
    return await initializeStatus(ready.mcpUrl, token);
  } finally {
    expect(await stop(child)).toBe(0);
  }
}

const cacheFiles = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(dir, d.name)).map((f) => join(dir, d.name, f)));

/**
 * How much code cache a start that served an initialize leaves, at least: the CLI bundle
 * (scripts/build-cli.mjs) is a few large files, not the ~240 modules tsc writes, so the cache is
 * measured in bytes rather than files. About 1 MB is written; 200 KB is well below that and well
 * above what the compile-cache module and bin/airlock.js alone leave (a few KB).
 */
const STARTED_CODE = 200_000;
const cachedBytes = (files: string[]) => files.reduce((n, f) => n + statSync(f).size, 0);

describe('airlock serve with Node’s compile cache', () => {
  const cacheHome = tmp('xdg');
  const cache = join(cacheHome, 'airlock', 'compile-cache');

  it('a first start makes the cache owner-only and fills it', async () => {
    expect(await startAndServe(envWith({ XDG_CACHE_HOME: cacheHome }))).toBe(200);
    if (process.platform !== 'win32') {
      expect(statSync(join(cacheHome, 'airlock')).mode & 0o777).toBe(0o700);
      expect(statSync(cache).mode & 0o777).toBe(0o700);
    }
    expect(cachedBytes(cacheFiles(cache))).toBeGreaterThan(STARTED_CODE);
  });

  it('a cache filled with garbage: starts, serves, and the cache is written afresh', async () => {
    const files = cacheFiles(cache);
    expect(cachedBytes(files)).toBeGreaterThan(STARTED_CODE);
    for (const file of files) writeFileSync(file, GARBAGE);
    expect(await startAndServe(envWith({ XDG_CACHE_HOME: cacheHome }))).toBe(200);
    const rewritten = cacheFiles(cache).filter((f) => !readFileSync(f).equals(GARBAGE));
    expect(cachedBytes(rewritten)).toBeGreaterThan(STARTED_CODE);
  });

  it('a cache folder that cannot be made (a file where it goes): starts and serves', async () => {
    const file = join(tmp('blocked'), 'not-a-folder');
    writeFileSync(file, 'in the way');
    expect(await startAndServe(envWith({ XDG_CACHE_HOME: file }))).toBe(200);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1: starts and serves, and no cache folder is made', async () => {
    const off = tmp('off');
    expect(
      await startAndServe(envWith({ XDG_CACHE_HOME: off, NODE_DISABLE_COMPILE_CACHE: '1' })),
    ).toBe(200);
    expect(existsSync(join(off, 'airlock'))).toBe(false);
  });
});

/** What the garbage test wrote over every cache file. */
const GARBAGE = Buffer.alloc(300, 0x5a);
