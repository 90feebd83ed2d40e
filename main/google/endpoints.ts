import type { GoogleEndpointSettings } from '../platform/google-settings-schema.js';

/** Where Airlock talks to Google. Every one is overridable, as a testing aid (issue 5, item 8). */
export interface GoogleEndpoints {
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  userinfoUrl: string;
  /** `rootUrl` for the googleapis clients (Gmail, Calendar); ends with '/'. */
  apiRoot: string;
}

/** Google's documented endpoints (developers.google.com/identity/protocols/oauth2/native-app). */
export const GOOGLE_ENDPOINTS: Readonly<GoogleEndpoints> = {
  authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  revokeUrl: 'https://oauth2.googleapis.com/revoke',
  userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
  apiRoot: 'https://www.googleapis.com/',
};

export const ENDPOINT_ENV: Record<keyof GoogleEndpoints, string> = {
  authUrl: 'AIRLOCK_GOOGLE_AUTH_URL',
  tokenUrl: 'AIRLOCK_GOOGLE_TOKEN_URL',
  revokeUrl: 'AIRLOCK_GOOGLE_REVOKE_URL',
  userinfoUrl: 'AIRLOCK_GOOGLE_USERINFO_URL',
  apiRoot: 'AIRLOCK_GOOGLE_API_ROOT',
};

export class EndpointError extends Error {
  override name = 'EndpointError';
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Environment beats settings beats Google's defaults. An override must be
 * https, or plain http on a loopback host (a local fake): tokens and the
 * client secret travel to these URLs, so a typo must not send them over the
 * network in clear text.
 */
export function resolveEndpoints(
  settings: GoogleEndpointSettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): GoogleEndpoints {
  const out = { ...GOOGLE_ENDPOINTS };
  for (const key of Object.keys(GOOGLE_ENDPOINTS) as (keyof GoogleEndpoints)[]) {
    const raw = env[ENDPOINT_ENV[key]] || settings?.[key];
    if (!raw) continue;
    out[key] = checkEndpoint(key, raw);
  }
  if (!out.apiRoot.endsWith('/')) out.apiRoot += '/';
  return out;
}

/** The names of overridden endpoints (logged once at start, so a leftover test override is visible). */
export function overriddenEndpoints(e: GoogleEndpoints): (keyof GoogleEndpoints)[] {
  return (Object.keys(GOOGLE_ENDPOINTS) as (keyof GoogleEndpoints)[]).filter(
    (k) => e[k] !== GOOGLE_ENDPOINTS[k],
  );
}

function checkEndpoint(key: keyof GoogleEndpoints, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EndpointError(
      `Google endpoint ${key} (${ENDPOINT_ENV[key]} or settings google.endpoints.${key}) is not a URL: ${JSON.stringify(raw)}.`,
    );
  }
  const ok = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  if (!ok || url.username || url.password) {
    throw new EndpointError(
      `Google endpoint ${key} must be https (or http on 127.0.0.1/localhost for a local fake), without credentials: ${url.origin}.`,
    );
  }
  return url.href;
}
