import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import { profileService } from './keyring-vault.js';
import { VaultError, type Vault } from './vault.js';

/**
 * The encrypted file vault (issue 19, item 2) for machines without an OS
 * keychain: headless servers, containers, CI. Only Node's audited primitives:
 * scrypt (RFC 7914) turns the passphrase or key file into a 256-bit key, and
 * AES-256-GCM (NIST SP 800-38D) encrypts and authenticates the whole secret map.
 *
 * - One random 16-byte salt per vault file; a fresh random 12-byte nonce on
 *   every write (a GCM nonce is never reused with the same key).
 * - The header (format, KDF parameters, key source) is the GCM additional
 *   data, so it cannot be altered without the tag failing.
 * - A write first decrypts the current file; a wrong key therefore fails
 *   before anything is written (nothing is overwritten).
 * - Written atomically (write-then-rename), mode 0600, in the 0700 data dir.
 *
 * The key comes from AIRLOCK_VAULT_PASSPHRASE when set, otherwise from a key
 * file (AIRLOCK_VAULT_KEY_FILE, default outside the data directory), created
 * on first use with 32 random bytes, mode 0600 in a 0700 directory. The
 * trade-off (docs/architecture.md "Secrets"): anyone who can read files as
 * this OS user can read the key file too, so the file vault protects secrets
 * against a copied, synced or backed-up data directory, not against code
 * running as the user — which the OS keychain, unlocked, does not either, but
 * a keychain also encrypts at rest under the login password.
 */
export const VAULT_FILE = 'vault.enc';
const FORMAT = 'airlock-vault';
/** scrypt cost: 2^15 × 8 × 128 B = 32 MiB, ~0.1 s once per process (OWASP's scrypt minimum is N=2^17/r=8 for passwords; key files are random). */
const KDF = { name: 'scrypt', N: 2 ** 15, r: 8, p: 1 } as const;

export type KeySource =
  { kind: 'passphrase'; passphrase: string } | { kind: 'key-file'; path: string };

export interface FileVaultOptions {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}

interface Header {
  format: typeof FORMAT;
  v: 1;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  keySource: 'passphrase' | 'key-file';
  cipher: 'aes-256-gcm';
}

interface Envelope extends Header {
  nonce: string;
  tag: string;
  data: string;
}

/** Where the key file lives when AIRLOCK_VAULT_KEY_FILE is not set: per profile, outside the data dir. */
export function defaultKeyFile(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const id = profileService(dataDir).replace('airlock:', '');
  const base =
    platform === 'win32'
      ? join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Airlock Keys')
      : join(env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'), 'airlock-keys');
  return join(base, `${id}.key`);
}

export function keySource(dataDir: string, env: NodeJS.ProcessEnv = process.env): KeySource {
  const passphrase = env.AIRLOCK_VAULT_PASSPHRASE;
  if (passphrase) return { kind: 'passphrase', passphrase };
  return {
    kind: 'key-file',
    path: env.AIRLOCK_VAULT_KEY_FILE
      ? resolve(env.AIRLOCK_VAULT_KEY_FILE)
      : defaultKeyFile(dataDir, env),
  };
}

/** One sentence for `status`, the window and logs: where the key is and what that protects against. */
export function fileVaultTradeOff(source: KeySource): string {
  return source.kind === 'passphrase'
    ? 'Secrets are in an encrypted file in the data directory, keyed by AIRLOCK_VAULT_PASSPHRASE: a copy of the data directory alone reveals nothing, but anyone who can read this process environment can decrypt it.'
    : `Secrets are in an encrypted file in the data directory, keyed by the owner-only key file ${source.path}: a copy of the data directory alone reveals nothing, but anyone who can read your files can read the key too (an OS keychain also encrypts at rest under your login).`;
}

export class FileVault implements Vault {
  readonly path: string;
  readonly source: KeySource;
  private key: { salt: string; key: Buffer } | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: FileVaultOptions) {
    this.path = join(options.dataDir, VAULT_FILE);
    this.source = keySource(options.dataDir, options.env ?? process.env);
  }

  get(key: string): Promise<string | null> {
    return this.serial(async () => (await this.read()).get(key) ?? null);
  }

  set(key: string, value: string): Promise<void> {
    return this.serial(async () => {
      const map = await this.read();
      map.set(key, value);
      await this.write(map);
    });
  }

  delete(key: string): Promise<boolean> {
    return this.serial(async () => {
      const map = await this.read();
      const had = map.delete(key);
      if (had) await this.write(map);
      return had;
    });
  }

  /** Reads (and on first use creates) the vault; a wrong key fails here. */
  check(): Promise<void> {
    return this.serial(async () => {
      const map = await this.read();
      if (!existsSync(this.path)) await this.write(map);
    });
  }

  /** Every key held (for `airlock vault migrate`). */
  keys(): Promise<string[]> {
    return this.serial(async () => [...(await this.read()).keys()]);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<Map<string, string>> {
    let raw: string;
    try {
      raw = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw err;
    }
    let env: Envelope;
    try {
      env = JSON.parse(raw) as Envelope;
      if (env.format !== FORMAT || env.v !== 1) throw new Error('not an Airlock vault');
    } catch (err) {
      throw new VaultError(
        'VAULT_LOCKED',
        `The file vault ${this.path} is damaged or not an Airlock vault (${(err as Error).message}). Nothing was changed; restore it from a backup or move it aside to start empty.`,
        { cause: err },
      );
    }
    const key = await this.deriveKey(env.kdf, false);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(env.nonce, 'base64'));
      decipher.setAAD(Buffer.from(JSON.stringify(headerOf(env))));
      decipher.setAuthTag(Buffer.from(env.tag, 'base64'));
      const plain = Buffer.concat([
        decipher.update(Buffer.from(env.data, 'base64')),
        decipher.final(),
      ]).toString('utf8');
      return new Map(Object.entries(JSON.parse(plain) as Record<string, string>));
    } catch (err) {
      throw new VaultError('VAULT_LOCKED', this.wrongKeyMessage(env.keySource), { cause: err });
    }
  }

  private wrongKeyMessage(createdWith: Header['keySource']): string {
    const used =
      this.source.kind === 'passphrase'
        ? 'AIRLOCK_VAULT_PASSPHRASE'
        : `the key file ${this.source.path}`;
    const hint =
      createdWith !== this.source.kind
        ? ` It was created with ${createdWith === 'passphrase' ? 'AIRLOCK_VAULT_PASSPHRASE' : 'a key file'}: ${createdWith === 'passphrase' ? 'set AIRLOCK_VAULT_PASSPHRASE' : 'unset AIRLOCK_VAULT_PASSPHRASE (and set AIRLOCK_VAULT_KEY_FILE if the key file was moved)'}.`
        : this.source.kind === 'passphrase'
          ? ' Set AIRLOCK_VAULT_PASSPHRASE to the passphrase the vault was created with.'
          : ' Restore the key file the vault was created with (or point AIRLOCK_VAULT_KEY_FILE at it).';
    return `The file vault ${this.path} cannot be opened with ${used}: wrong passphrase or key.${hint} Nothing was changed.`;
  }

  private async write(map: Map<string, string>): Promise<void> {
    const salt = this.key?.salt ?? randomBytes(16).toString('base64');
    const header: Header = {
      format: FORMAT,
      v: 1,
      kdf: { ...KDF, salt },
      keySource: this.source.kind,
      cipher: 'aes-256-gcm',
    };
    const key = await this.deriveKey(header.kdf, true);
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(JSON.stringify(header)));
    const data = Buffer.concat([
      cipher.update(JSON.stringify(Object.fromEntries(map)), 'utf8'),
      cipher.final(),
    ]);
    const envelope: Envelope = {
      ...header,
      nonce: nonce.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    writeFileAtomic(this.path, JSON.stringify(envelope) + '\n', 0o600);
  }

  /** `create`: a missing key file may be made (a new vault), never for an existing one. */
  private async deriveKey(kdf: Header['kdf'], create: boolean): Promise<Buffer> {
    if (this.key?.salt === kdf.salt) return this.key.key;
    if (kdf.name !== 'scrypt') throw new VaultError('VAULT_LOCKED', `Unknown KDF ${kdf.name}.`);
    const secret = this.secret(create);
    const key = await new Promise<Buffer>((resolve, reject) =>
      scrypt(
        secret,
        Buffer.from(kdf.salt, 'base64'),
        32,
        { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r },
        (err, k) => (err ? reject(err) : resolve(k)),
      ),
    );
    this.key = { salt: kdf.salt, key };
    return key;
  }

  private secret(create: boolean): string {
    if (this.source.kind === 'passphrase') return this.source.passphrase;
    const path = this.source.path;
    if (!existsSync(path) && !create)
      throw new VaultError(
        'VAULT_LOCKED',
        `The file vault ${this.path} needs its key file ${path}, which is missing. Restore it (or point AIRLOCK_VAULT_KEY_FILE at it, or set AIRLOCK_VAULT_PASSPHRASE if the vault was made with one). Nothing was changed.`,
      );
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      // 'wx': never replace a key file that appeared meanwhile.
      writeFileSync(path, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    }
    if (process.platform !== 'win32') {
      const mode = statSync(path).mode & 0o777;
      if (mode & 0o077) {
        // Owner-only, as ssh does for private keys: tighten rather than refuse.
        chmodSync(path, 0o600);
      }
    }
    const text = readFileSync(path, 'utf8').trim();
    if (text.length < 32)
      throw new VaultError(
        'VAULT_LOCKED',
        `The vault key file ${path} is too short (it must hold at least 32 characters of random data).`,
      );
    return text;
  }
}

function headerOf(e: Envelope): Header {
  return { format: e.format, v: e.v, kdf: e.kdf, keySource: e.keySource, cipher: e.cipher };
}
