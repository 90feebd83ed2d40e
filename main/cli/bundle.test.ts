import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import {
  airlockBin,
  repoRoot,
  requireBuilt,
  runCli,
  startUntilReady,
  stop,
} from '../../test-support/cli-process.js';
import { tempDir } from '../../test-support/temp-dir.js';
import { validatorUrlFor } from '../tools/schema-worker-pool.js';

/**
 * Issue 34 (cold start): bin/airlock.js runs the CLI bundle, dist/main/bundle/ (scripts/build-cli.mjs),
 * not tsc's one-file-per-module dist/main/. Users run the bundle, so it is what this drives: a
 * file it needs at run time and did not take along, or a look-up relative to its own file that
 * lands elsewhere from dist/main/bundle/, fails here. The same profile served by tsc's per-file
 * build must list the same tools. Builds nothing itself (npm test builds first).
 */
/** tempDir removes its folders after this file's tests. */
const tmp = (name: string): string => tempDir(`airlock-bundle-${name}-`);

const bundleDir = join(repoRoot, 'dist', 'main', 'bundle');
/** Starts `main()` of tsc's per-file dist/main/cli.js, as bin/airlock.js ran it before the bundle. */
const PER_FILE_ENTRY = [
  '--input-type=module',
  '-e',
  `const { main } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist/main/cli.js')).href)});
   const code = await main(process.argv.slice(1)); if (typeof code === 'number') process.exitCode = code;`,
];

function profile(): { env: NodeJS.ProcessEnv; dataDir: string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: tmp('home'),
    AIRLOCK_VAULT: 'file',
    AIRLOCK_VAULT_PASSPHRASE: 'bundle test passphrase',
  };
  delete env.AIRLOCK_DATA_DIR;
  return { env, dataDir: tmp('data') };
}

/** Serves with `entry`, then initializes and lists tools as a stock SDK client; GET / too. */
async function serveAndList(
  entry: string[],
  env: NodeJS.ProcessEnv,
  dataDir: string,
  token: string,
) {
  const { child, ready } = await startUntilReady(
    process.execPath,
    [...entry, 'serve', '--port', '0', '--data-dir', dataDir],
    env,
  );
  try {
    const client = new Client({ name: 'bundle-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(ready.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const server = client.getServerVersion();
    const { tools } = await client.listTools();
    await client.close();
    const page = await fetch(ready.url + '/');
    return { server, tools, page: { status: page.status, body: await page.text() } };
  } finally {
    expect(await stop(child)).toBe(0);
  }
}

describe('the CLI bundle (dist/main/bundle/, what bin/airlock.js runs)', () => {
  it('serves MCP and the approval page, and lists the tools the per-file build lists', async () => {
    requireBuilt();
    const { env, dataDir } = profile();
    const added = await runCli(['agent', 'add', 'b', '--json', '--data-dir', dataDir], env);
    expect(added.stderr).toBe('');
    const { token } = JSON.parse(added.stdout) as { token: string };

    const bundled = await serveAndList([airlockBin], env, dataDir, token);
    expect(bundled.server?.name).toMatch(/airlock/i);
    expect(bundled.tools.length).toBeGreaterThan(0);
    // The approval page: the renderer's index.html, found from the bundle's folder
    // (main/gateway/static-files.ts looks two folders up from its own file).
    expect(bundled.page.status).toBe(200);
    expect(bundled.page.body).toBe(
      readFileSync(join(repoRoot, 'dist', 'renderer', 'index.html'), 'utf8'),
    );

    const perFile = await serveAndList(PER_FILE_ENTRY, env, dataDir, token);
    expect(bundled.server).toEqual(perFile.server);
    expect(bundled.tools).toEqual(perFile.tools);
    expect(bundled.page).toEqual(perFile.page);
  });

  it('--version and --help answer from the bundle', async () => {
    requireBuilt();
    const { env } = profile();
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    const version = await runCli(['--version'], env);
    expect(version).toEqual({ code: 0, stdout: `airlock ${pkg.version}\n`, stderr: '' });
    const help = await runCli(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: airlock <command>/);
    expect(help.stdout).toContain('serve');
  });

  it('every library the Google tools load lazily loads from the bundle’s folder (left to node_modules)', async () => {
    requireBuilt();
    // main/google/lazy.ts's `libs`, found among the bundle's exports by its keys (the names the
    // bundler gives exports are its own); each loaded in a plain Node, as `airlock serve` would.
    const script = `
      const m = await import(${JSON.stringify(pathToFileURL(join(bundleDir, 'cli.js')).href)});
      const libs = Object.values(m).find((v) => v && typeof v === 'object' && 'gmail' in v && 'unpdf' in v);
      const out = {};
      for (const [name, load] of Object.entries(libs)) out[name] = await load().then(() => 'ok', (e) => String(e));
      console.log(JSON.stringify(out));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script],
      {
        cwd: tmp('cwd'),
      },
    );
    const loaded = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(loaded)).toEqual(
      expect.arrayContaining(['gmail', 'calendar', 'mammoth', 'unpdf']),
    );
    expect(Object.values(loaded).filter((v) => v !== 'ok')).toEqual([]);
  });

  it('the schema worker’s validator resolves to a built file from the bundle’s folder', () => {
    requireBuilt();
    // The pool is inlined in one of the bundle's chunks; its worker loads tsc's
    // dist/main/tools/schema-validator.js, named from the folder above (validatorUrlFor).
    const chunk = readdirSync(bundleDir).find((f) => f.endsWith('.js'))!;
    const url = validatorUrlFor(pathToFileURL(join(bundleDir, chunk)).href);
    expect(fileURLToPath(url)).toBe(join(repoRoot, 'dist', 'main', 'tools', 'schema-validator.js'));
    expect(readFileSync(fileURLToPath(url), 'utf8')).toContain('SchemaValidator');
  });
});
