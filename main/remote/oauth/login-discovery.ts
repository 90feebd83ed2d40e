import {
  discoverOAuthServerInfo,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthServerInfo,
} from '@modelcontextprotocol/client';
import { isLoopback } from '../../tools/relay-label.js';
import {
  AddressRefused,
  ANYWHERE,
  connectionRule,
  endpointRule,
  maskedUrl,
  refusedHost,
  refusedLiteral,
  serverReach,
  systemResolver,
  type AddressRule,
  type Resolver,
  type ServerReach,
} from '../http/address-guard.js';
import type { AddressPin } from '../http/address-pin.js';
import { pinnedFetch } from '../http/pinned-fetch.js';
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
  /** Where the server's endpoints may be (address-guard.ts endpointRule); IP literals judged here. */
  rule: AddressRule = ANYWHERE,
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
    const literal = refusedLiteral(new URL(String(url)).hostname, rule);
    if (literal) throw refused(name, String(url), literal, what);
  }
  return md;
}

/**
 * The authorization endpoint is opened by the user's browser, not fetched here: its host is judged
 * on what it resolves to now (refusedHost), so a public server's metadata cannot send the
 * browser — with the sign-in's state and code challenge — to a device on the user's network.
 */
export async function checkAuthorizationHost(
  name: string,
  md: AuthorizationServerMetadata,
  rule: AddressRule,
  resolve: Resolver,
): Promise<void> {
  const url = String(md.authorization_endpoint);
  const why = await refusedHost(new URL(url).hostname.replace(/^\[|\]$/g, ''), rule, resolve);
  if (why) throw refused(name, url, why, 'authorization');
}

function insecure(name: string, what: string, url: string): LoginError {
  return new LoginError(
    'INSECURE_ENDPOINT',
    `The ${what} endpoint of "${name}"'s authorization server is not HTTPS, or is on this computer while "${name}" is not (${maskedUrl(url)}); Airlock will not sign in through it.`,
  );
}

/** How a guarded fetch reaches the network: the resolver (tests make names resolve to loopback). */
export interface GuardedFetchOptions {
  /** A fetch to send through instead of the pinned one (tests); every hop is still judged first. */
  fetch?: FetchLike;
  resolve?: Resolver;
  /**
   * Where the MCP server was first reached (address-pin.ts): its own origin's requests (the token
   * refresh of a server that is its own authorization server) follow the connection's rule, and
   * a server recorded public keeps its endpoints off the network however its name resolves now.
   */
  pin?: AddressPin;
}

/** Redirect hops a GET of the sign-in follows (metadata documents behind a redirect). */
const MAX_HOPS = 5;

/**
 * The fetch a sign-in, a token refresh and a revocation run on: every request — every redirect hop
 * too — is checked by secureEndpoint before it is sent, so nothing a server's metadata names is
 * reached before the checks in usableMetadata (the SDK's discovery reads the authorization
 * server's metadata at the URL the resource metadata names before usableMetadata sees it). The
 * MCP server's own origin is always allowed: the user gave it. And where the request connects is
 * judged on the address the socket connects to (pinned-fetch.ts, address-guard.ts): the server's
 * own origin by connectionRule (a name of its may not lead to this computer), anything else by
 * endpointRule (a public server's metadata may not lead to this computer, link-local addresses or
 * the user's network).
 */
export function guardedFetch(
  name: string,
  serverUrl: string,
  o: GuardedFetchOptions = {},
): FetchLike {
  const own = new URL(serverUrl).origin;
  const resolve = o.resolve ?? systemResolver;
  let reach: Promise<ServerReach> | undefined;
  const ruleFor = async (url: URL): Promise<AddressRule> =>
    url.origin === own
      ? connectionRule(serverUrl, o.pin)
      : endpointRule(await (reach ??= serverReach(serverUrl, resolve, o.pin)));
  return async (input, init) => {
    let url = new URL(String(input instanceof Request ? input.url : input));
    const method = (init?.method ?? 'GET').toUpperCase();
    for (let hop = 0; ; hop++) {
      if (url.origin !== own && !secureEndpoint(url.href, serverUrl))
        throw insecure(name, 'metadata', url.href);
      const rule = await ruleFor(url);
      const literal = refusedLiteral(url.hostname, rule);
      if (literal) throw refused(name, url.href, literal);
      let res: Response;
      try {
        const f = o.fetch ?? pinnedFetch(rule, resolve);
        res = await f(hop === 0 ? input : url, { ...init, redirect: 'manual' });
      } catch (err) {
        const cause = (err as { cause?: unknown }).cause;
        if (cause instanceof AddressRefused) throw refused(name, url.href, cause);
        throw err;
      }
      const location = res.headers.get('location');
      const redirect = res.status >= 300 && res.status < 400 && location !== null;
      // Only a read follows a redirect (metadata); a POST's 3xx is its answer, as the SDK sees it.
      // A caller that follows redirects itself (the SDK's fetchWithinOrigin asks for `manual`)
      // gets the 3xx, and sends the next hop through here again.
      const follows = init?.redirect !== 'manual' && init?.redirect !== 'error';
      if (!redirect || !follows || (method !== 'GET' && method !== 'HEAD') || hop >= MAX_HOPS)
        return res;
      const next = new URL(location, url);
      // Another origin gets no credentials of this one (Fetch standard, "HTTP-redirect fetch").
      if (next.origin !== url.origin)
        init = { ...init, headers: withoutCredentials(init?.headers) };
      url = next;
    }
  };
}

function withoutCredentials(h: ConstructorParameters<typeof Headers>[0]): Headers {
  const out = new Headers(h);
  for (const name of ['authorization', 'cookie', 'proxy-authorization']) out.delete(name);
  return out;
}

function refused(name: string, url: string, why: AddressRefused, what?: string): LoginError {
  const which = what ? `The ${what} endpoint` : 'An endpoint';
  return new LoginError(
    'PRIVATE_ENDPOINT',
    `${which} of "${name}"'s sign-in (${maskedUrl(url)}) is refused: ${why.message}.`,
  );
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
