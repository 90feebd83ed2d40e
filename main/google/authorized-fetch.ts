import type { GoogleAccountAccess } from './account-access.js';
import { apiError } from './errors.js';

/**
 * `fetch` with the account's bearer token, for the Google endpoints the typed
 * clients do not cover (Gmail's /batch). A 401 gets one forced refresh and
 * one retry; any other non-2xx becomes a GoogleToolError (OAUTH_SCOPE,
 * RATE_LIMITED with its retry hint, …) through the one classifier.
 */
export async function authorizedFetch(
  access: Pick<GoogleAccountAccess, 'accessToken' | 'tokenRejected'>,
  email: string,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  let token = '';
  const send = async () => {
    token = await access.accessToken(email);
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(url, { ...init, headers });
  };
  let res = await send();
  if (res.status === 401 && access.tokenRejected) {
    await res.body?.cancel();
    access.tokenRejected(email, token);
    res = await send();
  }
  if (res.ok) return res;
  const body = await res.text().catch(() => '');
  throw apiError(res.status, body, res.headers, email);
}
