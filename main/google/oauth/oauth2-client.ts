import { OAuth2Client } from 'google-auth-library';

// Loaded on first use through libs.oauthClient (main/google/lazy.ts): google-auth-library
// costs ~18 MB and ~45 ms, and an `airlock serve` without Google accounts never needs it.
export { CodeChallengeMethod } from 'google-auth-library';

/** google-auth-library's client with the refresh call exposed without its credential bookkeeping. */
export class AirlockOAuth2Client extends OAuth2Client {
  /**
   * `refreshAccessToken()` overwrites a refresh token Google sent back with
   * the old one; this returns Google's answer as is, so a rotated token is kept.
   */
  refreshRaw(refreshToken: string) {
    return this.refreshTokenNoCache(refreshToken);
  }
}
