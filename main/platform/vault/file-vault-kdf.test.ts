import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scryptSync } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileVault, VAULT_FILE } from './file-vault.js';
import { createKeyFile } from './key-source.js';
import { keyMaterial } from './vault-kdf.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * Issue 34 (cold start): a key file of Airlock's own key material is turned into the vault key by
 * HKDF-SHA256, not scrypt; a passphrase, and any other key-file text, keep scrypt. These tests
 * hold the format to its description (docs/security.md "File vault"): a vault is decrypted here
 * with node:crypto alone; an old scrypt key-file vault is re-keyed on its next write and every
 * secret survives (a fast-check model, with a held-out part); an edited header fails closed.
 */
const dir = () => tempDir('airlock-vault-kdf-');
const FAST = { N: 2 ** 15, r: 8, p: 1 };
const INFO = 'airlock-vault v1 aes-256-gcm key';

interface Header {
  format: string;
  v: number;
  kdf: { name: string; salt: string; N?: number; r?: number; p?: number };
  keySource: string;
  cipher: string;
}
type Envelope = Header & { nonce: string; tag: string; data: string };

const envelopeOf = (dataDir: string) =>
  JSON.parse(readFileSync(join(dataDir, VAULT_FILE), 'utf8')) as Envelope;

/** The documented additional data: the header's fields in this order, the KDF's as listed. */
function aad(h: Header): Buffer {
  const k = h.kdf;
  const kdf =
    k.name === 'hkdf-sha256'
      ? { name: k.name, salt: k.salt }
      : { name: k.name, N: k.N, r: k.r, p: k.p, salt: k.salt };
  return Buffer.from(
    JSON.stringify({ format: h.format, v: h.v, kdf, keySource: h.keySource, cipher: h.cipher }),
  );
}

/** The key, from the documented format alone: the key file's trimmed text, or the passphrase. */
function keyOf(h: Header, secret: string): Buffer {
  const salt = Buffer.from(h.kdf.salt, 'base64');
  if (h.kdf.name === 'hkdf-sha256')
    return Buffer.from(hkdfSync('sha256', Buffer.from(secret.trim(), 'base64'), salt, INFO, 32));
  const { N, r, p } = h.kdf as { N: number; r: number; p: number };
  return scryptSync(secret.trim(), salt, 32, { N, r, p, maxmem: 256 * N * r * p });
}

/** Decrypts a vault file with node:crypto only. */
function decryptIndependently(dataDir: string, secret: string): Record<string, string> {
  const e = envelopeOf(dataDir);
  const d = createDecipheriv('aes-256-gcm', keyOf(e, secret), Buffer.from(e.nonce, 'base64'));
  d.setAAD(aad(e));
  d.setAuthTag(Buffer.from(e.tag, 'base64'));
  const plain = Buffer.concat([d.update(Buffer.from(e.data, 'base64')), d.final()]);
  return JSON.parse(plain.toString('utf8')) as Record<string, string>;
}

/** A vault as an older Airlock wrote every key-file vault: scrypt of the key file's text. */
function oldScryptVault(
  dataDir: string,
  keyText: string,
  entries: Record<string, string>,
  N = FAST.N,
) {
  handMadeVault(dataDir, keyText, entries, {
    name: 'scrypt',
    N,
    r: 8,
    p: 1,
    salt: randomBytes(16).toString('base64'),
  });
}

/** A key-file vault made here, from the documented format, with the KDF header `kdf`. */
function handMadeVault(
  dataDir: string,
  keyText: string,
  entries: Record<string, string>,
  kdf: Header['kdf'],
) {
  const header: Header = {
    format: 'airlock-vault',
    v: 1,
    kdf,
    keySource: 'key-file',
    cipher: 'aes-256-gcm',
  };
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(header, keyText), nonce);
  c.setAAD(aad(header));
  const data = Buffer.concat([c.update(JSON.stringify(entries), 'utf8'), c.final()]);
  writeFileSync(
    join(dataDir, VAULT_FILE),
    JSON.stringify({
      ...header,
      nonce: nonce.toString('base64'),
      tag: c.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    }) + '\n',
    { mode: 0o600 },
  );
}

function keyFileVault(keyText?: string) {
  const dataDir = dir();
  const keyFile = join(dir(), 'vault.key');
  if (keyText !== undefined) writeFileSync(keyFile, keyText, { mode: 0o600 });
  const env = { AIRLOCK_VAULT_KEY_FILE: keyFile };
  return { dataDir, keyFile, env, open: () => new FileVault({ dataDir, env, kdf: FAST }) };
}

describe('the vault file decrypts with node:crypto alone, from the documented format', () => {
  it('a new key-file vault: HKDF-SHA256 (RFC 5869) of the key file, 16-byte salt', async () => {
    const v = keyFileVault();
    await v.open().set('agent:a', 'alk_secret');
    const e = envelopeOf(v.dataDir);
    expect(e.kdf).toEqual({ name: 'hkdf-sha256', salt: expect.any(String) });
    expect(Buffer.from(e.kdf.salt, 'base64')).toHaveLength(16);
    expect(e.keySource).toBe('key-file');
    expect(decryptIndependently(v.dataDir, readFileSync(v.keyFile, 'utf8'))).toEqual({
      'agent:a': 'alk_secret',
    });
  });

  it('a passphrase vault: scrypt, never HKDF, even when the passphrase looks like key material', async () => {
    const dataDir = dir();
    const passphrase = randomBytes(32).toString('base64');
    await new FileVault({ dataDir, env: { AIRLOCK_VAULT_PASSPHRASE: passphrase }, kdf: FAST }).set(
      'k',
      'v',
    );
    expect(envelopeOf(dataDir).kdf).toMatchObject({ name: 'scrypt', ...FAST });
    expect(decryptIndependently(dataDir, passphrase)).toEqual({ k: 'v' });
  });

  it('a key file of other text (a passphrase in a file): scrypt N=2^15, as before', async () => {
    const v = keyFileVault('my long but guessable phrase in a key file\n');
    await new FileVault({ dataDir: v.dataDir, env: v.env }).set('k', 'v'); // real defaults
    expect(envelopeOf(v.dataDir).kdf).toMatchObject({ name: 'scrypt', N: 2 ** 15, r: 8, p: 1 });
    expect(decryptIndependently(v.dataDir, readFileSync(v.keyFile, 'utf8'))).toEqual({ k: 'v' });
    // Not re-keyed to HKDF on later writes either.
    await new FileVault({ dataDir: v.dataDir, env: v.env }).set('k2', 'v2');
    expect(envelopeOf(v.dataDir).kdf.name).toBe('scrypt');
  });

  it('`openssl rand -base64 32` and wrapped `-base64 64` key files are key material; other text is not', () => {
    const b = (n: number) => randomBytes(n).toString('base64');
    const wrapped = b(64).replace(/(.{64})/g, '$1\n'); // openssl wraps at 64 characters
    for (const text of [b(32) + '\n', b(34), b(65), wrapped, `  ${b(32)}\r\n`])
      expect(keyMaterial(text)?.length).toBeGreaterThanOrEqual(32);
    for (const text of [
      b(31), // too short
      b(33), // no '=' padding (a multiple of 3 bytes): letters and digits a person could type
      b(48),
      b(32).replace(/=$/, ''), // unpadded
      b(32).slice(0, -2) + 'B=', // not canonical (stray bits in the last character)
      'correct horse battery staple, and then some more words',
      randomBytes(32).toString('hex') + '!',
      b(32).replace(/^./, '-'), // base64url is not Airlock's form
      '',
    ])
      expect(keyMaterial(text)).toBeNull();
  });
});

describe('a key file a person could have typed keeps scrypt, also across the rule change', () => {
  it('a 44-letter phrase in a key file (base64-shaped, unpadded) gets scrypt, not HKDF', async () => {
    const v = keyFileVault('correcthorsebatterystaplecorrecthorsebattery\n');
    await v.open().set('k', 'v');
    expect(envelopeOf(v.dataDir).kdf).toMatchObject({ name: 'scrypt', ...FAST });
    expect(decryptIndependently(v.dataDir, readFileSync(v.keyFile, 'utf8'))).toEqual({ k: 'v' });
  });

  it('an HKDF vault keyed from an unpadded key file (the earlier rule) opens, and its next write re-keys it to scrypt', async () => {
    const key = 'correcthorsebatterystaplecorrecthorsebattery';
    const v = keyFileVault(key + '\n');
    handMadeVault(
      v.dataDir,
      key,
      { k: 'old' },
      {
        name: 'hkdf-sha256',
        salt: randomBytes(16).toString('base64'),
      },
    );
    expect(await v.open().get('k')).toBe('old');
    expect(envelopeOf(v.dataDir).kdf.name).toBe('hkdf-sha256'); // a read writes nothing
    await v.open().set('k2', 'new');
    expect(envelopeOf(v.dataDir).kdf).toMatchObject({ name: 'scrypt', ...FAST });
    expect(decryptIndependently(v.dataDir, key)).toEqual({ k: 'old', k2: 'new' });
    expect(await v.open().get('k')).toBe('old');
  });
});

describe('an old scrypt key-file vault is re-keyed to HKDF on its next write', () => {
  it('opens, takes a write, is HKDF with a fresh salt, and every secret is there after a restart', async () => {
    const key = randomBytes(32).toString('base64') + '\n';
    const v = keyFileVault(key);
    oldScryptVault(v.dataDir, key, { 'control-token': 'alc_x' });
    const oldSalt = envelopeOf(v.dataDir).kdf.salt;
    const vault = v.open();
    expect(await vault.get('control-token')).toBe('alc_x');
    expect(envelopeOf(v.dataDir).kdf.name).toBe('scrypt'); // a read writes nothing
    await vault.set('agent:a', 'alk_a');
    const kdf = envelopeOf(v.dataDir).kdf;
    expect(kdf).toEqual({ name: 'hkdf-sha256', salt: expect.any(String) });
    expect(kdf.salt).not.toBe(oldSalt);
    expect(decryptIndependently(v.dataDir, key)).toEqual({
      'control-token': 'alc_x',
      'agent:a': 'alk_a',
    });
    expect(await v.open().get('control-token')).toBe('alc_x');
  });

  it('the re-keyed file is checked with a key derived afresh from the key file on disk (what the next start does)', async () => {
    const key = randomBytes(32).toString('base64');
    const v = keyFileVault(key);
    oldScryptVault(v.dataDir, key, { k: 'old' });
    const before = readFileSync(join(v.dataDir, VAULT_FILE));
    const vault = new FileVault({
      dataDir: v.dataDir,
      env: v.env,
      kdf: FAST,
      // The key file changes under the write: the new file is under a key the next start would
      // not derive, so it must not replace the old one.
      afterWrite: () => writeFileSync(v.keyFile, randomBytes(32).toString('base64')),
    });
    expect(await vault.get('k')).toBe('old');
    await expect(vault.set('k', 'new')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringContaining('could not open the vault it was about to write'),
    });
    expect(readFileSync(join(v.dataDir, VAULT_FILE)).equals(before)).toBe(true);
  });

  it('a key file replaced while Airlock runs is not adopted by the re-key: nothing is written, and the old key still opens', async () => {
    const key = randomBytes(32).toString('base64') + '\n';
    const v = keyFileVault(key);
    oldScryptVault(v.dataDir, key, { k: 'old' });
    const before = readFileSync(join(v.dataDir, VAULT_FILE));
    const vault = v.open();
    expect(await vault.get('k')).toBe('old');
    writeFileSync(v.keyFile, randomBytes(32).toString('base64') + '\n'); // another key, mid-run
    await expect(vault.set('k', 'new')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringMatching(
        /key file .* changed while Airlock was running .* wrote nothing.*Nothing was changed/,
      ),
    });
    expect(readFileSync(join(v.dataDir, VAULT_FILE)).equals(before)).toBe(true);
    writeFileSync(v.keyFile, key); // the right one back: the write goes ahead, re-keyed
    await vault.set('k', 'new');
    expect(decryptIndependently(v.dataDir, key)).toEqual({ k: 'new' });
  });

  it('nor is it ignored on an HKDF vault (the cached key would seal a file the next start cannot open)', async () => {
    const v = keyFileVault();
    const vault = v.open();
    await vault.set('k', 'v');
    const before = readFileSync(join(v.dataDir, VAULT_FILE));
    writeFileSync(v.keyFile, randomBytes(32).toString('base64'));
    await expect(vault.set('k', 'w')).rejects.toMatchObject({ code: 'VAULT_LOCKED' });
    await expect(vault.delete('k')).rejects.toMatchObject({ code: 'VAULT_LOCKED' });
    expect(readFileSync(join(v.dataDir, VAULT_FILE)).equals(before)).toBe(true);
  });

  it('the same key re-wrapped (other text, same bytes) still takes writes', async () => {
    const v = keyFileVault();
    const vault = v.open();
    await vault.set('k', 'v');
    const text = readFileSync(v.keyFile, 'utf8').trim();
    writeFileSync(v.keyFile, text.replace(/(.{20})/g, '$1\r\n'));
    await vault.set('k', 'w');
    expect(await v.open().get('k')).toBe('w');
  });

  it('a new vault is checked the same way: a key file changed under its first write is caught', async () => {
    const v = keyFileVault();
    const vault = new FileVault({
      dataDir: v.dataDir,
      env: v.env,
      afterWrite: () => writeFileSync(v.keyFile, randomBytes(32).toString('base64')),
    });
    await expect(vault.set('k', 'v')).rejects.toMatchObject({ code: 'VAULT_LOCKED' });
    expect(existsSync(join(v.dataDir, VAULT_FILE))).toBe(false);
  });
});

describe('an edited KDF header fails closed: a clear VAULT_LOCKED error, the file left as it was', () => {
  const tampered: [string, (e: Envelope) => void, RegExp][] = [
    [
      'HKDF with a passphrase key source',
      (e) => (e.keySource = 'passphrase'),
      /damaged.*HKDF header for a passphrase vault/,
    ],
    [
      'a changed salt',
      (e) => (e.kdf.salt = randomBytes(16).toString('base64')),
      /wrong passphrase or key/,
    ],
    ['a salt of 8 bytes', (e) => (e.kdf.salt = randomBytes(8).toString('base64')), /bad salt/],
    [
      'the KDF name swapped to scrypt (same salt, cheapest parameters)',
      (e) => (e.kdf = { ...e.kdf, name: 'scrypt', ...FAST }),
      /wrong passphrase or key/,
    ],
    ['an unknown KDF name', (e) => (e.kdf.name = 'hkdf-sha1'), /unknown KDF/],
    ['scrypt parameters added to the HKDF header', (e) => (e.kdf.N = 2 ** 15), /unknown fields/],
  ];
  for (const [what, edit, message] of tampered)
    it(what, async () => {
      const v = keyFileVault();
      await v.open().set('k', 'v');
      const path = join(v.dataDir, VAULT_FILE);
      const e = envelopeOf(v.dataDir);
      edit(e);
      writeFileSync(path, JSON.stringify(e));
      const before = readFileSync(path);
      const vault = v.open();
      for (const op of [() => vault.get('k'), () => vault.set('k', 'w'), () => vault.check()]) {
        const err = (await op().catch((x: unknown) => x)) as Error & { code?: string };
        expect(err.code).toBe('VAULT_LOCKED');
        expect(err.message).toMatch(message);
        expect(err.message).toContain('Nothing was changed');
      }
      expect(readFileSync(path).equals(before)).toBe(true);
    });

  it('field order is not an edit: a header with every field reordered opens and takes a write', async () => {
    const v = keyFileVault();
    await v.open().set('k', 'v');
    const path = join(v.dataDir, VAULT_FILE);
    const e = envelopeOf(v.dataDir);
    const reordered = {
      data: e.data,
      kdf: { salt: e.kdf.salt, name: e.kdf.name },
      tag: e.tag,
      cipher: e.cipher,
      keySource: e.keySource,
      nonce: e.nonce,
      v: e.v,
      format: e.format,
    };
    writeFileSync(path, JSON.stringify(reordered));
    expect(await v.open().get('k')).toBe('v');
    await v.open().set('k', 'w');
    expect(decryptIndependently(v.dataDir, readFileSync(v.keyFile, 'utf8'))).toEqual({ k: 'w' });
  });

  it('a duplicate "kdf" key cannot smuggle in a cheaper KDF: the last one counts, and a fake one fails the tag', async () => {
    const key = randomBytes(32).toString('base64');
    const v = keyFileVault(key);
    oldScryptVault(v.dataDir, key, { k: 'v' }, 2 ** 16);
    const path = join(v.dataDir, VAULT_FILE);
    const text = readFileSync(path, 'utf8').trim();
    const real = JSON.stringify(envelopeOf(v.dataDir).kdf);
    const fake = JSON.stringify({ name: 'hkdf-sha256', salt: randomBytes(16).toString('base64') });
    const cheap = JSON.stringify({ ...envelopeOf(v.dataDir).kdf, N: 2 ** 15 });
    // The real header last: JSON.parse keeps the last value, so the file opens as before.
    writeFileSync(path, text.replace('{', `{"kdf":${fake},`));
    expect(await v.open().get('k')).toBe('v');
    for (const smuggled of [fake, cheap]) {
      writeFileSync(path, text.replace(real, `${real},"kdf":${smuggled}`));
      const before = readFileSync(path);
      await expect(v.open().set('k', 'w')).rejects.toMatchObject({
        code: 'VAULT_LOCKED',
        message: expect.stringMatching(/wrong passphrase or key.*Nothing was changed/),
      });
      expect(readFileSync(path).equals(before)).toBe(true);
    }
  });

  it('scrypt swapped to HKDF on a key-file vault (salt kept) does not open', async () => {
    const key = randomBytes(32).toString('base64');
    const v = keyFileVault(key);
    oldScryptVault(v.dataDir, key, { k: 'v' });
    const path = join(v.dataDir, VAULT_FILE);
    const e = envelopeOf(v.dataDir);
    e.kdf = { name: 'hkdf-sha256', salt: e.kdf.salt };
    writeFileSync(path, JSON.stringify(e));
    const before = readFileSync(path);
    await expect(v.open().set('k', 'w')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringMatching(/wrong passphrase or key.*Nothing was changed/),
    });
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('an HKDF vault whose key file now holds other text, or opened with a passphrase, does not open', async () => {
    const v = keyFileVault();
    await v.open().set('k', 'v');
    const before = readFileSync(join(v.dataDir, VAULT_FILE));
    const passphrase = new FileVault({
      dataDir: v.dataDir,
      env: { AIRLOCK_VAULT_PASSPHRASE: readFileSync(v.keyFile, 'utf8').trim() },
      kdf: FAST,
    });
    await expect(passphrase.get('k')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringContaining('unset AIRLOCK_VAULT_PASSPHRASE'),
    });
    writeFileSync(v.keyFile, 'a passphrase typed into the key file');
    await expect(v.open().set('k', 'w')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringContaining('Restore the key file'),
    });
    expect(readFileSync(join(v.dataDir, VAULT_FILE)).equals(before)).toBe(true);
  });
});

describe('the key file is created whole, or not at all, and never replaces another', () => {
  it('is owner-only, 32 random bytes in base64, and leaves no temp file', () => {
    const d = dir();
    const path = join(d, 'keys', 'p.key');
    createKeyFile(path);
    expect(keyMaterial(readFileSync(path, 'utf8'))).toHaveLength(32);
    expect(readdirSync(join(d, 'keys'))).toEqual(['p.key']);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('folders it makes are made durable: the entry of each new one in its parent is fsynced', () => {
    const d = dir();
    const synced: string[] = [];
    createKeyFile(join(d, 'a', 'b', 'p.key'), { syncDir: (p) => synced.push(p) });
    // syncDir(x) fsyncs x's parent: b's entry in a, a's entry in d.
    expect(synced).toEqual([join(d, 'a', 'b'), join(d, 'a')]);
    synced.length = 0;
    createKeyFile(join(d, 'a', 'b', 'q.key'), { syncDir: (p) => synced.push(p) });
    expect(synced).toEqual([]); // nothing new: nothing more to sync
  });

  it('a crash before it is published leaves no key file (never an empty one)', () => {
    const path = join(dir(), 'p.key');
    expect(() =>
      createKeyFile(path, {
        beforePublish: (tmp) => {
          expect(keyMaterial(readFileSync(tmp, 'utf8'))).toHaveLength(32); // complete before
          throw new Error('simulated crash');
        },
      }),
    ).toThrow('simulated crash');
    expect(existsSync(path)).toBe(false);
  });

  it('a key file that appeared meanwhile is kept, with hard links and without', () => {
    for (const link of [
      linkSync,
      () => {
        throw Object.assign(new Error('no hard links here'), { code: 'EPERM' });
      },
    ]) {
      const d = dir();
      const path = join(d, 'p.key');
      const theirs = randomBytes(32).toString('base64') + '\n';
      createKeyFile(path, { link, beforePublish: () => writeFileSync(path, theirs) });
      expect(readFileSync(path, 'utf8')).toBe(theirs);
      expect(readdirSync(d)).toEqual(['p.key']);
    }
  });

  it('without hard links, a key file another process makes at the last instant is kept (exclusive copy, no check-then-rename)', () => {
    const d = dir();
    const path = join(d, 'p.key');
    const theirs = randomBytes(32).toString('base64') + '\n';
    createKeyFile(path, {
      link: () => {
        throw Object.assign(new Error('no hard links here'), { code: 'EPERM' });
      },
      // The other process wins the race right before our copy publishes.
      copy: (from, to, mode) => {
        writeFileSync(path, theirs);
        copyFileSync(from, to, mode);
      },
    });
    expect(readFileSync(path, 'utf8')).toBe(theirs);
    expect(readdirSync(d)).toEqual(['p.key']);
  });

  it('without hard links it is still published whole', () => {
    const d = dir();
    const path = join(d, 'p.key');
    createKeyFile(path, {
      link: () => {
        throw Object.assign(new Error('operation not supported'), { code: 'ENOTSUP' });
      },
    });
    expect(keyMaterial(readFileSync(path, 'utf8'))).toHaveLength(32);
    expect(readdirSync(d)).toEqual(['p.key']);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('an empty key file and no vault yet: says nothing is lost and what to do; writes nothing', async () => {
    const v = keyFileVault('');
    const err = (await v
      .open()
      .set('k', 'v')
      .catch((x: unknown) => x)) as Error & { code?: string };
    expect(err.code).toBe('VAULT_LOCKED');
    expect(err.message).toMatch(
      /is empty.*no vault uses it yet.*delete it.*openssl rand -base64 32/,
    );
    expect(readdirSync(v.dataDir)).toEqual([]);
    expect(readFileSync(v.keyFile, 'utf8')).toBe('');
  });

  it('a short key file for an existing vault: says to restore it', async () => {
    const key = randomBytes(32).toString('base64');
    const v = keyFileVault(key);
    oldScryptVault(v.dataDir, key, { k: 'v' });
    writeFileSync(v.keyFile, 'abc');
    await expect(v.open().get('k')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringMatching(/too short.*restore the key file/),
    });
  });
});

/**
 * The model: a Map. Operations on the vault (with restarts: a new FileVault on the same files)
 * must answer as the Map does, starting from an empty data dir or an old scrypt key-file vault;
 * at the end the file decrypts independently to the Map, and is HKDF once anything was written.
 */
type Op =
  | { op: 'get'; key: string }
  | { op: 'set'; key: string; value: string }
  | { op: 'delete'; key: string }
  | { op: 'restart' };

function ops(keys: fc.Arbitrary<string>, values: fc.Arbitrary<string>, max: number) {
  return fc.array(
    fc.oneof(
      fc.record({ op: fc.constant('get' as const), key: keys }),
      fc.record({ op: fc.constant('set' as const), key: keys, value: values }),
      fc.record({ op: fc.constant('delete' as const), key: keys }),
      fc.constant({ op: 'restart' as const }),
    ),
    { maxLength: max },
  );
}

/** Per part: runs, and runs that re-keyed an old scrypt vault to HKDF (printed, so a part that stops exercising the re-key shows). */
const tally = { runs: 0, rekeyed: 0 };

async function runModel(
  start: Record<string, string> | null,
  oldN: number,
  seq: Op[],
): Promise<void> {
  tally.runs++;
  const key = randomBytes(32).toString('base64') + '\n';
  const v = keyFileVault(start ? key : undefined);
  if (start) oldScryptVault(v.dataDir, key, start, oldN);
  const model = new Map(Object.entries(start ?? {}));
  let vault = v.open();
  let wrote = false;
  for (const o of seq) {
    if (o.op === 'get') expect(await vault.get(o.key)).toBe(model.get(o.key) ?? null);
    else if (o.op === 'set') {
      await vault.set(o.key, o.value);
      model.set(o.key, o.value);
      wrote = true;
    } else if (o.op === 'delete') {
      const had = model.delete(o.key);
      expect(await vault.delete(o.key)).toBe(had);
      wrote ||= had;
    } else vault = v.open();
  }
  if (!start && !wrote) {
    expect(existsSync(join(v.dataDir, VAULT_FILE))).toBe(false);
    return;
  }
  const secret = readFileSync(v.keyFile, 'utf8');
  expect(decryptIndependently(v.dataDir, secret)).toEqual(Object.fromEntries(model));
  expect(envelopeOf(v.dataDir).kdf.name).toBe(wrote ? 'hkdf-sha256' : 'scrypt');
  if (start && wrote) tally.rekeyed++;
}

function report(part: string) {
  console.log(
    `file vault model, ${part}: ${tally.runs} runs, ${tally.rekeyed} re-keyed scrypt → HKDF`,
  );
  expect(tally.rekeyed).toBeGreaterThan(tally.runs / 4);
  tally.runs = tally.rekeyed = 0;
}

describe('model: get / set / delete / restart keep the Map, across the scrypt → HKDF re-key', () => {
  it('tuning part: a few keys, ASCII values (seed 34)', async () => {
    const keys = fc.constantFrom('agent:a', 'agent:b', 'control-token');
    const start = fc.option(fc.dictionary(keys, fc.string({ maxLength: 12 })), { nil: null });
    await fc.assert(
      fc.asyncProperty(start, ops(keys, fc.string({ maxLength: 12 }), 12), (s, seq) =>
        runModel(s, FAST.N, seq),
      ),
      { seed: 34, numRuns: 20 },
    );
    report('tuning part');
  }, 60_000);

  // Held out: written before the tuning part ran and never adjusted to it; other seeds, other
  // alphabets (any Unicode, JSON-looking and empty values), longer sequences, an N=2^16 old vault.
  it('held-out part: Unicode keys and values, longer runs, N=2^16 (seed 2026)', async () => {
    const keys = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
      fc.constant('{"k":1}'),
    );
    const values = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.json(),
      fc.constant(''),
    );
    const start = fc.option(fc.dictionary(keys, values, { maxKeys: 5 }), { nil: null });
    await fc.assert(
      fc.asyncProperty(start, ops(keys, values, 20), (s, seq) => runModel(s, 2 ** 16, seq)),
      { seed: 2026, numRuns: 15 },
    );
    report('held-out part');
  }, 120_000);
});
