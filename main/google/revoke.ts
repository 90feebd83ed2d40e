import { ClientMissingError } from './client-store.js';
import { describeOAuthError } from './errors.js';
import type { GoogleOAuth } from './oauth/google-oauth.js';

const PERMISSIONS = 'https://myaccount.google.com/permissions';

/**
 * Tells Google to revoke a grant on disconnect (RFC 7009), best effort: the
 * account is removed either way, and the answer says whether the user should
 * still remove Airlock by hand.
 */
export async function revokeAtGoogle(
  oauth: () => Promise<GoogleOAuth>,
  refreshToken: string | undefined,
): Promise<{ revoked: boolean; detail?: string }> {
  if (!refreshToken)
    return {
      revoked: false,
      detail: `No stored grant was found; remove Airlock at ${PERMISSIONS} if it is still listed.`,
    };
  try {
    await (await oauth()).revoke(refreshToken);
    return { revoked: true };
  } catch (err) {
    const f = describeOAuthError(err);
    // invalid_token: Google no longer knows the token — the grant is already gone.
    if (f.error === 'invalid_token') return { revoked: true };
    const why =
      err instanceof ClientMissingError
        ? 'no OAuth client'
        : (f.network ?? f.error ?? `HTTP ${f.status}`);
    return {
      revoked: false,
      detail: `Google could not be told to revoke access (${why}); remove Airlock at ${PERMISSIONS}.`,
    };
  }
}
