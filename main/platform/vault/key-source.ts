import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createFileAtomic, syncDir } from '../atomic-file.js';
import { profileService } from './keyring-vault.js';
import { VaultError } from './vault.js';

/**
 * Where the file vault's key comes from (file-vault.ts): AIRLOCK_VAULT_PASSPHRASE when set,
 * otherwise a key file (AIRLOCK_VAULT_KEY_FILE, default outside the data directory), created on
 * first use with 32 random bytes, mode 0600 in a 0700 directory.
 */
export type KeySource =
  { kind: 'passphrase'; passphrase: string } | { kind: 'key-file'; path: string };

/**
 * A new vault's passphrase must have at least this many characters (issue 27, item 2). NIST SP
 * 800-63B asks for 8 at the very least and 15 where the secret is the only factor; 12 is the
 * usual compromise for a passphrase that guards a file an attacker can copy and attack offline.
 * Existing vaults made with a shorter one still open.
 */
export const MIN_PASSPHRASE = 12;

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

/**
 * The secret the key is derived from. `create`: this is a new vault, so a missing key file may
 * be made and a passphrase must be long enough; an existing vault never gets a new key file.
 */
export function readSecret(source: KeySource, vaultPath: string, create: boolean): string {
  if (source.kind === 'passphrase') {
    // "No vault was made", not "Nothing was written": a first start has already made the data
    // directory, its logs and an empty database (app.ts opens it while the vault answers).
    if (create && [...source.passphrase].length < MIN_PASSPHRASE)
      throw new VaultError(
        'VAULT_LOCKED',
        `AIRLOCK_VAULT_PASSPHRASE is too short for a new vault: use at least ${MIN_PASSPHRASE} characters (a few random words), or unset it and Airlock keeps an owner-only key file instead. No vault was made and no secret written.`,
      );
    return source.passphrase;
  }
  const path = source.path;
  if (!existsSync(path) && !create)
    throw new VaultError(
      'VAULT_LOCKED',
      `The file vault ${vaultPath} needs its key file ${path}, which is missing. Restore it (or point AIRLOCK_VAULT_KEY_FILE at it, or set AIRLOCK_VAULT_PASSPHRASE if the vault was made with one). Nothing was changed.`,
    );
  if (!existsSync(path)) createKeyFile(path);
  if (process.platform !== 'win32') {
    const mode = statSync(path).mode & 0o777;
    // Owner-only, as ssh does for private keys: tighten rather than refuse.
    if (mode & 0o077) chmodSync(path, 0o600);
  }
  const text = readFileSync(path, 'utf8').trim();
  if (text.length < 32)
    throw new VaultError(
      'VAULT_LOCKED',
      create
        ? `The vault key file ${path} is ${text ? 'too short' : 'empty'} (it must hold at least 32 characters of random data), and no vault uses it yet (${vaultPath} does not exist), so nothing is lost: delete it and Airlock makes a new one, or fill it with "openssl rand -base64 32 > ${path}". No vault was made and no secret written.`
        : `The vault key file ${path} is ${text ? 'too short' : 'empty'} (it must hold at least 32 characters of random data), so ${vaultPath} cannot be opened: restore the key file from a backup (or point AIRLOCK_VAULT_KEY_FILE at it). Nothing was changed.`,
    );
  return text;
}

/**
 * A new key file: 32 random bytes, base64 (vault-kdf.ts keyMaterial: the form HKDF is used for),
 * owner-only in an owner-only folder. Published whole or not at all and never over a key file
 * that appeared meanwhile (createFileAtomic): a crash mid-way used to be able to leave an empty
 * key file, and with it a vault nobody could open.
 */
export function createKeyFile(
  path: string,
  hooks: Parameters<typeof createFileAtomic>[3] & { syncDir?: typeof syncDir } = {},
): void {
  const folder = dirname(path);
  const made = mkdirSync(folder, { recursive: true, mode: 0o700 });
  // Folders made just now are made durable too (each one's entry in its parent fsynced): else a
  // power cut could keep the vault written next and lose the new folder, and the key with it.
  if (made)
    for (let d = folder; ; d = dirname(d)) {
      (hooks.syncDir ?? syncDir)(d);
      if (d === made || d === dirname(d)) break;
    }
  createFileAtomic(path, randomBytes(32).toString('base64') + '\n', 0o600, hooks);
}
