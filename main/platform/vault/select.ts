import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FileVault, fileVaultTradeOff, VAULT_FILE } from './file-vault.js';
import { KeyringVault } from './keyring-vault.js';
import type { KdfParams } from './vault-format.js';
import { isVaultError, type VaultError, type Vault } from './vault.js';

export type VaultChoice = 'keychain' | 'file' | 'auto';

/** Which vault a profile uses and why; shown by `status`, the window and the logs. */
export interface VaultInfo {
  kind: 'keychain' | 'file';
  /** Why this one (forced, the keychain is missing, the profile already has a file vault). */
  why: string;
  /** The file vault's trade-off in one sentence; absent for the keychain. */
  tradeOff?: string;
}

export function parseVaultChoice(value: string | undefined): VaultChoice {
  if (value === undefined || value === '' || value === 'auto') return 'auto';
  if (value === 'keychain' || value === 'file') return value;
  throw new Error(`--vault must be keychain, file or auto (got "${value}").`);
}

export interface SelectedVaultOptions {
  dataDir: string;
  /** --vault; defaults to AIRLOCK_VAULT, then auto. */
  choice?: VaultChoice;
  env?: NodeJS.ProcessEnv;
  /** Test hooks: the keychain, and the file vault's scrypt parameters (file-vault.ts). */
  keychain?: Vault;
  fileKdf?: KdfParams;
  /**
   * Told once when auto falls back to the file vault: one short sentence for the log (issue 29,
   * item 9), and the keychain's own error text, which is long (D-Bus) and only for debugging.
   */
  onFallback?: (message: string, keychainError: string) => void;
}

/**
 * The vault a profile uses (issue 19, item 2). The OS keychain is the default
 * wherever one exists. `auto` picks, on first use:
 *   1. the file vault if the data dir already has one (its secrets live there;
 *      `airlock vault migrate` moves them back);
 *   2. the OS keychain if it answers;
 *   3. the file vault, saying so, when the keychain is unavailable (no Secret
 *      Service). A *locked* keychain is an error, never a reason to switch.
 */
export class SelectedVault implements Vault {
  private chosen: { vault: Vault; info: VaultInfo } | null = null;
  private choosing: Promise<{ vault: Vault; info: VaultInfo }> | null = null;
  private readonly choice: VaultChoice;
  private readonly env: NodeJS.ProcessEnv;
  /** Why the keychain was passed over, for the log. */
  keychainError: string | null = null;

  constructor(private readonly o: SelectedVaultOptions) {
    this.env = o.env ?? process.env;
    this.choice = o.choice ?? parseVaultChoice(this.env.AIRLOCK_VAULT);
  }

  /** Null until the first operation has chosen. */
  info(): VaultInfo | null {
    return this.chosen?.info ?? null;
  }

  async get(key: string): Promise<string | null> {
    return (await this.pick()).get(key);
  }
  async set(key: string, value: string): Promise<void> {
    return (await this.pick()).set(key, value);
  }
  async delete(key: string): Promise<boolean> {
    return (await this.pick()).delete(key);
  }
  async check(): Promise<void> {
    return (await this.pick()).check();
  }

  private async pick(): Promise<Vault> {
    if (this.chosen) return this.chosen.vault;
    this.choosing ??= this.decide();
    this.chosen = await this.choosing.catch((err: unknown) => {
      this.choosing = null;
      throw err;
    });
    return this.chosen.vault;
  }

  private async decide(): Promise<{ vault: Vault; info: VaultInfo }> {
    const { dataDir } = this.o;
    const file = () =>
      new FileVault({ dataDir, env: this.env, ...(this.o.fileKdf ? { kdf: this.o.fileKdf } : {}) });
    const asFile = (why: string) => {
      const vault = file();
      return {
        vault,
        info: { kind: 'file' as const, why, tradeOff: fileVaultTradeOff(vault.source) },
      };
    };
    const keychain = this.o.keychain ?? new KeyringVault({ dataDir });
    if (this.choice === 'file') return asFile('chosen with --vault file (or AIRLOCK_VAULT=file)');
    if (this.choice === 'keychain')
      return { vault: keychain, info: { kind: 'keychain', why: 'chosen with --vault keychain' } };
    if (existsSync(join(dataDir, VAULT_FILE)))
      return asFile(
        `this data directory has a file vault (${VAULT_FILE}); "airlock vault migrate --to keychain" moves it to the OS keychain`,
      );
    try {
      await keychain.check();
      return { vault: keychain, info: { kind: 'keychain', why: 'the OS keychain is available' } };
    } catch (err) {
      if (!(isVaultError(err) && err.code === 'KEYCHAIN_UNAVAILABLE')) throw err;
      const chosen = asFile('no OS keychain is available here');
      this.keychainError = (err as VaultError).message;
      this.o.onFallback?.(
        `No OS keychain here: secrets are kept in the encrypted file vault ${chosen.vault.path} ("airlock status" says what that protects).`,
        this.keychainError,
      );
      return chosen;
    }
  }
}
