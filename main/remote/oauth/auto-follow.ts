import type { FetchLike } from '@modelcontextprotocol/client';
import { LoginError } from './errors.js';

/**
 * Testing aid for `airlock remote probe --oauth-auto` (issue 10): plays the
 * browser for an authorization server that approves without a person (the
 * MCP conformance suite's servers, mock servers). Follows redirects from the
 * authorization URL until one points at our loopback redirect URI, then
 * requests that URL so the listener completes the sign-in. A page that wants
 * a person (a login form) ends the attempt at once instead of waiting.
 */
export async function followAuthorization(
  authUrl: string,
  redirectUri: string,
  fetchFn: FetchLike = fetch,
): Promise<void> {
  let url = new URL(authUrl);
  for (let hop = 0; hop < 10; hop++) {
    if (url.href.startsWith(redirectUri)) {
      const res = await fetchFn(url, { redirect: 'manual', signal: AbortSignal.timeout(30_000) });
      await res.text().catch(() => '');
      return;
    }
    const res = await fetchFn(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await res.text().catch(() => '');
    const location = res.headers.get('location');
    if (res.status < 300 || res.status > 399 || !location) {
      throw new LoginError(
        'AUTO_FOLLOW_FAILED',
        `The authorization server answered ${res.status} without a redirect: it wants a person to approve (--oauth-auto only works with servers that approve on their own).`,
      );
    }
    url = new URL(location, url);
  }
  throw new LoginError('AUTO_FOLLOW_FAILED', 'Too many redirects from the authorization server.');
}
