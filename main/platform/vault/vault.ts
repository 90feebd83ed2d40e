/**
 * The Vault holds every secret Airlock keeps: agent tokens, the control token,
 * Google and remote-server credentials: in the OS keychain (keyring-vault.ts)
 * or, where there is none, the encrypted file vault (file-vault.ts; chosen in
 * select.ts). Nothing secret is ever written to the data directory in the
 * clear; settings and SQLite hold references only.
 *
 * A vault never answers "no secret" when it cannot actually tell: a missing or
 * locked keychain is an explicit VaultError, so callers cannot mistake an
 * outage for an empty store (a locked Secret Service returns null for reads;
 * docs/architecture.md "Secrets").
 */
export type VaultErrorCode = 'KEYCHAIN_UNAVAILABLE' | 'VAULT_LOCKED';

export class VaultError extends Error {
  readonly code: VaultErrorCode;
  constructor(code: VaultErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VaultError';
    this.code = code;
  }
}

export function isVaultError(err: unknown): err is VaultError {
  return err instanceof VaultError;
}

export interface Vault {
  /** Returns the secret, or null when the vault is reachable and there is none. */
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  /** Returns whether something was deleted. */
  delete(key: string): Promise<boolean>;
  /** Verifies the backend is reachable and unlocked; throws VaultError otherwise. */
  check(): Promise<void>;
}

/** In-process vault for unit tests of code that needs a Vault but not a keychain. */
export class MemoryVault implements Vault {
  private readonly entries = new Map<string, string>();
  /** Test hook: when set, every operation throws this error. */
  failure: VaultError | null = null;

  async get(key: string): Promise<string | null> {
    this.throwIfFailing();
    return this.entries.get(key) ?? null;
  }
  async set(key: string, value: string): Promise<void> {
    this.throwIfFailing();
    this.entries.set(key, value);
  }
  async delete(key: string): Promise<boolean> {
    this.throwIfFailing();
    return this.entries.delete(key);
  }
  async check(): Promise<void> {
    this.throwIfFailing();
  }
  private throwIfFailing(): void {
    if (this.failure) throw this.failure;
  }
}
