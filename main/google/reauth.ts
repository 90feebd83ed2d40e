// Both @googleapis clients share googleapis-common's MethodOptions (one gaxios).
import type { MethodOptions } from '@googleapis/gmail';
import type { GoogleAccountAccess } from './account-access.js';

type Adapter = NonNullable<MethodOptions['adapter']>;

/**
 * A gaxios adapter for the Gmail and Calendar clients: when Google answers
 * 401 to a token Airlock still holds as valid (a clock off by more than the
 * refresh margin, or access removed at myaccount.google.com), the accounts
 * layer drops the token and the request goes once more with a fresh one. A
 * revoked grant then fails its refresh with invalid_grant and the account
 * shows needs_reconnect at once, not when the old token would have expired.
 * A 401 means Google did not act on the request, so repeating it is safe for
 * writes too. When no fresh token can be had, the 401 is returned as it was.
 */
export function reauthOn401(access: GoogleAccountAccess, email: string): Adapter {
  return async (options, send) => {
    const res = await send(options);
    if (res.status !== 401 || !access.tokenRejected) return res;
    const used = /^Bearer (.+)$/i.exec(options.headers.get('authorization') ?? '')?.[1];
    if (!used) return res;
    access.tokenRejected(email, used);
    let fresh: string;
    try {
      fresh = await access.accessToken(email);
    } catch {
      return res; // the source turns the 401 into "reconnect"; the account state says why
    }
    if (fresh === used) return res;
    const headers = new Headers(options.headers);
    headers.set('authorization', `Bearer ${fresh}`);
    return send({ ...options, headers });
  };
}
