import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuilt, runCli, withoutBus } from '../../test-support/cli-process.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * `airlock status` with no server running says which vault a start would use. It said "OS
 * keychain" under AIRLOCK_VAULT=file (the README's headless setup) until the data directory
 * already held a vault.enc, while `serve` in that same shell used the file vault.
 */
const fresh = () => tempDir('airlock-status-stopped-');

async function vaultOf(args: string[], extra: NodeJS.ProcessEnv) {
  requireBuilt();
  const env = withoutBus({ ...process.env, HOME: fresh(), ...extra });
  for (const k of ['AIRLOCK_VAULT', 'AIRLOCK_VAULT_PASSPHRASE', 'AIRLOCK_DATA_DIR'])
    if (!(k in extra)) delete env[k];
  const r = await runCli(['status', '--json', '--data-dir', fresh(), ...args], env);
  expect(r.code).toBe(1); // not running
  return (JSON.parse(r.stdout) as { running: boolean; vault: { kind: string; why: string } }).vault;
}

describe('status of a stopped server names the vault a start would use', () => {
  it('AIRLOCK_VAULT=file and --vault file: the file vault, and why', async () => {
    const byEnv = await vaultOf([], {
      AIRLOCK_VAULT: 'file',
      AIRLOCK_VAULT_PASSPHRASE: 'a long enough passphrase',
    });
    expect(byEnv.kind).toBe('file');
    expect(byEnv.why).toBe('chosen with --vault file (or AIRLOCK_VAULT=file)');
    const byFlag = await vaultOf(['--vault', 'file'], {});
    expect(byFlag.kind).toBe('file');
  });

  it('--vault keychain: the keychain, chosen; nothing set: the default', async () => {
    expect(await vaultOf(['--vault', 'keychain'], {})).toEqual({
      kind: 'keychain',
      why: 'chosen with --vault keychain',
    });
    expect((await vaultOf([], {})).why).toMatch(/^the default;/);
  });

  it('a data directory that does not exist: not running, and nothing is made', async () => {
    requireBuilt();
    const dir = join(fresh(), 'not', 'yet');
    const env = withoutBus({ ...process.env, HOME: fresh() });
    delete env.AIRLOCK_DATA_DIR;
    const r = await runCli(['status', '--data-dir', dir], env);
    expect(r.stdout).toContain(`Airlock is not running for ${dir}.`);
    expect(r.code).toBe(1);
    expect(existsSync(join(dir, '..'))).toBe(false);
  });
});
