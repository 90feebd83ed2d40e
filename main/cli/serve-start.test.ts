import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  airlockBin,
  requireBuilt,
  runCli,
  startUntilReady,
  stop,
  withoutBus,
} from '../../test-support/cli-process.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 34 (cold start): `airlock serve` does not load cli/context.ts (the other commands' way to
 * a profile, with the control clients and readline); main/cli.ts loads it for --vault and
 * serve.ts for the "port in use" message. Both still work, seen as a user sees them.
 */
const PROBE = fileURLToPath(new URL('./serve-modules.probe.mjs', import.meta.url));
const bundle = fileURLToPath(new URL('../../dist/main/bundle/', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tmp(name: string): string {
  const dir = tempDir(`airlock-serve-start-${name}-`);
  dirs.push(dir);
  return dir;
}
const fileVaultEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  HOME: tmp('home'),
  AIRLOCK_VAULT: 'file',
  AIRLOCK_VAULT_PASSPHRASE: 'serve start test passphrase',
});

describe('airlock serve without the other commands’ modules', () => {
  it('is ready without having loaded cli/context.js or node:readline', async () => {
    requireBuilt();
    const out = join(tmp('probe'), 'modules.txt');
    const { child } = await startUntilReady(
      process.execPath,
      [PROBE, 'serve', '--port', '0', '--data-dir', tmp('data')],
      { ...fileVaultEnv(), AIRLOCK_PROBE_OUT: out },
    );
    await stop(child);
    const modules = readFileSync(out, 'utf8').split('\n');
    // bin/airlock.js runs the bundle (scripts/build-cli.mjs), and nothing of tsc's per-file
    // dist/main/ beside it: a module the bundle left out would show here.
    expect(modules).toContain(pathToFileURL(join(bundle, 'cli.js')).href);
    expect(
      modules.filter((m) => m.includes('/dist/main/') && !m.includes('/dist/main/bundle/')),
    ).toEqual([]);
    // cli/context.ts and the /mcp endpoint (with the MCP SDK, lazy-mcp.ts) are chunks of their
    // own, imported only dynamically, and not loaded: the bundle keeps the lazy loading. Named
    // from cli.js's dynamic imports: the folder also keeps the previous build's chunks
    // (scripts/build-cli.mjs, for an `airlock serve` still running that build).
    const cli = readFileSync(join(bundle, 'cli.js'), 'utf8');
    const lazy = [
      ...new Set(
        [...cli.matchAll(/\bimport\("\.\/((?:context|mcp-endpoint)-[\w-]+\.js)"\)/g)].map(
          (m) => m[1],
        ),
      ),
    ];
    expect(lazy).toHaveLength(2);
    expect(
      modules.filter(
        (m) => lazy.some((f) => m.endsWith(`/dist/main/bundle/${f}`)) || /^node:readline/.test(m),
      ),
    ).toEqual([]);
  });

  it('--vault still reaches the other commands: --vault keychain without a keychain fails', async () => {
    requireBuilt();
    const env = withoutBus(fileVaultEnv());
    delete env.AIRLOCK_VAULT;
    const dataDir = tmp('data');
    // Without the flag, auto falls back to the file vault (AIRLOCK_VAULT_PASSPHRASE).
    expect((await runCli(['agent', 'add', 'a', '--data-dir', dataDir], env)).code).toBe(0);
    const forced = await runCli(
      ['agent', 'add', 'b', '--vault', 'keychain', '--data-dir', tmp('data')],
      env,
    );
    expect(forced.code).toBe(1);
    expect(forced.stderr).toMatch(/KEYCHAIN_UNAVAILABLE/);
  });

  it('port in use by another Airlock: names it (pid and data dir)', async () => {
    requireBuilt();
    const first = tmp('first');
    const env = { ...fileVaultEnv(), AIRLOCK_DATA_DIR: first };
    const { child, ready } = await startUntilReady(
      process.execPath,
      [airlockBin, 'serve', '--port', '0'],
      env,
    );
    try {
      const second = await runCli(
        ['serve', '--port', String(ready.port), '--data-dir', tmp('second')],
        env,
      );
      expect(second.code).toBe(3);
      expect(second.stderr).toContain(
        `Another Airlock (pid ${ready.pid}, data dir ${first}) is listening there.`,
      );
    } finally {
      await stop(child);
    }
  });
});

describe('airlock serve stopped as soon as it says it is ready', () => {
  // scripts/start.mjs and any supervisor may signal the moment they read the ready line: the
  // stop handlers must already be there, or the signal kills the process with no clean stop
  // (exit by signal, in-flight work and the last activity rows lost).
  it('a SIGTERM sent on reading the ready line stops it cleanly, exit 0', async () => {
    requireBuilt();
    const { child, stderr } = await startUntilReady(
      process.execPath,
      [airlockBin, 'serve', '--port', '0', '--data-dir', tmp('data')],
      fileVaultEnv(),
    );
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (code, signal) => resolve([code, signal])),
    );
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr()).toContain('stopping');
  });
});
