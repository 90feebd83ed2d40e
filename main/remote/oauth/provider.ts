import {
  checkResourceAllowed,
  resourceUrlFromServerUrl,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { appVersion } from '../../platform/version.js';
import { LoginError } from './errors.js';

export interface FlowProviderOptions {
  redirectUrl: string;
  /** Our `state` value; the loopback listener only accepts a callback that carries it. */
  state: string;
  discovery: OAuthDiscoveryState;
  /** Registration to reuse (already checked against the issuer), if any. */
  client?: StoredOAuthClientInformation;
  clientMetadataUrl?: string;
  /** A new dynamic registration or metadata-document client id: persisted at once, bound to its issuer. */
  onClient: (client: StoredOAuthClientInformation) => Promise<void>;
  /** The authorization URL, once the SDK built it (PKCE S256, state, resource, scope). */
  onRedirect: (url: URL) => void;
}

/**
 * The OAuthClientProvider for one interactive sign-in (issue 10), handed to
 * the SDK's `auth()`: the SDK does discovery checks, client registration
 * (Client ID Metadata Document where supported, else dynamic registration),
 * PKCE S256, the `resource` parameter, and the code exchange. This object
 * holds the flow's in-memory state; LoginFlow writes the outcome to the vault.
 */
export class FlowProvider implements OAuthClientProvider {
  readonly clientMetadataUrl?: string;
  private client: StoredOAuthClientInformation | undefined;
  private saved: StoredOAuthTokens | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState;
  resource: string | undefined;

  constructor(private readonly o: FlowProviderOptions) {
    this.client = o.client;
    this.discovery = o.discovery;
    if (o.clientMetadataUrl) this.clientMetadataUrl = o.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.o.redirectUrl;
  }

  /**
   * A native public client (RFC 8252 §8.4) unless the authorization server
   * does not accept public clients. No `scope` here: the scope comes from
   * the server's challenge or metadata (MCP 2025-11-25, "Scope Selection Strategy").
   */
  get clientMetadata(): OAuthClientMetadata {
    const supported =
      this.discovery.authorizationServerMetadata?.token_endpoint_auth_methods_supported;
    const method =
      !supported || supported.includes('none')
        ? 'none'
        : supported.includes('client_secret_basic')
          ? 'client_secret_basic'
          : 'client_secret_post';
    return {
      client_name: 'Airlock',
      software_id: 'airlock',
      software_version: appVersion(),
      redirect_uris: [this.o.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
    };
  }

  state(): string {
    return this.o.state;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    if (this.client?.issuer && ctx && this.client.issuer !== ctx.issuer) return undefined;
    return this.client;
  }

  async saveClientInformation(
    info: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    this.client = { ...info, ...(ctx ? { issuer: ctx.issuer } : {}) };
    await this.o.onClient(this.client);
  }

  /** A sign-in never starts from stored tokens: the user asked for a new grant. */
  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.o.onRedirect(url);
  }

  saveCodeVerifier(v: string): void {
    this.verifier = v;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier for this sign-in');
    return this.verifier;
  }

  saveDiscoveryState(s: OAuthDiscoveryState): void {
    this.discovery = s;
  }

  discoveryState(): OAuthDiscoveryState {
    return this.discovery;
  }

  saveResourceUrl(r: string): void {
    this.resource = r;
  }

  /**
   * RFC 8707 resource indicator: the protected-resource metadata's `resource`
   * when it covers the server URL, refused when it names another server
   * (RFC 9728 §3.3), and the server URL itself when there is no metadata —
   * the 2025-11-25 spec wants the parameter on every request regardless.
   */
  async validateResourceURL(serverUrl: string | URL, resource?: string): Promise<URL | undefined> {
    const expected = resourceUrlFromServerUrl(serverUrl);
    if (!resource) return expected;
    if (!checkResourceAllowed({ requestedResource: expected, configuredResource: resource })) {
      throw new LoginError(
        'RESOURCE_MISMATCH',
        `The server's metadata names another resource (${resource.slice(0, 200)}) than ${expected.href}; Airlock will not sign in to it.`,
      );
    }
    return new URL(resource);
  }

  tokensSaved(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  clientSaved(): StoredOAuthClientInformation | undefined {
    return this.client;
  }
}
