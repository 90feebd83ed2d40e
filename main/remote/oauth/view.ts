import type { RemoteAuthView } from '../../../common/contract/index.js';
import type { OAuthRecord } from './store.js';

/** What the UI may know about a sign-in (issue 10): state, issuer, scopes, expiry — never a token. */
export function authView(
  rec: OAuthRecord | null,
  signInRequired: string | undefined,
): RemoteAuthView | undefined {
  const t = rec?.tokens;
  if (!t && !signInRequired && !rec?.as) return undefined;
  return {
    signedIn: !!t,
    ...(signInRequired ? { signInRequired } : {}),
    ...(rec?.as?.issuer ? { issuer: rec.as.issuer } : {}),
    ...(t?.scope ? { scopes: t.scope.split(' ').filter(Boolean) } : {}),
    ...(t?.expires_at !== undefined ? { expiresAt: new Date(t.expires_at).toISOString() } : {}),
    renews: !!t?.refresh_token,
    ...(rec?.client ? { client: registrationKind(rec) } : {}),
    ...(rec?.signedInAt ? { signedInAt: rec.signedInAt } : {}),
  };
}

function registrationKind(r: OAuthRecord): RemoteAuthView['client'] {
  if (r.preregistered && r.client?.client_id === r.preregistered.client_id) return 'pre-registered';
  if (r.clientMetadataUrl && r.client?.client_id === r.clientMetadataUrl)
    return 'metadata-document';
  return 'dynamic';
}
