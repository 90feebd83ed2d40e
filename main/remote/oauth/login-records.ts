import {
  resourceUrlFromServerUrl,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthServerInfo,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { Logger } from '../../platform/log.js';
import type { FlowProvider } from './provider.js';
import { findRevocationEndpoint } from './revoke.js';
import {
  bindIssuer,
  trimMetadata,
  type OAuthRecord,
  type OAuthStore,
  type SavedTokens,
} from './store.js';

/**
 * What one sign-in (login-flow.ts) writes to the server's keychain record (store.ts): the user's
 * client choices before it starts, a new registration as soon as there is one, the tokens at the end.
 */

/** The server a sign-in writes for (a LoginFlow's options). */
export interface SignInTarget {
  name: string;
  /** The server URL exactly as in settings (tokens are bound to it). */
  serverUrl: string;
  store: OAuthStore;
  preregistered?: { client_id: string; client_secret?: string };
  clientMetadataUrl?: string;
  logger?: Logger;
}

/** The user's pre-registered client or metadata-document URL, kept for later sign-ins and refreshes. */
export async function saveChoices(
  o: SignInTarget,
  md: AuthorizationServerMetadata,
): Promise<OAuthRecord> {
  const { preregistered, clientMetadataUrl } = o;
  const rec = await o.store.load();
  if (!preregistered && !clientMetadataUrl && rec) return rec;
  const saved = await o.store.update((r) => {
    const base = bindIssuer(r ?? { v: 1, serverUrl: o.serverUrl }, md.issuer);
    const { client: _c, ...rest } = base;
    return {
      ...rest,
      ...(preregistered ? { preregistered, client: { ...preregistered } } : {}),
      ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
    };
  });
  return saved ?? { v: 1, serverUrl: o.serverUrl };
}

/** A new dynamic registration or metadata-document client id, bound to its issuer. */
export async function saveClient(
  o: SignInTarget,
  md: AuthorizationServerMetadata,
  authorizationServerUrl: string,
  c: StoredOAuthClientInformation,
): Promise<void> {
  await o.store.update((r) => ({
    ...bindIssuer(r ?? { v: 1, serverUrl: o.serverUrl }, md.issuer),
    as: trimMetadata(md, authorizationServerUrl),
    client: c,
  }));
}

/** The tokens of a completed sign-in, with the resource, metadata and client they belong to. */
export async function saveSignIn(
  o: SignInTarget,
  p: FlowProvider,
  info: OAuthServerInfo,
  fetchFn: FetchLike,
): Promise<void> {
  const t = p.tokensSaved()!;
  const md = info.authorizationServerMetadata!;
  const now = Date.now();
  const tokens: SavedTokens = {
    access_token: t.access_token,
    token_type: t.token_type,
    ...(t.refresh_token ? { refresh_token: t.refresh_token } : {}),
    ...(t.scope ? { scope: t.scope } : {}),
    ...(t.expires_in !== undefined ? { expires_at: now + t.expires_in * 1000 } : {}),
    obtained_at: now,
  };
  const client = p.clientSaved();
  const revocation = await findRevocationEndpoint(md, info.authorizationServerUrl, fetchFn);
  await o.store.update((r) => ({
    ...bindIssuer(r ?? { v: 1, serverUrl: o.serverUrl }, md.issuer),
    v: 1,
    serverUrl: o.serverUrl,
    resource: p.resource ?? resourceUrlFromServerUrl(o.serverUrl).href,
    as: { ...trimMetadata(md, info.authorizationServerUrl), ...revocation },
    ...(client ? { client } : {}),
    tokens,
    signedInAt: new Date(now).toISOString(),
  }));
  o.logger?.info('remote sign-in completed', {
    server: o.name,
    issuer: md.issuer,
    renews: !!t.refresh_token,
  });
}
