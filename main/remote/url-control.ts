import type { RemoteInput, RemotePatch } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import type { RemoteSettings, SettingsStore } from '../platform/settings.js';
import type { Vault } from '../platform/vault/vault.js';
import { deleteSecrets, readSecrets, writeSecrets } from './secrets.js';
import { hasUrlSecrets, splitUrlSecrets } from '../platform/url-secrets.js';
import { validateHeaders, validateRemoteUrl, validateToken } from './validate.js';

/**
 * The URL-server half of RemoteControl's add and update (issue 4; the local-server half is
 * stdio/stdio-control.ts). Secrets — the bearer token, header values and the credentials of the
 * URL's query string (issue 29, item 5) — go to the vault before settings change, so a keychain
 * failure leaves both as they were; settings keep the URL with those credentials masked.
 */
export interface UrlControlDeps {
  settings: SettingsStore;
  vault: Vault;
}

export async function addUrl(d: UrlControlDeps, name: string, input: RemoteInput): Promise<void> {
  const url = validateRemoteUrl(input.url);
  if (input.urlSecret !== undefined && typeof input.urlSecret !== 'boolean')
    throw new ControlError('INVALID', 'urlSecret must be true or false.');
  const whole = input.urlSecret === true;
  const { url: masked, secrets: query } = splitUrlSecrets(url.href, [], whole);
  const headers = validateHeaders(input.headers);
  const bearer = input.bearerToken === undefined ? null : validateToken(input.bearerToken);
  const clash = d.settings.get().remotes.find((r) => r.name.toLowerCase() === name.toLowerCase());
  if (clash)
    throw new ControlError(
      'CONFLICT',
      `A server named "${clash.name}" already exists. Remove it first, or pick another name.`,
    );
  await writeSecrets(d.vault, name, { bearer, headers, query });
  try {
    d.settings.update((s) => {
      s.remotes.push({
        name,
        url: masked,
        ...(whole ? { urlSecret: true } : {}),
        enabled: true,
        relay: true,
        headerNames: Object.keys(headers),
        hasToken: bearer !== null,
        createdAt: new Date().toISOString(),
        ...(typeof input.origin === 'string' && input.origin ? { origin: input.origin } : {}),
      });
    });
  } catch (err) {
    await deleteSecrets(d.vault, name).catch(() => {});
    throw new ControlError('INVALID', err instanceof Error ? err.message : String(err));
  }
}

export async function updateUrl(
  d: UrlControlDeps,
  cfg: RemoteSettings,
  patch: RemotePatch,
): Promise<void> {
  let url: { masked: string; query: ReturnType<typeof splitUrlSecrets>['secrets'] } | undefined;
  if (patch.url !== undefined) {
    // A MASK sent back (the edit form shows the masked URL) keeps the stored value.
    const stored = (await readSecrets(d.vault, cfg.name)).query;
    const split = splitUrlSecrets(validateRemoteUrl(patch.url).href, stored, cfg.urlSecret);
    url = { masked: split.url, query: split.secrets };
  }
  if (patch.enabled !== undefined && typeof patch.enabled !== 'boolean')
    throw new ControlError('INVALID', 'enabled must be true or false.');
  const headers = patch.headers === undefined ? undefined : validateHeaders(patch.headers);
  const bearer =
    patch.bearerToken === undefined
      ? undefined
      : patch.bearerToken === null
        ? null
        : validateToken(patch.bearerToken);
  await writeSecrets(d.vault, cfg.name, {
    ...(headers !== undefined ? { headers } : {}),
    ...(bearer !== undefined ? { bearer } : {}),
    ...(url !== undefined ? { query: url.query } : {}),
  });
  d.settings.update((s) => {
    const r = s.remotes.find((x) => x.name === cfg.name)!;
    if (url !== undefined && url.masked !== r.url) {
      r.url = url.masked;
      // Another URL is another server: where it is gets recorded at its first connection
      // (address-pin.ts). Asked of the user first (remote-loosening.ts, "point … at").
      delete r.reach;
    }
    if (patch.enabled !== undefined) r.enabled = patch.enabled;
    if (patch.relay !== undefined) r.relay = patch.relay;
    if (headers !== undefined) r.headerNames = Object.keys(headers);
    if (bearer !== undefined) r.hasToken = bearer !== null;
  });
}

/**
 * A settings file from before issue 29 (query credentials) or from before path credentials were moved (segments that
 * look like tokens) may hold a URL with its credential in the clear: moved to the vault on start,
 * once — the vault first, then settings in one atomic write (SettingsStore.update), so a crash
 * between leaves the URL as it was with its values stored too, and the next start finishes. A
 * vault that cannot take it now leaves the URL as it was (it still connects) and says so; the
 * next start tries again.
 */
export async function moveUrlSecrets(d: UrlControlDeps & { logger: Logger }): Promise<void> {
  for (const r of d.settings.get().remotes) {
    if (r.stdio || !hasUrlSecrets(r.url, r.urlSecret)) continue;
    try {
      const stored = (await readSecrets(d.vault, r.name)).query;
      const split = splitUrlSecrets(r.url, stored, r.urlSecret);
      await writeSecrets(d.vault, r.name, { query: split.secrets });
      d.settings.update((s) => {
        const x = s.remotes.find((y) => y.name === r.name);
        if (x) x.url = split.url;
      });
      d.logger.info('moved the credentials in a server URL to the vault', { server: r.name });
    } catch (err) {
      d.logger.warn('could not move the credentials in a server URL to the vault', {
        server: r.name,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
}
