import type {
  AuthorizationServerMetadata,
  StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { Vault } from '../../platform/vault/vault.js';

/**
 * What Airlock keeps about one remote server's OAuth sign-in (issue 10),
 * as one vault entry `remote:<name>:oauth` (never in settings or files).
 *
 * Binding rules:
 * - everything is bound to `serverUrl`: tokens were issued for that resource
 *   (RFC 8707), so a changed URL makes them unusable;
 * - tokens and the client registration carry the issuer of the
 *   authorization server that issued them; a record whose `as.issuer`
 *   changes loses both (`bindIssuer`).
 */
export const oauthKey = (name: string) => `remote:${name}:oauth`;

export interface SavedTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  /** Milliseconds since the epoch; absent when the server gave no `expires_in`. */
  expires_at?: number;
  obtained_at: number;
}

export interface OAuthRecord {
  v: 1;
  /** The MCP server URL the tokens were issued for. */
  serverUrl: string;
  /** The RFC 8707 resource indicator sent on every token request. */
  resource?: string;
  /** The authorization server's metadata (trimmed to what refresh and revocation need). */
  as?: AuthorizationServerMetadata & {
    authorizationServerUrl: string;
    revocation_endpoint?: string;
    revocation_endpoint_auth_methods_supported?: string[];
  };
  /** The client registration in use (dynamic, metadata document or pre-registered), stamped with its issuer. */
  client?: StoredOAuthClientInformation;
  /** A client the user registered by hand (`--client-id`); used instead of registering. */
  preregistered?: { client_id: string; client_secret?: string };
  /** Client ID Metadata Document URL to use where the authorization server supports it. */
  clientMetadataUrl?: string;
  tokens?: SavedTokens;
  signedInAt?: string;
}

/** Metadata fields kept: the keychain is no place for a full OpenID configuration. */
const KEPT_METADATA = [
  'issuer',
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
  'revocation_endpoint',
  'response_types_supported',
  'grant_types_supported',
  'code_challenge_methods_supported',
  'token_endpoint_auth_methods_supported',
  'revocation_endpoint_auth_methods_supported',
  'scopes_supported',
  'client_id_metadata_document_supported',
  'authorization_response_iss_parameter_supported',
] as const;

export function trimMetadata(
  m: AuthorizationServerMetadata,
  authorizationServerUrl: string,
): NonNullable<OAuthRecord['as']> {
  const out: Record<string, unknown> = { authorizationServerUrl };
  for (const k of KEPT_METADATA)
    if ((m as Record<string, unknown>)[k] !== undefined) out[k] = (m as Record<string, unknown>)[k];
  return out as NonNullable<OAuthRecord['as']>;
}

/** Drops what belongs to another authorization server (SEP-2352 issuer binding). */
export function bindIssuer(r: OAuthRecord, issuer: string): OAuthRecord {
  if (!r.as || r.as.issuer === issuer) return r;
  const { tokens: _t, client, as: _as, ...rest } = r;
  return { ...rest, ...(client && client.issuer === issuer ? { client } : {}) };
}

/**
 * One server's record, cached after the first read. Writes are serialised so
 * a refresh and a sign-in cannot interleave their read-modify-write.
 */
export class OAuthStore {
  private cache: OAuthRecord | null | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly vault: Vault,
    readonly name: string,
    /** Told every secret value read or written (the logger's redaction list). */
    private readonly onSecret: (value: string) => void = () => {},
  ) {}

  async load(): Promise<OAuthRecord | null> {
    if (this.cache !== undefined) return this.cache;
    const raw = await this.vault.get(oauthKey(this.name));
    let rec: OAuthRecord | null = null;
    if (raw) {
      try {
        const parsed = JSON.parse(raw) as OAuthRecord;
        rec = parsed && parsed.v === 1 ? parsed : null;
      } catch {
        rec = null;
      }
    }
    this.note(rec);
    this.cache = rec;
    return rec;
  }

  /** The cached record, or undefined before the first load (OAuthSession.tokenNow). */
  cached(): OAuthRecord | null | undefined {
    return this.cache;
  }

  /** The cached record (after load), for synchronous views. */
  peek(): OAuthRecord | null {
    return this.cache ?? null;
  }

  update(fn: (r: OAuthRecord | null) => OAuthRecord | null): Promise<OAuthRecord | null> {
    const run = this.queue.then(async () => {
      const next = fn(await this.load());
      if (next === null) await this.vault.delete(oauthKey(this.name));
      else await this.vault.set(oauthKey(this.name), JSON.stringify(next));
      this.note(next);
      this.cache = next;
      return next;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  clear(): Promise<OAuthRecord | null> {
    return this.update(() => null);
  }

  /** Forgets the cached copy (the vault entry was changed by someone else, e.g. removeRemote). */
  invalidate(): void {
    this.cache = undefined;
  }

  private note(r: OAuthRecord | null): void {
    for (const v of [
      r?.tokens?.access_token,
      r?.tokens?.refresh_token,
      r?.client?.client_secret,
      r?.preregistered?.client_secret,
    ])
      if (v) this.onSecret(v);
  }
}
