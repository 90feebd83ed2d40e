import {
  assertSecureTokenEndpoint,
  buildDiscoveryUrls,
  selectClientAuthMethod,
  type FetchLike,
  type OAuthClientInformationMixed,
} from '@modelcontextprotocol/client';
import { secureEndpoint } from './login-discovery.js';
import type { OAuthRecord } from './store.js';

export interface RevokeOptions {
  endpoint: string;
  client: OAuthClientInformationMixed;
  /** The server's `revocation_endpoint_auth_methods_supported` (or the token endpoint's). */
  authMethods?: string[];
  token: string;
  hint: 'refresh_token' | 'access_token';
  fetch?: FetchLike;
  timeoutMs?: number;
}

/**
 * Token revocation (RFC 7009 §2.1). The SDK has no revocation helper, so this
 * one request is written here, with the same client authentication rules the
 * SDK applies at the token endpoint (selectClientAuthMethod) and the same
 * "https or loopback" rule for where credentials may go. Throws when the
 * server does not answer 200 (RFC 7009 §2.2: 200 also for unknown tokens).
 */
export async function revokeToken(o: RevokeOptions): Promise<void> {
  const url = assertSecureTokenEndpoint(o.endpoint);
  const params = new URLSearchParams({ token: o.token, token_type_hint: o.hint });
  const headers = new Headers({
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  });
  const method = selectClientAuthMethod(o.client, o.authMethods ?? []);
  if (method === 'client_secret_basic' && o.client.client_secret) {
    // RFC 6749 §2.3.1: form-urlencode both parts before base64.
    const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
    headers.set(
      'authorization',
      `Basic ${Buffer.from(`${enc(o.client.client_id)}:${enc(o.client.client_secret)}`).toString('base64')}`,
    );
  } else {
    params.set('client_id', o.client.client_id);
    if (method === 'client_secret_post' && o.client.client_secret)
      params.set('client_secret', o.client.client_secret);
  }
  const res = await (o.fetch ?? fetch)(url, {
    method: 'POST',
    headers,
    body: params,
    redirect: 'manual',
    signal: AbortSignal.timeout(o.timeoutMs ?? 5000),
  });
  await res.text().catch(() => '');
  if (res.status !== 200) throw new Error(`the revocation endpoint answered ${res.status}`);
}

/**
 * The revocation endpoint of an authorization server. The SDK parses an
 * OpenID configuration with the OpenID schema, which has no
 * `revocation_endpoint` (that field comes from RFC 8414 §2), so for an
 * OpenID-discovered server the document is read once more for it — from the
 * same well-known URLs, and only if it names the same issuer.
 */
export async function findRevocationEndpoint(
  metadata: {
    issuer: string;
    revocation_endpoint?: string;
    revocation_endpoint_auth_methods_supported?: string[];
  },
  authorizationServerUrl: string,
  fetchFn: FetchLike = fetch,
): Promise<{
  revocation_endpoint?: string;
  revocation_endpoint_auth_methods_supported?: string[];
}> {
  if (metadata.revocation_endpoint) return pickRevocation(metadata);
  for (const { url } of buildDiscoveryUrls(authorizationServerUrl)) {
    try {
      const res = await fetchFn(url, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) continue;
      const doc = (await res.json()) as Record<string, unknown>;
      if (doc.issuer !== metadata.issuer || typeof doc.revocation_endpoint !== 'string') continue;
      assertSecureTokenEndpoint(doc.revocation_endpoint);
      return pickRevocation(
        doc as {
          revocation_endpoint: string;
          revocation_endpoint_auth_methods_supported?: string[];
        },
      );
    } catch {
      // Not there, not JSON, or not https: try the next location.
    }
  }
  return {};
}

function pickRevocation(m: {
  revocation_endpoint?: string;
  revocation_endpoint_auth_methods_supported?: unknown;
}): { revocation_endpoint?: string; revocation_endpoint_auth_methods_supported?: string[] } {
  const methods = Array.isArray(m.revocation_endpoint_auth_methods_supported)
    ? m.revocation_endpoint_auth_methods_supported.filter((x): x is string => typeof x === 'string')
    : undefined;
  return {
    ...(m.revocation_endpoint ? { revocation_endpoint: m.revocation_endpoint } : {}),
    ...(methods ? { revocation_endpoint_auth_methods_supported: methods } : {}),
  };
}

/**
 * Revokes a stored grant: the refresh token first — that ends the grant
 * (RFC 7009 §2.1) — then the access token, for servers that do not link them.
 */
export async function revokeGrant(
  rec: OAuthRecord | null,
  o: { fetch?: FetchLike; timeoutMs?: number } = {},
): Promise<{ revoked: boolean; detail?: string }> {
  const t = rec?.tokens;
  const client = rec?.client ?? rec?.preregistered;
  if (!t) return { revoked: false };
  if (!rec?.as?.revocation_endpoint || !client) {
    return {
      revoked: false,
      detail:
        'The server publishes no revocation endpoint: the tokens were forgotten, and stay valid at the server until they expire.',
    };
  }
  // Where the tokens would go is judged as a sign-in judges its endpoints (login-discovery.ts):
  // https, and on this computer only for a server on it. The SDK's "https or loopback" rule in
  // revokeToken would let a remote server's metadata send the tokens to a local service.
  if (!secureEndpoint(rec.as.revocation_endpoint, rec.serverUrl)) {
    return {
      revoked: false,
      detail:
        'The revocation endpoint is not HTTPS, or is on this computer while the server is not: the tokens were not sent there. They were forgotten, and stay valid at the server until they expire.',
    };
  }
  const base = {
    endpoint: rec.as.revocation_endpoint,
    client,
    authMethods:
      rec.as.revocation_endpoint_auth_methods_supported ??
      rec.as.token_endpoint_auth_methods_supported ??
      [],
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
  };
  try {
    if (t.refresh_token)
      await revokeToken({ ...base, token: t.refresh_token, hint: 'refresh_token' });
    await revokeToken({ ...base, token: t.access_token, hint: 'access_token' });
    return { revoked: true };
  } catch (err) {
    return {
      revoked: false,
      detail: `The server did not confirm the revocation (${err instanceof Error ? err.message : String(err)}); the tokens were forgotten anyway.`,
    };
  }
}
