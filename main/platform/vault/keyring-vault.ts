import { createHash } from 'node:crypto';
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import { VaultError, type Vault } from './vault.js';

/**
 * OS keychain backend: macOS Keychain, Windows Credential Manager, Linux
 * Secret Service, through @napi-rs/keyring (N-API prebuilt, no compile step).
 *
 * Linux is pinned to Secret Service: the default falls back to the kernel
 * keyring when no Secret Service runs, which then "works" until reboot and
 * loses every secret (FIELD-NOTES, "These machines").
 */
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

/** Written once per profile; re-written whenever a read comes back empty. */
const SENTINEL_KEY = '__airlock_vault_sentinel__';

export interface KeyringVaultOptions {
  /** Absolute data directory; secrets are namespaced by it so profiles never share one. */
  dataDir: string;
  /** Test hook: replaces @napi-rs/keyring's AsyncEntry. */
  entryFactory?: (service: string, account: string) => KeyringEntry;
}

export interface KeyringEntry {
  getPassword(): Promise<string | null>;
  setPassword(value: string): Promise<void>;
  deletePassword(): Promise<boolean>;
}

export function profileService(dataDir: string): string {
  const id = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return `airlock:${id}`;
}

export class KeyringVault implements Vault {
  readonly service: string;
  private readonly entryFactory: (service: string, account: string) => KeyringEntry;

  constructor(options: KeyringVaultOptions) {
    this.service = profileService(options.dataDir);
    this.entryFactory =
      options.entryFactory ??
      ((service, account) => new AsyncEntry(service, account, ENTRY_OPTIONS));
  }

  async get(key: string): Promise<string | null> {
    const value = await this.run(key, (e) => e.getPassword());
    if (value !== null) return value;
    // A locked Secret Service answers null for items it cannot show. Only a
    // write proves the collection is unlocked, so confirm before saying "none".
    await this.check();
    return null;
  }

  async set(key: string, value: string): Promise<void> {
    await this.run(key, (e) => e.setPassword(value));
  }

  async delete(key: string): Promise<boolean> {
    return this.run(key, (e) => e.deletePassword());
  }

  async check(): Promise<void> {
    await this.run(SENTINEL_KEY, (e) => e.setPassword('ok'));
  }

  private async run<T>(key: string, op: (entry: KeyringEntry) => Promise<T>): Promise<T> {
    try {
      return await op(this.entryFactory(this.service, key));
    } catch (err) {
      throw classifyKeyringError(err);
    }
  }
}

/** Maps the backend's free-text failures onto the two states callers act on. */
export function classifyKeyringError(err: unknown): VaultError {
  if (err instanceof VaultError) return err;
  const text = describe(err);
  if (/unlock prompt|locked|dismissed|user cancel/i.test(text)) {
    return new VaultError(
      'VAULT_LOCKED',
      'The OS keychain is locked. Unlock it (log in to your desktop session or unlock the "login" keyring) and try again.',
      { cause: err },
    );
  }
  return new VaultError(
    'KEYCHAIN_UNAVAILABLE',
    `The OS keychain is not available (${firstLine(text)}). On Linux, Airlock needs a Secret Service such as gnome-keyring running in your session.`,
    { cause: err },
  );
}

function describe(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 5; depth++) {
    parts.push(cur instanceof Error ? cur.message : String(cur));
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return parts.join(': ');
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 200);
}
