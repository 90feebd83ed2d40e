import { createServer } from 'node:net';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileVault } from '../platform/vault/file-vault.js';
import { repoRoot, requireBuilt, runCli, withoutBus } from '../../test-support/cli-process.js';
import { tempDir } from '../../test-support/temp-dir.js';

/** Issue 19, item 4: messages that say what to do, seen as a user sees them (the built CLI). */
const dir = (p: string) => tempDir(p);

/** Runs scripts/preflight.cjs as if on Node `version`. */
function preflight(version: string): { status: number | null; stderr: string } {
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: ${JSON.stringify(version)} } }); require(${JSON.stringify(join(repoRoot, 'scripts', 'preflight.cjs'))});`,
    ],
    { encoding: 'utf8' },
  );
  return { status: r.status, stderr: r.stderr };
}

describe('messages that say what to do', () => {
  it('a too-short passphrase for a new vault: what was not made, and nothing claimed untrue', async () => {
    requireBuilt();
    const data = join(dir('airlock-short-pass-'), 'data');
    const r = await runCli(
      ['serve', '--port', '0', '--data-dir', data],
      withoutBus({
        ...process.env,
        HOME: dir('airlock-short-pass-home-'),
        AIRLOCK_VAULT: 'file',
        AIRLOCK_VAULT_PASSPHRASE: 'short',
      }),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('AIRLOCK_VAULT_PASSPHRASE is too short for a new vault');
    expect(r.stderr).toContain('No vault was made and no secret written.');
    // The start had made the folder, its logs and an empty database: "Nothing was written" was untrue.
    expect(r.stderr).not.toContain('Nothing was written');
    expect(readdirSync(data)).not.toContain('vault.enc');
  });

  it('npm start on a Node older than 22.12 stops at once with the reason and the fix', () => {
    for (const old of ['20.19.0', '22.11.0']) {
      const r = preflight(old);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`Node.js >= 22.12 is required; this is v${old}`);
      expect(r.stderr).toContain('sh scripts/setup.sh');
    }
    expect(preflight('22.12.0')).toEqual({ status: 0, stderr: '' });
    expect(preflight('24.0.0')).toEqual({ status: 0, stderr: '' });
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    expect(pkg.scripts.start).toMatch(/^node scripts\/preflight\.cjs && /);
  });

  it('agent list shows an agent whose token is gone from the vault, and how to fix it', async () => {
    requireBuilt();
    const dataDir = dir('airlock-lost-');
    const env = withoutBus({
      ...process.env,
      HOME: dir('airlock-lost-home-'),
      AIRLOCK_VAULT: 'file',
      AIRLOCK_VAULT_PASSPHRASE: 'a test passphrase',
    });
    expect((await runCli(['agent', 'add', 'kept', '--data-dir', dataDir], env)).code).toBe(0);
    expect((await runCli(['agent', 'add', 'lost', '--data-dir', dataDir], env)).code).toBe(0);
    // What a throwaway keyring's restart does: the token is gone, the agent still in settings.
    expect(
      await new FileVault({
        dataDir,
        env: { AIRLOCK_VAULT_PASSPHRASE: 'a test passphrase' },
      }).delete('agent:lost'),
    ).toBe(true);
    const list = await runCli(['agent', 'list', '--data-dir', dataDir], env);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines.find((l) => l.startsWith('lost'))).toContain('TOKEN MISSING');
    expect(lines.find((l) => l.startsWith('kept'))).not.toContain('TOKEN MISSING');
    expect(list.stderr).toContain('"lost"');
    expect(list.stderr).toContain('airlock agent revoke NAME');
    const json = await runCli(['agent', 'list', '--json', '--data-dir', dataDir], env);
    expect(JSON.parse(json.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'kept', hasToken: true }),
        expect.objectContaining({ name: 'lost', hasToken: false }),
      ]),
    );
  });

  it('a port in use: exit 3 with --port 0 as the way out', async () => {
    requireBuilt();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const env = {
        ...process.env,
        HOME: dir('airlock-port-home-'),
        AIRLOCK_VAULT: 'file',
        AIRLOCK_VAULT_PASSPHRASE: 'a test passphrase',
      };
      const r = await runCli(
        ['serve', '--port', String(port), '--data-dir', dir('airlock-port-')],
        env,
      );
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toContain('--port 0');
      expect(r.stdout).toBe('');
    } finally {
      blocker.close();
    }
  });

  it('--version exits 0; --help works on commands and subcommands, including google and remote', async () => {
    requireBuilt();
    const v = await runCli(['--version'], process.env);
    expect(v).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^airlock \d+\.\d+\.\d+\n$/),
    });
    for (const args of [
      ['help'],
      ['--help'],
      ['help', 'agent'],
      ['agent', 'add', '--help'],
      ['google', '--help'],
      ['connect', 'google', '--help'],
      ['remote', 'add', '--help'],
      ['vault', 'migrate', '-h'],
      ['serve', '--help'],
    ]) {
      const r = await runCli(args, process.env);
      expect({ args, code: r.code }).toEqual({ args, code: 0 });
      expect(r.stdout).toMatch(/^Usage: airlock/);
    }
    const google = await runCli(['google', '--help'], process.env);
    expect(google.stdout).toContain('google client import');
    expect(google.stdout).not.toContain('agent add');
    const bad = await runCli(['help', 'nonsense'], process.env);
    expect(bad.code).toBe(2);
  });
});
