import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuilt, runCli, withoutBus } from '../../test-support/cli-process.js';
import { tempDir } from '../../test-support/temp-dir.js';

/** `airlock vault migrate` (issue 19, item 2) between a real keychain and the file vault. */
const real = process.env.AIRLOCK_KEYRING_TEST === '1';

describe.skipIf(!real)('airlock vault migrate', () => {
  it('keychain → file → keychain keeps every secret; the file vault is found without a bus', async () => {
    requireBuilt();
    const dataDir = tempDir('airlock-migrate-');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: tempDir('airlock-migrate-home-'),
      AIRLOCK_VAULT_PASSPHRASE: 'a test passphrase',
    };
    const cli = (args: string[], e = env) => runCli([...args, '--data-dir', dataDir], e);
    expect((await cli(['agent', 'add', 'a', '--vault', 'keychain'])).code).toBe(0);

    const toFile = await cli(['vault', 'migrate', '--to', 'file']);
    expect(toFile.stderr).toBe('');
    expect(toFile.stdout).toMatch(/^Moved 2 secrets to the file vault/); // control token + agent
    expect(existsSync(join(dataDir, 'vault.enc'))).toBe(true);
    const again = await cli(['vault', 'migrate', '--to', 'file']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already uses the file vault');

    const noBus = await cli(['agent', 'list', '--json'], withoutBus(env));
    expect(JSON.parse(noBus.stdout)).toMatchObject([{ name: 'a', hasToken: true }]);

    const toKeychain = await cli(['vault', 'migrate', '--to', 'keychain']);
    expect(toKeychain.stdout).toMatch(/^Moved 2 secrets to the OS keychain/);
    expect(existsSync(join(dataDir, 'vault.enc'))).toBe(false);
    const back = await cli(['agent', 'list', '--json']);
    expect(JSON.parse(back.stdout)).toMatchObject([{ name: 'a', hasToken: true }]);
  }, 60_000);
});
