import {
  discoverOAuthServerInfo,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthServerInfo,
} from '@modelcontextprotocol/client';
import { isLoopback } from '../../tools/relay-label.js';
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
    if (err instanceof LoginError) throw err;
    throw new LoginError(
      'NO_OAUTH',
      `Could not read the OAuth metadata of "${name}": ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** The authorization server's metadata, when Airlock may sign in through it. Throws LoginError. */
export function usableMetadata(
  name: string,
  info: OAuthServerInfo,
  serverUrl: string,
): AuthorizationServerMetadata {
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
    if (!secureEndpoint(String(url), serverUrl)) throw insecure(name, what, String(url));
  }
  return md;
}

function insecure(name: string, what: string, url: string): LoginError {
  return new LoginError(
    'INSECURE_ENDPOINT',
    `The ${what} endpoint of "${name}"'s authorization server is not HTTPS, or is on this computer while "${name}" is not (${url.slice(0, 200)}); Airlock will not sign in through it.`,
  );
}

/**
 * The fetch a sign-in runs on: every request is checked by secureEndpoint before it is sent, so
 * nothing a server's metadata names is reached before the checks in usableMetadata (the SDK's
 * discovery reads the authorization server's metadata at the URL the resource metadata names
 * before usableMetadata sees it). The MCP server's own origin is always allowed: the user gave it.
 */
export function guardedFetch(name: string, serverUrl: string, fetchFn: FetchLike): FetchLike {
  const own = new URL(serverUrl).origin;
  return (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.origin !== own && !secureEndpoint(url.href, serverUrl))
      return Promise.reject(insecure(name, 'metadata', url.href));
    return fetchFn(input, init);
  };
}

/**
 * An OAuth endpoint Airlock will talk to for the MCP server at `serverUrl`: https, or http on
 * loopback only (MCP 2025-11-25, "Communication Security"). And on this computer (loopback, any
 * scheme) only when the MCP server is itself on it: the exception is for local development, and a
 * remote server's metadata naming `http://127.0.0.1:…` would otherwise make a sign-in the user
 * starts send requests to a local service. Loopback is relay-label.ts's isLoopback over the WHATWG
 * hostname, so `2130706433`, `0x7f.1`, `[::1]`, `0.0.0.0` and `*.localhost` count as what they are.
 */
export function secureEndpoint(raw: string, serverUrl: string): boolean {
  try {
    const u = new URL(raw);
    const local = isLoopback(u.hostname);
    if (local && !isLoopback(new URL(serverUrl).hostname)) return false;
    return u.protocol === 'https:' || (u.protocol === 'http:' && local);
  } catch {
    return false;
  }
}
