import { timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { releaseTemp, removeStaleTemps, syncDir, writeTempFile } from '../atomic-file.js';
import { keySource, readSecret, type KeySource } from './key-source.js';
import { VaultError, type Vault } from './vault.js';
import { FORMAT, parseEnvelope, seal, unseal, type Envelope, type Header } from './vault-format.js';
import {
  assertKdf,
  derive,
  freshKdf,
  KDF_DEFAULTS,
  kdfTarget,
  meetsTarget,
  sameKdf,
  type KdfHeader,
  type KdfParams,
} from './vault-kdf.js';

export {
  defaultKeyFile,
  fileVaultTradeOff,
  keySource,
  MIN_PASSPHRASE,
  type KeySource,
} from './key-source.js';

/**
 * The encrypted file vault (issue 19, item 2) for machines without an OS
 * keychain: headless servers, containers, CI. The format (AES-256-GCM, the
 * header as additional data) is vault-format.ts; the KDF (HKDF-SHA256 for a
 * key file of Airlock's key material, scrypt for a passphrase or any other
 * key file, bounded parameters) vault-kdf.ts; the key's source (passphrase or
 * key file) key-source.ts.
 *
 * Every write (issue 27, item 2):
 * - decrypts the current file first, so a wrong key fails before anything is
 *   written, and reads the key file again: one that no longer gives that key
 *   (replaced while Airlock runs) stops the write (assertOpens);
 * - encrypts under a key derived with exactly the KDF the header names: the
 *   file's own while it is today's for this secret (vault-kdf.ts kdfTarget),
 *   else today's with a fresh salt (re-keying: an older scrypt key-file vault
 *   becomes HKDF) — never a key from one KDF under another's header;
 * - goes to a temp file (0600, fsynced), which is opened again and must
 *   decrypt to the same map: with the key that has just opened the current
 *   file when the header names the same parameters and salt, else (a new
 *   vault, a re-key) with a key derived afresh from the passphrase or key
 *   file; only then is it renamed over the old file. A crash at any point
 *   leaves the old file or the new one, each readable with the same key.
 *
 * The trade-off (docs/architecture.md "Secrets"): anyone who can read files as
 * this OS user can read the key file too, so the file vault protects secrets
 * against a copied, synced or backed-up data directory, not against code
 * running as the user — which the OS keychain, unlocked, does not either, but
 * a keychain also encrypts at rest under the login password.
 */
export const VAULT_FILE = 'vault.enc';

export interface FileVaultOptions {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  /**
   * scrypt parameters for new vaults and re-keying where scrypt is used (default KDF_DEFAULTS;
   * tests pass the cheapest allowed). A key file of Airlock's key material always gets HKDF.
   */
  kdf?: KdfParams;
  /** Test hooks: after the temp file is written; before it is renamed into place. */
  afterWrite?: (tmp: string) => void;
  beforeRename?: (tmp: string) => void;
}

export class FileVault implements Vault {
  readonly path: string;
  readonly source: KeySource;
  private readonly scrypt: KdfParams;
  /**
   * The key, the exact parameters it was derived with, and the secret it was derived from;
   * reused only for those parameters. `proven`: it has opened the file on disk (so the
   * passphrase or key file really gives it for that header).
   */
  private key: { kdf: KdfHeader; key: Buffer; proven: boolean; secret: string } | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: FileVaultOptions) {
    this.path = join(o.dataDir, VAULT_FILE);
    this.source = keySource(o.dataDir, o.env ?? process.env);
    this.scrypt = assertKdf(o.kdf ?? KDF_DEFAULTS[this.source.kind]);
  }

  get(key: string): Promise<string | null> {
    return this.serial(async () => (await this.read()).map.get(key) ?? null);
  }

  set(key: string, value: string): Promise<void> {
    return this.serial(async () => {
      const { map, kdf } = await this.read();
      map.set(key, value);
      await this.write(map, kdf);
    });
  }

  delete(key: string): Promise<boolean> {
    return this.serial(async () => {
      const { map, kdf } = await this.read();
      const had = map.delete(key);
      if (had) await this.write(map, kdf);
      return had;
    });
  }

  /** Reads (and on first use creates) the vault; a wrong key fails here. */
  check(): Promise<void> {
    return this.serial(async () => {
      const { map, kdf } = await this.read();
      if (!kdf) await this.write(map, null);
    });
  }

  /** Every key held (for `airlock vault migrate`). */
  keys(): Promise<string[]> {
    return this.serial(async () => [...(await this.read()).map.keys()]);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The secret map, and the file's KDF header (null: there is no file yet). */
  private async read(): Promise<{ map: Map<string, string>; kdf: KdfHeader | null }> {
    let raw: string;
    try {
      raw = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { map: new Map(), kdf: null };
      throw err;
    }
    const env = parseEnvelope(raw, this.path);
    const key = await this.keyFor(env.kdf);
    const map = this.open(env, key);
    if (this.key?.key === key) this.key.proven = true;
    return { map, kdf: env.kdf };
  }

  private open(env: Envelope, key: Buffer): Map<string, string> {
    try {
      return unseal(env, key);
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

  /** `current`: the KDF header of the file just read, or null for a new vault. */
  private async write(map: Map<string, string>, current: KdfHeader | null): Promise<void> {
    // Read (for a new vault: made) now, as the key file's content decides the KDF.
    const secret = readSecret(this.source, this.path, current === null);
    if (current) await this.assertOpens(current, secret);
    const target = kdfTarget(this.source.kind, secret, this.scrypt);
    // The file's own KDF while it is today's; else today's with a fresh salt (re-key).
    const kdf = current && meetsTarget(current, target) ? current : freshKdf(target);
    const header: Header = {
      format: FORMAT,
      v: 1,
      kdf,
      keySource: this.source.kind,
      cipher: 'aes-256-gcm',
    };
    const text = seal(map, header, await this.keyFor(kdf, secret));
    const tmp = writeTempFile(this.path, text, 0o600);
    try {
      this.o.afterWrite?.(tmp);
      await this.verify(tmp, map);
      this.o.beforeRename?.(tmp);
      renameSync(tmp, this.path);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    } finally {
      releaseTemp(tmp);
    }
    syncDir(this.path);
    // A crashed write's temp holds the secrets as they were then, removed ones included.
    removeStaleTemps(this.path);
  }

  /** Opens the written file as the next start will: parsed, its key found from its header, decrypted. */
  private async verify(tmp: string, expected: Map<string, string>): Promise<void> {
    let got: Map<string, string>;
    try {
      const env = parseEnvelope(readFileSync(tmp, 'utf8'), tmp);
      const k = this.key;
      const key =
        k?.proven && sameKdf(k.kdf, env.kdf)
          ? k.key
          : // Afresh from the passphrase or the key file as it is on disk now: what the next start does.
            await this.derive(readSecret(this.source, this.path, false), env.kdf);
      got = unseal(env, key);
    } catch (err) {
      throw new VaultError(
        'VAULT_LOCKED',
        `Airlock could not open the vault it was about to write (${(err as Error).message}), so it kept ${this.path} as it was. Nothing was changed.`,
        { cause: err },
      );
    }
    const same = got.size === expected.size && [...expected].every(([k, v]) => got.get(k) === v);
    if (!same)
      throw new VaultError(
        'VAULT_LOCKED',
        `Airlock could not open the vault it was about to write (its contents differ), so it kept ${this.path} as it was. Nothing was changed.`,
      );
  }

  /**
   * A write only goes ahead while the key file on disk still gives the key that has just opened
   * the current file (`current`, read() having just proven it). A key file replaced while
   * Airlock runs would otherwise either be ignored (the cached key seals the file: the next start,
   * reading the new key file, cannot open it) or, on a re-key, silently adopted (the vault moves
   * to the new key file, and putting the old one back locks the user out). Either way nothing is
   * written; the same text costs nothing to check, other text one derivation.
   */
  private async assertOpens(current: KdfHeader, secret: string): Promise<void> {
    const k = this.key;
    if (k?.proven && sameKdf(k.kdf, current) && k.secret === secret) return;
    const key = await derive(secret, current).catch(() => null);
    if (k?.proven && sameKdf(k.kdf, current) && key && timingSafeEqual(key, k.key)) return;
    const what =
      this.source.kind === 'passphrase'
        ? 'AIRLOCK_VAULT_PASSPHRASE'
        : `the key file ${this.source.path}`;
    throw new VaultError(
      'VAULT_LOCKED',
      `${what} changed while Airlock was running and no longer opens the file vault ${this.path}, so Airlock wrote nothing. Put back the key file the vault was opened with (or point AIRLOCK_VAULT_KEY_FILE at it) and try again. Nothing was changed.`,
    );
  }

  /**
   * The key for exactly this KDF and salt; `secret`: already read (a write), else read here from
   * the existing vault's passphrase or key file.
   */
  private async keyFor(kdf: KdfHeader, secret?: string): Promise<Buffer> {
    if (this.key && sameKdf(this.key.kdf, kdf)) return this.key.key;
    const text = secret ?? readSecret(this.source, this.path, false);
    const key = await this.derive(text, kdf);
    this.key = { kdf: { ...kdf }, key, proven: false, secret: text };
    return key;
  }

  private async derive(secret: string, kdf: KdfHeader): Promise<Buffer> {
    // HKDF is only for a key file (vault-format.ts refuses such a header with a passphrase key
    // source); a passphrase is never put through it, whatever the header says.
    if (kdf.name === 'hkdf-sha256' && this.source.kind !== 'key-file')
      throw new VaultError('VAULT_LOCKED', this.wrongKeyMessage('key-file'));
    try {
      return await derive(secret, kdf);
    } catch (err) {
      throw new VaultError('VAULT_LOCKED', this.wrongKeyMessage(this.source.kind), { cause: err });
    }
  }
}
