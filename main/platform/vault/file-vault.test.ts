import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultKeyFile, FileVault, VAULT_FILE } from './file-vault.js';
import { SelectedVault } from './select.js';
import { MemoryVault, VaultError } from './vault.js';
import { KDF_BOUNDS } from './vault-format.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/** The cheapest parameters the vault accepts (file-vault-upgrade.test.ts covers the defaults). */
const FAST = { N: KDF_BOUNDS.N.min, r: KDF_BOUNDS.r.min, p: KDF_BOUNDS.p.min };
const dir = () => tempDir('airlock-filevault-');

/** Every file under `root`, recursively. */
function files(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('FileVault (issue 19, item 2)', () => {
  it('stores, reads, overwrites and deletes; a new instance (a restart) reads the same secrets', async () => {
    const dataDir = dir();
    const env = { AIRLOCK_VAULT_PASSPHRASE: 'correct horse battery staple' };
    const a = new FileVault({ dataDir, env, kdf: FAST });
    expect(await a.get('agent:x')).toBeNull();
    await a.set('agent:x', 'alk_first');
    await a.set('agent:x', 'alk_second');
    await a.set('control-token', 'alc_ctrl');
    const b = new FileVault({ dataDir, env, kdf: FAST });
    expect(await b.get('agent:x')).toBe('alk_second');
    expect(await b.get('control-token')).toBe('alc_ctrl');
    expect(await b.delete('agent:x')).toBe(true);
    expect(await b.delete('agent:x')).toBe(false);
    expect(await new FileVault({ dataDir, env, kdf: FAST }).get('agent:x')).toBeNull();
    expect(statSync(join(dataDir, VAULT_FILE)).mode & 0o777).toBe(0o600);
  });

  it('no secret value appears in any file of the data directory (grep by value)', async () => {
    const dataDir = dir();
    const vault = new FileVault({
      dataDir,
      env: { AIRLOCK_VAULT_KEY_FILE: join(dir(), 'k.key') },
      kdf: FAST,
    });
    const secrets = ['alk_' + 'A'.repeat(43), 'super-secret-refresh-token', '{"bearer":"xyz-123"}'];
    for (const [i, s] of secrets.entries()) await vault.set(`k${i}`, s);
    const all = files(dataDir);
    expect(all.length).toBeGreaterThan(0);
    for (const f of all) {
      const text = readFileSync(f).toString('latin1');
      for (const s of secrets) {
        expect(text).not.toContain(s);
        expect(text).not.toContain(Buffer.from(s).toString('base64'));
      }
    }
  });

  it('a fresh random nonce on every write: the same content never encrypts the same', async () => {
    const dataDir = dir();
    const vault = new FileVault({
      dataDir,
      env: { AIRLOCK_VAULT_PASSPHRASE: 'a passphrase of length' },
      kdf: FAST,
    });
    await vault.set('k', 'v');
    const first = JSON.parse(readFileSync(join(dataDir, VAULT_FILE), 'utf8')) as Record<
      string,
      string
    >;
    await vault.set('k', 'v');
    const second = JSON.parse(readFileSync(join(dataDir, VAULT_FILE), 'utf8')) as Record<
      string,
      string
    >;
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.data).not.toBe(first.data);
    expect(second.kdf).toEqual(first.kdf); // one salt per vault file
  });

  it('wrong passphrase → a clear VAULT_LOCKED error, and nothing is overwritten', async () => {
    const dataDir = dir();
    await new FileVault({
      dataDir,
      env: { AIRLOCK_VAULT_PASSPHRASE: 'the right passphrase' },
      kdf: FAST,
    }).set('k', 'v');
    const before = readFileSync(join(dataDir, VAULT_FILE));
    const wrong = new FileVault({
      dataDir,
      env: { AIRLOCK_VAULT_PASSPHRASE: 'the wrong passphrase' },
      kdf: FAST,
    });
    for (const op of [() => wrong.get('k'), () => wrong.set('k', 'evil'), () => wrong.check()]) {
      const err = await op().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VaultError);
      expect(err).toMatchObject({ code: 'VAULT_LOCKED' });
      expect((err as Error).message).toMatch(
        /wrong passphrase or key.*AIRLOCK_VAULT_PASSPHRASE.*Nothing was changed/s,
      );
    }
    expect(readFileSync(join(dataDir, VAULT_FILE)).equals(before)).toBe(true);
    expect(
      await new FileVault({
        dataDir,
        env: { AIRLOCK_VAULT_PASSPHRASE: 'the right passphrase' },
        kdf: FAST,
      }).get('k'),
    ).toBe('v');
  });

  it('a vault made with a key file, opened with a passphrase, says which one it needs', async () => {
    const dataDir = dir();
    const keyFile = join(dir(), 'k.key');
    await new FileVault({ dataDir, env: { AIRLOCK_VAULT_KEY_FILE: keyFile }, kdf: FAST }).set(
      'k',
      'v',
    );
    const err = await new FileVault({
      dataDir,
      env: { AIRLOCK_VAULT_PASSPHRASE: 'another passphrase' },
      kdf: FAST,
    })
      .get('k')
      .catch((e: unknown) => e as Error);
    expect((err as Error).message).toContain('unset AIRLOCK_VAULT_PASSPHRASE');
  });

  it('the header is authenticated (GCM additional data): editing it breaks the vault', async () => {
    const dataDir = dir();
    const env = { AIRLOCK_VAULT_PASSPHRASE: 'a passphrase of length' };
    await new FileVault({ dataDir, env, kdf: FAST }).set('k', 'v');
    const path = join(dataDir, VAULT_FILE);
    const env1 = JSON.parse(readFileSync(path, 'utf8')) as { keySource: string };
    env1.keySource = 'key-file';
    writeFileSync(path, JSON.stringify(env1));
    await expect(new FileVault({ dataDir, env, kdf: FAST }).get('k')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
    });
  });

  it('a lost key file is an error naming it, and no new key replaces it', async () => {
    const dataDir = dir();
    const keyFile = join(dir(), 'k.key');
    await new FileVault({ dataDir, env: { AIRLOCK_VAULT_KEY_FILE: keyFile }, kdf: FAST }).set(
      'k',
      'v',
    );
    rmSync(keyFile);
    const vault = new FileVault({ dataDir, env: { AIRLOCK_VAULT_KEY_FILE: keyFile }, kdf: FAST });
    await expect(vault.set('k', 'w')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringContaining(`needs its key file ${keyFile}, which is missing`),
    });
    expect(existsSync(keyFile)).toBe(false);
  });

  it('the key file is created on first use outside the data directory, owner-only', async () => {
    const dataDir = dir();
    const state = dir();
    const env = { XDG_STATE_HOME: state };
    const vault = new FileVault({ dataDir, env, kdf: FAST });
    await vault.set('k', 'v');
    const keyFile = defaultKeyFile(dataDir, env, 'linux');
    expect(keyFile.startsWith(state)).toBe(true);
    expect(keyFile.startsWith(dataDir)).toBe(false);
    if (process.platform !== 'win32') {
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(statSync(join(state, 'airlock-keys')).mode & 0o777).toBe(0o700);
    }
    expect(await new FileVault({ dataDir, env, kdf: FAST }).get('k')).toBe('v');
  });
});

describe('SelectedVault: the keychain where there is one, else the file vault, saying so', () => {
  const unavailable = () => {
    const v = new MemoryVault();
    v.failure = new VaultError(
      'KEYCHAIN_UNAVAILABLE',
      'The OS keychain is not available (no bus).',
    );
    return v;
  };

  it('auto uses the keychain when it answers', async () => {
    const keychain = new MemoryVault();
    const v = new SelectedVault({ dataDir: dir(), keychain, env: {} });
    await v.set('k', 'v');
    expect(await keychain.get('k')).toBe('v');
    expect(v.info()).toMatchObject({ kind: 'keychain' });
  });

  it('auto falls back to the file vault when the keychain is unavailable, and says so', async () => {
    const told: string[] = [];
    const dataDir = dir();
    const env = { AIRLOCK_VAULT_PASSPHRASE: 'a passphrase of length' };
    const v = new SelectedVault({
      dataDir,
      keychain: unavailable(),
      env,
      fileKdf: FAST,
      onFallback: (m) => told.push(m),
    });
    await v.set('k', 'v');
    expect(v.info()).toMatchObject({
      kind: 'file',
      tradeOff: expect.stringContaining('AIRLOCK_VAULT_PASSPHRASE'),
    });
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('encrypted file vault');
    // Issue 29, item 9: one short sentence, not the keychain's whole error text (that is for debug).
    expect(told[0]!.length).toBeLessThan(200);
    expect(told[0]).not.toContain('no bus');
    expect(v.keychainError).toContain('no bus');
    // Next start: the file vault is found first, even where a keychain now answers.
    const keychain = new MemoryVault();
    const again = new SelectedVault({ dataDir, keychain, env, fileKdf: FAST });
    expect(await again.get('k')).toBe('v');
    expect(again.info()).toMatchObject({ kind: 'file' });
  });

  it('a locked keychain is an error, never a reason to switch', async () => {
    const keychain = new MemoryVault();
    keychain.failure = new VaultError('VAULT_LOCKED', 'locked');
    const v = new SelectedVault({
      dataDir: dir(),
      keychain,
      env: { AIRLOCK_VAULT_PASSPHRASE: 'a passphrase of length' },
    });
    await expect(v.check()).rejects.toMatchObject({ code: 'VAULT_LOCKED' });
    expect(v.info()).toBeNull();
  });

  it('--vault keychain insists on the keychain; --vault file forces the file vault', async () => {
    const k = new SelectedVault({
      dataDir: dir(),
      keychain: unavailable(),
      choice: 'keychain',
      env: {},
    });
    await expect(k.check()).rejects.toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE' });
    const keychain = new MemoryVault();
    const f = new SelectedVault({
      dataDir: dir(),
      keychain,
      choice: 'file',
      env: { AIRLOCK_VAULT_PASSPHRASE: 'a passphrase of length' },
      fileKdf: FAST,
    });
    await f.set('k', 'v');
    expect(await keychain.get('k')).toBeNull();
    expect(f.info()).toMatchObject({ kind: 'file' });
  });
});
