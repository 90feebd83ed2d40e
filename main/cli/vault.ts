import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { accountKey } from '../google/token-store.js';
import { CLIENT_SECRET_KEY } from '../google/client-config.js';
import { oauthKey } from '../remote/oauth/store.js';
import { bearerKey, headersKey, queryKey } from '../remote/secrets.js';
import { envKey } from '../remote/stdio/stdio-config.js';
import { dataPaths, resolveDataDir } from '../platform/paths.js';
import { SettingsStore, type Settings } from '../platform/settings.js';
import { FileVault, fileVaultTradeOff, VAULT_FILE } from '../platform/vault/file-vault.js';
import { KeyringVault } from '../platform/vault/keyring-vault.js';
import type { Vault } from '../platform/vault/vault.js';
import { runningServer } from './context.js';

/** Every vault key a profile can have, from its settings (the OS keychain cannot be listed portably). */
export function knownSecretKeys(s: Settings): string[] {
  return [
    'control-token',
    CLIENT_SECRET_KEY,
    ...s.agents.map((a) => `agent:${a.name}`),
    ...s.google.accounts.map((a) => accountKey(a.email)),
    ...s.remotes.flatMap((r) => [
      bearerKey(r.name),
      headersKey(r.name),
      queryKey(r.name),
      oauthKey(r.name),
      envKey(r.name),
    ]),
  ];
}

/**
 * `airlock vault migrate --to file|keychain` (issue 19, item 2): copies every
 * secret, reads each back from the target, and only then removes the source
 * (the file, or the keychain entries). Values are never printed.
 */
export async function vaultMigrate(o: { dataDir?: string; to?: string }): Promise<number> {
  if (o.to !== 'file' && o.to !== 'keychain') throw new Error('Give --to file or --to keychain.');
  const dataDir = resolveDataDir(o.dataDir);
  const running = runningServer(dataDir);
  if (running)
    throw new Error(
      `Airlock is running for this data directory (pid ${running.pid}); stop it first, then migrate.`,
    );
  const file = new FileVault({ dataDir });
  const keychain = new KeyringVault({ dataDir });
  const fileExists = existsSync(join(dataDir, VAULT_FILE));
  const [from, to]: [Vault, Vault] = o.to === 'file' ? [keychain, file] : [file, keychain];
  if (o.to === 'keychain' && !fileExists)
    throw new Error(
      `There is no file vault in ${dataDir}: the secrets are already in the keychain.`,
    );
  if (o.to === 'file' && fileExists)
    throw new Error(
      `${join(dataDir, VAULT_FILE)} already exists: this profile already uses the file vault.`,
    );
  await from.check();
  await to.check();
  const keys = new Set(knownSecretKeys(new SettingsStore(dataPaths(dataDir).settings).get()));
  if (from instanceof FileVault) for (const k of await from.keys()) keys.add(k);
  let moved = 0;
  for (const key of keys) {
    const value = await from.get(key);
    if (value === null) continue;
    await to.set(key, value);
    if ((await to.get(key)) !== value)
      throw new Error(`Could not verify ${key} in the target vault; nothing was removed.`);
    moved++;
  }
  // Only now, with every secret verified in the target, empty the source.
  if (from instanceof FileVault) rmSync(from.path, { force: true });
  else for (const key of keys) await from.delete(key);
  process.stdout.write(
    `Moved ${moved} secret${moved === 1 ? '' : 's'} to the ${o.to === 'file' ? `file vault ${file.path}` : 'OS keychain'}.\n` +
      (o.to === 'file'
        ? `${fileVaultTradeOff(file.source)}\nStart Airlock as before; it finds the file vault by itself.\n`
        : 'Start Airlock as before; it uses the OS keychain again.\n'),
  );
  return 0;
}
