import { OAuthError, type StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import { LoginError } from './errors.js';
import type { OAuthRecord } from './store.js';

/** Small pure helpers of the OAuth sign-in flow (login-flow.ts), kept apart to keep it readable. */

/**
 * The client a sign-in uses when the user names one (`--client-id`, `--client-secret-…`,
 * `--client-metadata-url`): LoginFlowOptions' preregistered client and metadata document.
 */
export function userClient(o: {
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
}): { preregistered?: { client_id: string; client_secret?: string }; clientMetadataUrl?: string } {
  return {
    ...(o.clientId
      ? {
          preregistered: {
            client_id: o.clientId,
            ...(o.clientSecret ? { client_secret: o.clientSecret } : {}),
          },
        }
      : {}),
    ...(o.clientMetadataUrl ? { clientMetadataUrl: o.clientMetadataUrl } : {}),
  };
}

export function clientFor(
  rec: OAuthRecord,
  issuer: string,
): StoredOAuthClientInformation | undefined {
  // A client the user registered by hand is always the one to use (the SDK stamps it with the issuer).
  if (rec.preregistered) return { ...rec.preregistered };
  const c = rec.client;
  return c && (!c.issuer || c.issuer === issuer) ? c : undefined;
}

export function isDynamic(
  c: StoredOAuthClientInformation,
): c is StoredOAuthClientInformation & { redirect_uris: string[] } {
  return 'redirect_uris' in c && Array.isArray(c.redirect_uris);
}

/** The loopback port a dynamically registered client was registered with, to reuse it. */
export function preferredPort(c: StoredOAuthClientInformation | undefined): number | undefined {
  if (!c || !isDynamic(c)) return undefined;
  for (const u of c.redirect_uris) {
    try {
      const url = new URL(u);
      if (url.hostname === '127.0.0.1' && url.port) return Number(url.port);
    } catch {
      // Not a URL: ignore.
    }
  }
  return undefined;
}

/** Why a sign-in could not start, as the error the user acts on. */
export function startError(name: string, err: unknown): LoginError {
  if (err instanceof LoginError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/dynamic client registration|registration_endpoint/i.test(message)) {
    return new LoginError(
      'NEEDS_CLIENT_ID',
      `The authorization server of "${name}" does not let Airlock register itself. Register an OAuth client there (redirect URI http://127.0.0.1/callback, any port) and sign in with --client-id.`,
    );
  }
  if (err instanceof OAuthError || /registration/i.test(message))
    return new LoginError(
      'REGISTRATION_FAILED',
      `Registering Airlock with the authorization server of "${name}" failed: ${message.slice(0, 200)}`,
    );
  return new LoginError(
    'NO_OAUTH',
    `Signing in to "${name}" could not start: ${message.slice(0, 200)}`,
  );
}
