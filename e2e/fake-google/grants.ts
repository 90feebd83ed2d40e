import { createHash, randomBytes } from 'node:crypto';

/**
 * The fake's memory of what it issued: authorization codes, refresh tokens
 * and access tokens, with the account and scopes each carries. Token formats
 * imitate Google's (`4/…` codes, `1//…` refresh tokens, `ya29.…` access tokens)
 * so leak checks by value look for realistic strings.
 */
export interface CodeGrant {
  clientId: string;
  redirectUri: string;
  challenge?: string;
  challengeMethod?: string;
  scopes: string[];
  email: string;
  offline: boolean;
  forceConsent: boolean;
  used: boolean;
}

export interface RefreshGrant {
  clientId: string;
  email: string;
  scopes: string[];
  revoked: boolean;
}

export interface AccessGrant {
  email: string;
  scopes: string[];
  expiresAt: number;
  refreshToken?: string;
  revoked: boolean;
}

const rand = (n: number) => randomBytes(n).toString('base64url');

export class Grants {
  readonly codes = new Map<string, CodeGrant>();
  readonly refresh = new Map<string, RefreshGrant>();
  readonly access = new Map<string, AccessGrant>();
  /** Every code and token ever issued (for "no token in files or logs" checks). */
  readonly issued = new Set<string>();
  /** client+email pairs that consented before (Google sends a refresh token on first consent). */
  private readonly consented = new Set<string>();

  newCode(g: Omit<CodeGrant, 'used'>): string {
    const code = `4/0A${rand(40)}`;
    this.codes.set(code, { ...g, used: false });
    this.issued.add(code);
    return code;
  }

  /** Google returns a refresh token for offline access on a first consent or with prompt=consent. */
  wantsRefreshToken(g: CodeGrant): boolean {
    const key = `${g.clientId}\n${g.email}`;
    const first = !this.consented.has(key);
    this.consented.add(key);
    return g.offline && (first || g.forceConsent);
  }

  newRefreshToken(g: RefreshGrant): string {
    const token = `1//0${rand(60)}`;
    this.refresh.set(token, g);
    this.issued.add(token);
    return token;
  }

  newAccessToken(g: Omit<AccessGrant, 'revoked'>): string {
    const token = `ya29.a0${rand(90)}`;
    this.access.set(token, { ...g, revoked: false });
    this.issued.add(token);
    return token;
  }

  /** Revoking either token of a grant revokes the grant (developers.google.com/identity/protocols/oauth2/native-app#tokenrevoke). */
  revoke(token: string): boolean {
    const rt = this.refresh.get(token) ? token : this.access.get(token)?.refreshToken;
    const known = this.refresh.has(token) || this.access.has(token);
    if (!known) return false;
    const a = this.access.get(token);
    if (a) a.revoked = true;
    if (rt) {
      const r = this.refresh.get(rt);
      if (r) r.revoked = true;
      for (const acc of this.access.values()) if (acc.refreshToken === rt) acc.revoked = true;
    }
    return true;
  }

  /** The live access grant for a bearer token, or why not. */
  check(
    token: string | undefined,
    now = Date.now(),
  ): AccessGrant | 'missing' | 'invalid' | 'expired' {
    if (!token) return 'missing';
    const g = this.access.get(token);
    if (!g || g.revoked) return 'invalid';
    if (g.expiresAt <= now) return 'expired';
    return g;
  }

  /** Makes every access token expired (the next API call gets 401). */
  expireAll(): void {
    for (const g of this.access.values()) g.expiresAt = 0;
  }
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
export function pkceMatches(verifier: string, challenge: string, method = 'plain'): boolean {
  const computed =
    method === 'S256'
      ? createHash('sha256').update(verifier, 'ascii').digest('base64url')
      : verifier;
  return computed === challenge;
}
