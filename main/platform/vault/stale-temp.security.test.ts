import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { removeStaleTemps, writeFileAtomic } from '../atomic-file.js';
import { FileVault, VAULT_FILE } from './file-vault.js';
import { KDF_BOUNDS } from './vault-format.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * Red-team wave, redteam2 F3. A write of the file vault goes to `vault.enc.<pid>.<hex>.tmp`, then
 * is renamed into place; a process killed between the two (kill -9, a power cut, an OOM kill)
 * leaves that temp file: a whole sealed copy of every secret the vault held then. Nothing ever
 * removed it, so a token deleted since — `airlock remote remove`, a sign-out — stayed on disk,
 * readable with the vault's key, for good. The next write now removes the temps of processes
 * that are gone (and this process's own that it is not writing: a container restarted after a
 * crash has the same pid), and leaves a running writer's alone.
 */
const cleanup = cleanupAfterEach();
const FAST = { N: KDF_BOUNDS.N.min, r: KDF_BOUNDS.r.min, p: KDF_BOUNDS.p.min };
const env = { AIRLOCK_VAULT_PASSPHRASE: 'correct horse battery staple' };
const TOKEN = 'gho_removed_token_0123456789';

/** Opens a copy of `file` as a vault with the same passphrase: what anyone with the key reads. */
async function readsAsVault(file: string): Promise<string | null> {
  const other = tempDir('airlock-stale-open-');
  copyFileSync(file, join(other, VAULT_FILE));
  return new FileVault({ dataDir: other, env, kdf: FAST }).get('remote:gh:bearer');
}

describe('a crashed write of the file vault', () => {
  it('leaves no copy of a secret removed since', async () => {
    const dataDir = tempDir('airlock-stale-');
    const vault = new FileVault({ dataDir, env, kdf: FAST });
    await vault.set('remote:gh:bearer', TOKEN);
    // What kill -9 between writing the temp and renaming it leaves: a process gone, and one
    // with this process's id (a restarted container).
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const leftovers = [
      `${VAULT_FILE}.${gone}.0a1b2c3d.tmp`,
      `${VAULT_FILE}.${process.pid}.4e5f6a7b.tmp`,
    ];
    // A writer still running keeps its temp.
    const running = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    cleanup.push(async () => void running.kill('SIGKILL'));
    const live = `${VAULT_FILE}.${running.pid}.8c9d0e1f.tmp`;
    for (const name of [...leftovers, live])
      copyFileSync(join(dataDir, VAULT_FILE), join(dataDir, name));
    expect(await readsAsVault(join(dataDir, leftovers[0]!))).toBe(TOKEN);

    // `airlock remote remove gh` deletes the token.
    expect(await vault.delete('remote:gh:bearer')).toBe(true);

    const left = readdirSync(dataDir).sort();
    expect(left).toEqual([VAULT_FILE, live].sort());
    expect(await new FileVault({ dataDir, env, kdf: FAST }).get('remote:gh:bearer')).toBeNull();
  });

  it('settings and the other files written whole are tidied the same way', () => {
    const dir = tempDir('airlock-stale-settings-');
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileAtomic(join(dir, 'settings.json'), '{}\n');
    copyFileSync(join(dir, 'settings.json'), join(dir, `settings.json.${gone}.0a1b2c3d.tmp`));
    writeFileAtomic(join(dir, 'settings.json'), '{"a":1}\n');
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it("never takes this process's own temp while it is being written", async () => {
    const dataDir = tempDir('airlock-stale-own-');
    // Another vault object's tidying runs while this one's write is between temp and rename.
    const vault = new FileVault({
      dataDir,
      env,
      kdf: FAST,
      afterWrite: () => removeStaleTemps(join(dataDir, VAULT_FILE)),
    });
    await vault.set('remote:gh:bearer', TOKEN);
    expect(await new FileVault({ dataDir, env, kdf: FAST }).get('remote:gh:bearer')).toBe(TOKEN);
  });
});

describe('a leftover that cannot be removed', () => {
  it('fails no write: the file is written, the leftover stays', () => {
    const dir = tempDir('airlock-stale-stuck-');
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    // A directory under a stale temp's name: rmSync without recursive refuses it (as EACCES would).
    const stuck = `settings.json.${gone}.0a1b2c3d.tmp`;
    mkdirSync(join(dir, stuck));
    writeFileAtomic(join(dir, 'settings.json'), '{"a":1}\n');
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe('{"a":1}\n');
    expect(readdirSync(dir).sort()).toEqual(['settings.json', stuck].sort());
  });
});
