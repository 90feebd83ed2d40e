import type { Credentials } from 'google-auth-library';
import type { GoogleClientCredentials } from '../client-config.js';
import type { GoogleEndpoints } from '../endpoints.js';
import { libs } from '../lazy.js';
import { parseScopeString } from '../scopes.js';
import type { AirlockOAuth2Client } from './oauth2-client.js';

/** A token endpoint answer, normalised. */
export interface TokenAnswer {
  accessToken: string;
  /** Absent on most refresh answers: keep the old one (docs/google.md). */
  refreshToken?: string;
  /** ms since the epoch. */
  expiry: number;
  /** Granted scopes, when Google said (it does on code exchange and refresh). */
  scopes?: string[];
}

/**
 * Google's OAuth 2.0 endpoints for installed apps, through google-auth-library
 * (docs/google.md): authorization URL with PKCE S256, code exchange,
 * refresh and revocation; endpoints overridable for the fake (issue 5, item 8).
 */
export class GoogleOAuth {
  private oauthClient: Promise<AirlockOAuth2Client> | undefined;

  constructor(
    private readonly o: {
      client: GoogleClientCredentials;
      endpoints: GoogleEndpoints;
      timeoutMs?: number;
    },
  ) {}

  /** google-auth-library's client, built on first use (the library loads lazily; issue 2). */
  private client(): Promise<AirlockOAuth2Client> {
    return (this.oauthClient ??= libs.oauthClient().then(
      ({ AirlockOAuth2Client }) =>
        new AirlockOAuth2Client({
          clientId: this.o.client.clientId,
          clientSecret: this.o.client.clientSecret,
          endpoints: {
            oauth2AuthBaseUrl: this.o.endpoints.authUrl,
            oauth2TokenUrl: this.o.endpoints.tokenUrl,
            oauth2RevokeUrl: this.o.endpoints.revokeUrl,
          },
          transporterOptions: { timeout: this.o.timeoutMs ?? 30_000 },
        }),
    ));
  }

  get clientId(): string {
    return this.o.client.clientId;
  }

  /** A fresh code verifier and its S256 challenge (RFC 7636 §4.1–4.2). */
  async pkce(): Promise<{ verifier: string; challenge: string }> {
    const r = await (await this.client()).generateCodeVerifierAsync();
    if (!r.codeChallenge) throw new Error('PKCE challenge was not generated.');
    return { verifier: r.codeVerifier, challenge: r.codeChallenge };
  }

  /**
   * The consent URL. `access_type=offline` + `prompt=consent` are what make
   * Google return a refresh token every time (Google, "OAuth 2.0 for installed apps").
   */
  async authUrl(p: {
    redirectUri: string;
    state: string;
    challenge: string;
    scopes: string[];
    loginHint?: string;
  }): Promise<string> {
    const [client, { CodeChallengeMethod }] = await Promise.all([
      this.client(),
      libs.oauthClient(),
    ]);
    return client.generateAuthUrl({
      redirect_uri: p.redirectUri,
      response_type: 'code',
      scope: p.scopes,
      state: p.state,
      code_challenge: p.challenge,
      code_challenge_method: CodeChallengeMethod.S256,
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: true,
      ...(p.loginHint ? { login_hint: p.loginHint } : {}),
    });
  }

  async exchange(p: { code: string; verifier: string; redirectUri: string }): Promise<TokenAnswer> {
    const { tokens } = await (
      await this.client()
    ).getToken({ code: p.code, codeVerifier: p.verifier, redirect_uri: p.redirectUri });
    return answer(tokens);
  }

  async refresh(refreshToken: string): Promise<TokenAnswer> {
    const { tokens } = await (await this.client()).refreshRaw(refreshToken);
    return answer(tokens);
  }

  /** Revoking the refresh token ends the whole grant (developers.google.com/identity/protocols/oauth2/native-app#tokenrevoke). */
  async revoke(token: string): Promise<void> {
    await (await this.client()).revokeToken(token);
  }

  /** The account's address, from the OpenID Connect userinfo endpoint (scopes `openid email`). */
  async email(accessToken: string): Promise<string> {
    const res = await fetch(this.o.endpoints.userinfoUrl, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000),
    });
    if (!res.ok) throw new Error(`Google's userinfo endpoint answered HTTP ${res.status}.`);
    const body = (await res.json().catch(() => ({}))) as { email?: unknown };
    if (typeof body.email !== 'string' || !body.email.includes('@'))
      throw new Error('Google did not say which account was connected (no e-mail in userinfo).');
    return body.email.toLowerCase();
  }
}

function answer(tokens: Credentials): TokenAnswer {
  if (!tokens.access_token) throw new Error("Google's token answer had no access token.");
  return {
    accessToken: tokens.access_token,
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    // google-auth-library turns expires_in into expiry_date; Google's access tokens live an hour.
    expiry: tokens.expiry_date ?? Date.now() + 3600_000,
    ...(tokens.scope !== undefined ? { scopes: parseScopeString(tokens.scope) } : {}),
  };
}
