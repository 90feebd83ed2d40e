import type { RemoteSettings } from '../platform/settings.js';
import type { Vault } from '../platform/vault/vault.js';
import type { RemoteConnection } from './remote-source.js';
import { oauthKey } from './oauth/store.js';
import { joinUrlSecrets, urlSecretValues, type UrlSecret } from '../platform/url-secrets.js';

/**
 * Vault layout of a remote server's secrets. Settings hold only the header
 * names and `hasToken`; the values live here:
 *   remote:<name>:bearer   the bearer token
 *   remote:<name>:headers  JSON object of every extra header (all values are
 *                          treated as secret: API keys often travel as X-Api-Key)
 *   remote:<name>:query    JSON list of [name, value]: the credentials of the URL's
 *                          query string (issue 29, item 5; url-secrets.ts) and, under
 *                          the name "/", its path segments that look like tokens or all
 *                          of them when the URL is marked secret (docs/security.md, "No credentials of a server URL"),
 *                          masked in the URL that settings keep
 *   remote:<name>:oauth    OAuth tokens and client registration (issue 10,
 *                          main/remote/oauth/store.ts)
 */
export const bearerKey = (name: string) => `remote:${name}:bearer`;
export const headersKey = (name: string) => `remote:${name}:headers`;
export const queryKey = (name: string) => `remote:${name}:query`;

export interface RemoteSecrets {
  bearer: string | null;
  headers: Record<string, string>;
  query: UrlSecret[];
}

export async function readSecrets(vault: Vault, name: string): Promise<RemoteSecrets> {
  const bearer = await vault.get(bearerKey(name));
  const raw = await vault.get(headersKey(name));
  let headers: Record<string, string> = {};
  if (raw) {
    try {
      headers = JSON.parse(raw) as Record<string, string>;
    } catch {
      headers = {};
    }
  }
  return { bearer, headers, query: await readQuery(vault, name) };
}

async function readQuery(vault: Vault, name: string): Promise<UrlSecret[]> {
  const raw = await vault.get(queryKey(name));
  if (!raw) return [];
  try {
    const list = JSON.parse(raw) as unknown;
    return Array.isArray(list)
      ? list.filter(
          (e): e is UrlSecret =>
            Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

/** Writes what is given: `bearer: null` deletes the token, `headers: {}` / `query: []` delete those. */
export async function writeSecrets(
  vault: Vault,
  name: string,
  s: Partial<RemoteSecrets>,
): Promise<void> {
  if (s.bearer !== undefined) {
    if (s.bearer === null) await vault.delete(bearerKey(name));
    else await vault.set(bearerKey(name), s.bearer);
  }
  if (s.headers !== undefined) {
    if (Object.keys(s.headers).length === 0) await vault.delete(headersKey(name));
    else await vault.set(headersKey(name), JSON.stringify(s.headers));
  }
  if (s.query !== undefined) {
    if (s.query.length === 0) await vault.delete(queryKey(name));
    else await vault.set(queryKey(name), JSON.stringify(s.query));
  }
}

export async function deleteSecrets(vault: Vault, name: string): Promise<void> {
  await vault.delete(bearerKey(name));
  await vault.delete(headersKey(name));
  await vault.delete(queryKey(name));
  await vault.delete(oauthKey(name));
}

export function connectionOf(cfg: RemoteSettings, secrets: RemoteSecrets): RemoteConnection {
  const headers: Record<string, string> = {};
  for (const n of cfg.headerNames)
    if (secrets.headers[n] !== undefined) headers[n] = secrets.headers[n];
  if (cfg.hasToken && secrets.bearer) headers.Authorization = `Bearer ${secrets.bearer}`;
  return {
    name: cfg.name,
    // Settings keep the URL with its credentials masked; the connection gets them back.
    url: joinUrlSecrets(cfg.url, secrets.query),
    headers,
    redact: urlSecretValues(secrets.query),
  };
}

/** Every secret value, for the logger's redaction list. */
export function secretValues(s: RemoteSecrets): string[] {
  return [
    ...(s.bearer ? [s.bearer] : []),
    ...Object.values(s.headers),
    ...urlSecretValues(s.query),
  ];
}
