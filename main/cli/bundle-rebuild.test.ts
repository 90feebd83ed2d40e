import { execFile } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  initializeStatus,
  requireBuilt,
  startUntilReady,
  stop,
} from '../../test-support/cli-process.js';
import { BUILD_CLI, bundleCheckout } from '../../test-support/bundle-checkout.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * A rebuild under a running `airlock serve` (`git pull && npm run build` while it runs in the
 * background). The bundle's lazy chunks (the /mcp endpoint, loaded with the first agent request)
 * have hashed names, and the running process imports them by its own build's names from the
 * folder its cli.js came from: scripts/build-cli.mjs keeps the previous build's chunks there.
 * Swapping the whole folder for the new build made every /mcp request of that process answer 500
 * ("Cannot find module …/mcp-endpoint-<old hash>.js") until it was restarted.
 *
 * Works on a copy of tsc's output (dist/main, dist/common), so the repository's dist/ is left as
 * it is for the tests running beside this one.
 */
const bundleCli = async (dir: string): Promise<void> => {
  await promisify(execFile)(process.execPath, [BUILD_CLI, dir], { cwd: dir, timeout: 120_000 });
};

/** `main()` of the copy's bundle, as bin/airlock.js runs it. */
const entry = (dir: string): string[] => [
  '--input-type=module',
  '-e',
  `const { main } = await import(${JSON.stringify(pathToFileURL(join(dir, 'dist/main/bundle/cli.js')).href)});
   const code = await main(process.argv.slice(1)); if (typeof code === 'number') process.exitCode = code;`,
];

function mcpChunk(dir: string): string {
  const cli = readFileSync(join(dir, 'dist/main/bundle/cli.js'), 'utf8');
  const name = /\bimport\("\.\/(mcp-endpoint-[\w-]+\.js)"\)/.exec(cli)?.[1];
  if (!name) throw new Error('the bundle has no /mcp endpoint chunk');
  return name;
}

function serveEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: tempDir('airlock-bundle-rebuild-home-'),
    AIRLOCK_VAULT: 'file',
    AIRLOCK_VAULT_PASSPHRASE: 'bundle rebuild test passphrase',
  };
  delete env.AIRLOCK_DATA_DIR;
  return env;
}

async function agentToken(dir: string, env: NodeJS.ProcessEnv, dataDir: string): Promise<string> {
  const added = await promisify(execFile)(
    process.execPath,
    [...entry(dir), 'agent', 'add', 'a', '--json', '--data-dir', dataDir],
    { env },
  );
  return (JSON.parse(added.stdout) as { token: string }).token;
}

/** A built copy with an agent, and `airlock serve` running from its bundle. */
async function servingCheckout() {
  requireBuilt();
  const dir = bundleCheckout('airlock-bundle-rebuild-');
  await bundleCli(dir);
  const env = serveEnv();
  const dataDir = tempDir('airlock-bundle-rebuild-data-');
  const token = await agentToken(dir, env, dataDir);
  const { child, ready } = await startUntilReady(
    process.execPath,
    [...entry(dir), 'serve', '--port', '0', '--data-dir', dataDir],
    env,
  );
  return { dir, token, child, ready };
}

/** A later version of a module in the /mcp chunk (session-route.ts), so its next build is named anew. */
function changeSources(dir: string, n: number): void {
  appendFileSync(
    join(dir, 'dist/main/gateway/session-route.js'),
    `\nglobalThis.airlockRebuildTest${n} = ${n};\n`,
  );
}

describe('rebuilding the CLI bundle under a running airlock serve', () => {
  it('a build stopped midway leaves no folder behind for the next build or the package', async () => {
    requireBuilt();
    const dir = bundleCheckout('airlock-bundle-rebuild-');
    // What Ctrl+C during a build leaves (its `finally` never runs); no process has this id.
    const stopped = join(dir, 'dist/main/.bundle-new-2147483646');
    mkdirSync(stopped);
    writeFileSync(join(stopped, 'cli.js'), '');
    await bundleCli(dir);
    expect(existsSync(stopped)).toBe(false);
    expect(readdirSync(join(dir, 'dist/main')).filter((f) => f.startsWith('.bundle'))).toEqual([]);
    expect(existsSync(join(dir, 'dist/main/bundle/cli.js'))).toBe(true);
  }, 240_000);

  it('the running serve still answers its first MCP request after a rebuild with changed sources', async () => {
    const { dir, token, child, ready } = await servingCheckout();
    try {
      const before = mcpChunk(dir);
      changeSources(dir, 0);
      await bundleCli(dir);
      // The new build names that chunk differently, so the case is the one above.
      expect(mcpChunk(dir)).not.toBe(before);
      expect(await initializeStatus(ready.mcpUrl, token)).toBe(200);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  }, 240_000);

  it('and after two rebuilds: the build before the last is gone, the running serve’s chunks stay', async () => {
    const { dir, token, child, ready } = await servingCheckout();
    const bundleDir = join(dir, 'dist/main/bundle');
    try {
      const first = mcpChunk(dir);
      // The serve's record of its build (bundle-in-use.ts), written once it is ready.
      expect(readdirSync(bundleDir)).toContain(`.in-use-${child.pid}.json`);
      for (const n of [1, 2]) {
        changeSources(dir, n);
        await bundleCli(dir);
      }
      // Three builds, three names: the first is no longer the build before the last one.
      expect(new Set([first, mcpChunk(dir)]).size).toBe(2);
      expect(existsSync(join(bundleDir, first))).toBe(true);
      expect(await initializeStatus(ready.mcpUrl, token)).toBe(200);
    } finally {
      expect(await stop(child)).toBe(0);
    }
    // A clean stop takes its record away, and the next build lets its chunks go.
    expect(readdirSync(bundleDir)).not.toContain(`.in-use-${child.pid}.json`);
    const last = mcpChunk(dir);
    changeSources(dir, 3);
    await bundleCli(dir);
    const files = readdirSync(bundleDir);
    expect(files).toContain(last);
    expect(files.filter((f) => /^mcp-endpoint-[\w-]+\.js$/.test(f))).toHaveLength(2);
  }, 300_000);
});
