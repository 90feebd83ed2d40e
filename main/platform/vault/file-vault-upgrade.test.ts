import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileVault, VAULT_FILE } from './file-vault.js';
import { KDF_BOUNDS, KDF_DEFAULTS } from './vault-format.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * Issue 27, item 2: the file vault must survive every write. A file from
 * another version (other scrypt parameters) opens, takes writes and opens
 * again; a tampered header cannot make Airlock spend unbounded memory or time;
 * a write that dies before its rename leaves the old file readable.
 */
const dir = () => tempDir('airlock-vault-upgrade-');
const PASS = 'correct horse battery staple';
/** The cheapest parameters the vault accepts: tests inject them to stay fast. */
const FAST = { N: KDF_BOUNDS.N.min, r: KDF_BOUNDS.r.min, p: KDF_BOUNDS.p.min };

interface Kdf {
  N: number;
  r: number;
  p: number;
}

/**
 * A vault file made here, independently of file-vault.ts, the way any version
 * of Airlock writes the v1 format: the header (format, v, kdf, keySource,
 * cipher) is the GCM additional data.
 */
function handMadeVault(
  dataDir: string,
  kdf: Kdf,
  entries: Record<string, string>,
  pass = PASS,
): void {
  const salt = randomBytes(16).toString('base64');
  const header = {
    format: 'airlock-vault',
    v: 1,
    kdf: { name: 'scrypt', N: kdf.N, r: kdf.r, p: kdf.p, salt },
    keySource: 'passphrase',
    cipher: 'aes-256-gcm',
  };
  const key = scryptSync(pass, Buffer.from(salt, 'base64'), 32, {
    ...kdf,
    maxmem: 256 * kdf.N * kdf.r * kdf.p,
  });
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(JSON.stringify(header)));
  const data = Buffer.concat([cipher.update(JSON.stringify(entries), 'utf8'), cipher.final()]);
  const envelope = {
    ...header,
    nonce: nonce.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  writeFileSync(join(dataDir, VAULT_FILE), JSON.stringify(envelope) + '\n', { mode: 0o600 });
}

const headerKdf = (dataDir: string) =>
  (JSON.parse(readFileSync(join(dataDir, VAULT_FILE), 'utf8')) as { kdf: Kdf & { salt: string } })
    .kdf;

describe('file vault: a file with other scrypt parameters survives writes (issue 27, item 2)', () => {
  // The old constant (N=2^15), and parameter sets another version might have written.
  const others: Kdf[] = [
    { N: 2 ** 15, r: 8, p: 1 },
    { N: 2 ** 16, r: 8, p: 1 },
    { N: 2 ** 15, r: 8, p: 2 },
  ];
  for (const old of others)
    it(`written with N=${old.N}, r=${old.r}, p=${old.p}: open → write → reopen keeps every secret`, async () => {
      const dataDir = dir();
      handMadeVault(dataDir, old, { 'agent:a': 'alk_old' });
      const env = { AIRLOCK_VAULT_PASSPHRASE: PASS };
      const vault = new FileVault({ dataDir, env, kdf: FAST });
      expect(await vault.get('agent:a')).toBe('alk_old');
      await vault.set('agent:b', 'alk_new');
      // A restart: a fresh instance derives its key from the file's header alone.
      const again = new FileVault({ dataDir, env, kdf: FAST });
      expect(await again.get('agent:a')).toBe('alk_old');
      expect(await again.get('agent:b')).toBe('alk_new');
      // Never mixed, never cheaper: the header names the parameters the key was derived with,
      // the file's own, as each is at least the target's (FAST) — a re-key never removes work.
      expect(headerKdf(dataDir)).toMatchObject(old);
    });

  it('the real default parameters: an N=2^15 passphrase vault is re-keyed to N=2^17 on its next write', async () => {
    expect(KDF_DEFAULTS.passphrase).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    const dataDir = dir();
    handMadeVault(dataDir, { N: 2 ** 15, r: 8, p: 1 }, { 'control-token': 'alc_x' });
    const oldSalt = headerKdf(dataDir).salt;
    const env = { AIRLOCK_VAULT_PASSPHRASE: PASS };
    await new FileVault({ dataDir, env }).set('agent:a', 'alk_a');
    const kdf = headerKdf(dataDir);
    expect(kdf).toMatchObject({ N: 2 ** 17, r: 8, p: 1 });
    expect(kdf.salt).not.toBe(oldSalt); // a fresh salt with the new parameters
    const again = new FileVault({ dataDir, env });
    expect(await again.get('control-token')).toBe('alc_x');
    expect(await again.get('agent:a')).toBe('alk_a');
  });
});

describe('file vault: a write never re-keys to cheaper scrypt parameters', () => {
  it('a passphrase vault with N=2^16 opened where the target is N=2^15 keeps N=2^16 and its salt', async () => {
    const dataDir = dir();
    handMadeVault(dataDir, { N: 2 ** 16, r: 8, p: 1 }, { a: '1' });
    const salt = headerKdf(dataDir).salt;
    await new FileVault({ dataDir, env: { AIRLOCK_VAULT_PASSPHRASE: PASS }, kdf: FAST }).set(
      'b',
      '2',
    );
    expect(headerKdf(dataDir)).toMatchObject({ N: 2 ** 16, r: 8, p: 1, salt });
  });

  it('a passphrase vault opened through a key file holding the same text keeps its passphrase cost', async () => {
    const dataDir = dir();
    const long = `${PASS} and a few more words`; // a key file needs ≥ 32 characters
    handMadeVault(dataDir, { N: 2 ** 17, r: 8, p: 1 }, { a: '1' }, long);
    const keyFile = join(dir(), 'vault.key');
    writeFileSync(keyFile, long + '\n', { mode: 0o600 });
    // The real defaults: a key file of other text gets N=2^15 for a new vault, not this one.
    const vault = new FileVault({ dataDir, env: { AIRLOCK_VAULT_KEY_FILE: keyFile } });
    await vault.set('b', '2');
    expect(headerKdf(dataDir)).toMatchObject({ N: 2 ** 17, r: 8, p: 1 });
    expect(await new FileVault({ dataDir, env: { AIRLOCK_VAULT_PASSPHRASE: long } }).get('b')).toBe(
      '2',
    );
  });

  it('one parameter below the target is enough to re-key to the target (N=2^15, r=16, p=2 under N=2^16, r=8, p=1)', async () => {
    const dataDir = dir();
    handMadeVault(dataDir, { N: 2 ** 15, r: 16, p: 2 }, { a: '1' });
    const target = { N: 2 ** 16, r: 8, p: 1 };
    await new FileVault({ dataDir, env: { AIRLOCK_VAULT_PASSPHRASE: PASS }, kdf: target }).set(
      'b',
      '2',
    );
    expect(headerKdf(dataDir)).toMatchObject(target);
  });
});

describe('file vault: the header’s cost parameters are bounded before anything is derived', () => {
  const tampered: [string, (kdf: Record<string, unknown>) => void][] = [
    ['N far too large (memory)', (k) => (k.N = 2 ** 30)],
    ['N above the maximum', (k) => (k.N = KDF_BOUNDS.N.max * 2)],
    ['N below the minimum', (k) => (k.N = 2 ** 10)],
    ['N not a power of two', (k) => (k.N = 3 * 2 ** 14)],
    ['r too large', (k) => (k.r = 1024)],
    ['r zero', (k) => (k.r = 0)],
    ['p too large (time)', (k) => (k.p = 1000)],
    ['N a string', (k) => (k.N = '32768')],
    ['no salt', (k) => delete k.salt],
  ];
  for (const [what, edit] of tampered)
    it(`${what} → a clear VAULT_LOCKED error, and the file is left as it was`, async () => {
      const dataDir = dir();
      const env = { AIRLOCK_VAULT_PASSPHRASE: PASS };
      await new FileVault({ dataDir, env, kdf: FAST }).set('k', 'v');
      const path = join(dataDir, VAULT_FILE);
      const file = JSON.parse(readFileSync(path, 'utf8')) as { kdf: Record<string, unknown> };
      edit(file.kdf);
      writeFileSync(path, JSON.stringify(file));
      const before = readFileSync(path);
      const vault = new FileVault({ dataDir, env, kdf: FAST });
      for (const op of [() => vault.get('k'), () => vault.set('k', 'w')]) {
        const err = (await op().catch((e: unknown) => e)) as Error & { code?: string };
        expect(err.code).toBe('VAULT_LOCKED');
        expect(err.message).toMatch(/scrypt parameters|damaged/);
        expect(err.message).toContain('Nothing was changed');
      }
      expect(readFileSync(path).equals(before)).toBe(true);
    });

  it('constructor parameters outside the bounds are refused too', () => {
    expect(
      () => new FileVault({ dataDir: dir(), env: {}, kdf: { N: 2 ** 10, r: 8, p: 1 } }),
    ).toThrow(/scrypt parameters/);
  });
});

describe('file vault: a write never leaves a file the same key cannot open', () => {
  it('dying between the write and the rename leaves the old file readable, and a stray temp file is ignored', async () => {
    const dataDir = dir();
    const env = { AIRLOCK_VAULT_PASSPHRASE: PASS };
    await new FileVault({ dataDir, env, kdf: FAST }).set('k', 'old');
    const path = join(dataDir, VAULT_FILE);
    const before = readFileSync(path);
    const crashing = new FileVault({
      dataDir,
      env,
      kdf: FAST,
      beforeRename: (tmp) => {
        // What a crash at this point leaves behind: the new file under its temporary name.
        copyFileSync(tmp, join(dataDir, `${VAULT_FILE}.crash.tmp`));
        throw new Error('simulated crash before rename');
      },
    });
    await expect(crashing.set('k', 'new')).rejects.toThrow('simulated crash');
    expect(readFileSync(path).equals(before)).toBe(true);
    const after = new FileVault({ dataDir, env, kdf: FAST });
    expect(await after.get('k')).toBe('old');
    await after.set('k', 'newer');
    expect(await new FileVault({ dataDir, env, kdf: FAST }).get('k')).toBe('newer');
    // Our own temp files are cleaned up; only the simulated crash's copy remains.
    expect(readdirSync(dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([
      `${VAULT_FILE}.crash.tmp`,
    ]);
  });

  it('the temp file is owner-only from its creation, and is renamed into place once', async () => {
    const dataDir = dir();
    const env = { AIRLOCK_VAULT_PASSPHRASE: PASS };
    const seen: string[] = [];
    const vault = new FileVault({
      dataDir,
      env,
      kdf: FAST,
      beforeRename: (tmp) => {
        seen.push(tmp);
        expect(statSync(tmp).mode & 0o777).toBe(0o600);
      },
    });
    await vault.set('k', 'v');
    expect(seen).toHaveLength(1);
    expect(statSync(join(dataDir, VAULT_FILE)).mode & 0o777).toBe(0o600);
  });

  it('a write whose result does not open is refused and the old file stays', async () => {
    const dataDir = dir();
    const env = { AIRLOCK_VAULT_PASSPHRASE: PASS };
    await new FileVault({ dataDir, env, kdf: FAST }).set('k', 'old');
    const path = join(dataDir, VAULT_FILE);
    const before = readFileSync(path);
    const vault = new FileVault({
      dataDir,
      env,
      kdf: FAST,
      // Corrupt the temp file after it was written: the check must catch it.
      afterWrite: (tmp) => {
        const f = JSON.parse(readFileSync(tmp, 'utf8')) as { kdf: { N: number } };
        f.kdf.N = 2 ** 16;
        writeFileSync(tmp, JSON.stringify(f));
      },
    });
    await expect(vault.set('k', 'new')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringContaining('could not open the vault it was about to write'),
    });
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('file vault: a passphrase has a minimum length for new vaults', () => {
  it('a new vault with a short passphrase is refused, saying what to do; nothing is written', async () => {
    const dataDir = dir();
    const vault = new FileVault({ dataDir, env: { AIRLOCK_VAULT_PASSPHRASE: 'short' }, kdf: FAST });
    await expect(vault.set('k', 'v')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringMatching(/at least 12 characters/),
    });
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('an existing vault made with a short passphrase still opens and takes writes', async () => {
    const dataDir = dir();
    const salt = randomBytes(16).toString('base64');
    // Made by an older Airlock, which had no minimum.
    const header = {
      format: 'airlock-vault',
      v: 1,
      kdf: { name: 'scrypt', ...FAST, salt },
      keySource: 'passphrase',
      cipher: 'aes-256-gcm',
    };
    const key = scryptSync('pw', Buffer.from(salt, 'base64'), 32, { ...FAST, maxmem: 2 ** 26 });
    const nonce = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, nonce);
    c.setAAD(Buffer.from(JSON.stringify(header)));
    const data = Buffer.concat([c.update('{"k":"v"}', 'utf8'), c.final()]);
    writeFileSync(
      join(dataDir, VAULT_FILE),
      JSON.stringify({
        ...header,
        nonce: nonce.toString('base64'),
        tag: c.getAuthTag().toString('base64'),
        data: data.toString('base64'),
      }),
    );
    const env = { AIRLOCK_VAULT_PASSPHRASE: 'pw' };
    const vault = new FileVault({ dataDir, env, kdf: FAST });
    expect(await vault.get('k')).toBe('v');
    await vault.set('k2', 'v2');
    expect(await new FileVault({ dataDir, env, kdf: FAST }).get('k2')).toBe('v2');
  });
});
