import { createHash } from 'node:crypto';
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import { VaultError, type Vault } from './vault.js';

/**
 * OS keychain backend: macOS Keychain, Windows Credential Manager, Linux
 * Secret Service, through @napi-rs/keyring (N-API prebuilt, no compile step).
 *
 * Linux is pinned to Secret Service: the default falls back to the kernel
 * keyring when no Secret Service runs, which then "works" until reboot and
 * loses every secret (docs/architecture.md "Secrets").
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
    for (let attempt = 0; ; attempt++) {
      try {
        return await op(this.entryFactory(this.service, key));
      } catch (err) {
        // Every operation is safe to repeat: a write replaces the item, a read
        // reads it again. A delete that landed before the daemon died answers
        // "there was none" the second time, which leaves the same state.
        if (attempt < DAEMON_RESTART_RETRIES && daemonDiedMidCall(err)) continue;
        throw classifyKeyringError(err);
      }
    }
  }
}

/**
 * How many times one operation is tried again after the Secret Service died
 * while answering it. More than one: gnome-keyring-daemon can die again on
 * the next client that hangs up mid-request.
 */
const DAEMON_RESTART_RETRIES = 2;

/**
 * True when the keychain daemon's D-Bus connection closed while our call was
 * pending. The bus then answers the call itself with
 * org.freedesktop.DBus.Error.NoReply ("Message recipient disconnected from
 * message bus without replying"), and the next call to the well-known name
 * org.freedesktop.secrets starts the service again by D-Bus activation (D-Bus
 * specification, "Message Bus Starting Services (Activation)"). That happens
 * on real desktops: gnome-keyring-daemon aborts when another client hangs up
 * in the middle of opening a session ("gkd_secret_service_get_pkcs11_session:
 * assertion 'client' failed", then a GLib-ERROR in g_variant_new). Before
 * this retry, one such abort failed whichever Airlock call was in flight with
 * KEYCHAIN_UNAVAILABLE, and at startup made Airlock pick the file vault.
 */
function daemonDiedMidCall(err: unknown): boolean {
  // Matched on the bus's own sentence, not the error name: libdbus also uses
  // NoReply for a call that timed out, and repeating a 25 s wait helps no one.
  return /disconnected from message bus without replying/i.test(describe(err));
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
    `The OS keychain is not available (${oneLine(text)}). ${keychainFix()}`,
    { cause: err },
  );
}

/** What to do about a missing keychain, for this platform (issue 19, item 4). */
export function keychainFix(platform: NodeJS.Platform = process.platform): string {
  const fileVault =
    'or use the encrypted file vault instead: set AIRLOCK_VAULT_PASSPHRASE (or let Airlock create a key file) and run with --vault file (see docs/architecture.md "Secrets").';
  if (platform === 'linux')
    return (
      'Airlock needs a Secret Service on the session D-Bus. Install one (Debian/Ubuntu: sudo apt-get install gnome-keyring libsecret-1-0 dbus-x11) ' +
      'and run Airlock inside a desktop session or under dbus-run-session with gnome-keyring-daemon --unlock, ' +
      fileVault
    );
  if (platform === 'darwin')
    return `Run Airlock as a logged-in macOS user (the login Keychain is not reachable from a bare SSH or launchd daemon session), ${fileVault}`;
  if (platform === 'win32')
    return `Run Airlock as a logged-in Windows user (Credential Manager needs a user profile), ${fileVault}`;
  return `This platform has no supported OS keychain; ${fileVault}`;
}

function describe(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 5; depth++) {
    const text = cur instanceof Error ? cur.message : String(cur);
    // Backends repeat their cause inside their own message; say each thing once.
    if (!parts.some((p) => p.includes(text))) parts.push(text);
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return parts.join(': ');
}

/** The whole backend text on one line: never cut (issue 19: a cut message hid the cause). */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
