import {
  discoverOAuthServerInfo,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthServerInfo,
} from '@modelcontextprotocol/client';
import { LoginError } from './errors.js';

/**
 * Discovery for one sign-in (login-flow.ts): protected resource metadata (RFC 9728) → authorization
 * server metadata (RFC 8414 / OpenID discovery), by the SDK. Throws LoginError.
 */
export async function discoverServer(
  name: string,
  serverUrl: URL,
  resourceMetadataUrl: URL | undefined,
  fetchFn: FetchLike,
): Promise<OAuthServerInfo> {
  try {
    return await discoverOAuthServerInfo(serverUrl, {
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      fetchFn,
    });
  } catch (err) {
    throw new LoginError(
      'NO_OAUTH',
      `Could not read the OAuth metadata of "${name}": ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** The authorization server's metadata, when Airlock may sign in through it. Throws LoginError. */
export function usableMetadata(name: string, info: OAuthServerInfo): AuthorizationServerMetadata {
  const md = info.authorizationServerMetadata;
  if (!md)
    throw new LoginError(
      'NO_OAUTH',
      `"${name}" publishes no OAuth authorization server metadata (RFC 8414 or OpenID discovery at ${info.authorizationServerUrl}); Airlock cannot sign in to it.`,
    );
  // MCP 2025-11-25, "Authorization Code Protection": without advertised S256 support, refuse.
  if (!md.code_challenge_methods_supported?.includes('S256'))
    throw new LoginError(
      'NO_PKCE',
      `The authorization server of "${name}" does not advertise PKCE S256 (code_challenge_methods_supported); the MCP spec forbids signing in without it.`,
    );
  // MCP 2025-11-25, "Communication Security": authorization server endpoints over HTTPS (loopback
  // excepted, for local servers). The metadata itself too: read in clear, anyone on the path could
  // name their own HTTPS endpoints under the expected issuer, and the checks below would pass. And
  // the registration endpoint, which the SDK calls next with nothing checking it.
  for (const [what, url] of [
    ['metadata', info.authorizationServerUrl],
    ['authorization', md.authorization_endpoint],
    ['token', md.token_endpoint],
    ...(md.registration_endpoint === undefined
      ? []
      : [['registration', md.registration_endpoint] as const]),
  ] as const) {
    if (!secureEndpoint(String(url)))
      throw new LoginError(
        'INSECURE_ENDPOINT',
        `The ${what} endpoint of "${name}"'s authorization server is not HTTPS (${String(url).slice(0, 200)}); Airlock will not sign in through it.`,
      );
  }
  return md;
}

/** An OAuth endpoint Airlock will talk to: https, or http on loopback only. */
export function secureEndpoint(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (
      u.protocol === 'https:' ||
      (u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))
    );
  } catch {
    return false;
  }
}
