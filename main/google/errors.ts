import { errorResult, type CallToolResult } from '../tools/types.js';
import { isVaultError } from '../platform/vault/vault.js';
import { GoogleToolError } from './account-access.js';
import { classify, classifyResponse, rateLimitWait, tryAgainIn } from './failure.js';

/**
 * Turning Google's failures into errors an agent (and a user) can act on
 * (issue 5, item 6). Only Google's `error` / `error_description` / message are
 * quoted: a GaxiosError also carries the request, whose body holds the
 * refresh token and client secret, so it is never logged or passed on whole.
 */

export interface OAuthFailure {
  /** HTTP status, absent when Google was not reached at all. */
  status?: number;
  /** OAuth error code (RFC 6749 §5.2), e.g. `invalid_grant`. */
  error?: string;
  description?: string;
  retryAfterSeconds?: number;
  /** Network-level failure (ECONNREFUSED, timeout, …). */
  network?: string;
}

/** Reads the parts of a GaxiosError (or any fetch-like failure) that are safe to repeat. */
export function describeOAuthError(err: unknown): OAuthFailure {
  const f = classify(err);
  if (f.status === undefined) return { network: f.networkCode ?? 'no answer' };
  const out: OAuthFailure = { status: f.status };
  if (f.oauthError) {
    out.error = f.oauthError;
    const description = f.message.slice(f.oauthError.length + 2);
    if (description) out.description = description;
  }
  if (f.retryAfterSeconds !== undefined) out.retryAfterSeconds = f.retryAfterSeconds;
  return out;
}

/** What a failed refresh means for the account (issue 5, item 6). */
export function refreshError(
  err: unknown,
  email: string,
): { error: GoogleToolError; revoked: boolean; detail?: string } {
  if (err instanceof GoogleToolError) return { error: err, revoked: false };
  if (isVaultError(err)) return { error: vaultToolError(err.code, err.message), revoked: false };
  const f = classify(err);
  const said = f.oauthError ? f.message : '';
  const fail = (message: string, retry?: number) => ({
    error: new GoogleToolError('GOOGLE_API', message, retry),
    revoked: false,
  });
  switch (f.kind) {
    case 'revoked': {
      // Revoked at myaccount.google.com, expired (7 days while the consent screen is
      // "Testing", 6 months unused), password change, or too many tokens (Google, "OAuth 2.0": refresh token expiration).
      const detail = `Google no longer accepts Airlock's access (${said}).`;
      return {
        error: new GoogleToolError('OAUTH_REVOKED', revokedMessage(email, detail)),
        revoked: true,
        detail,
      };
    }
    case 'rate-limited':
      return {
        error: new GoogleToolError(
          'RATE_LIMITED',
          `Google is rate-limiting token refreshes for ${email}.`,
          rateLimitWait(f),
        ),
        revoked: false,
      };
    case 'client':
      return fail(
        `Google rejected Airlock's OAuth client (${said}). The client may have been deleted or its secret reset: import it again with "airlock google client import FILE", then reconnect ${email}.`,
      );
    case 'network':
    case 'aborted':
      return fail(
        `Could not reach Google to refresh access for ${email} (${f.networkCode ?? f.kind}). Check the network and try again.`,
      );
    default:
      if (f.status === undefined)
        return fail(
          `Could not reach Google to refresh access for ${email} (no answer). Check the network and try again.`,
        );
      return fail(
        `Refreshing access for ${email} failed (HTTP ${f.status}${said ? `, ${said}` : ''}). Try again shortly.`,
      );
  }
}

export function revokedMessage(email: string, detail?: string): string {
  return `Reconnect ${email} in Airlock (Accounts page, or "airlock connect google --account ${email}").${detail ? ` ${detail}` : ''}`;
}

export function vaultToolError(
  code: 'VAULT_LOCKED' | 'KEYCHAIN_UNAVAILABLE',
  message: string,
): GoogleToolError {
  const hint =
    code === 'VAULT_LOCKED'
      ? 'Unlock the system keychain (log in again or unlock it in your keychain app), then retry.'
      : 'The system keychain is not available.';
  return new GoogleToolError(code, `${hint} (${message})`);
}

/**
 * A non-2xx answer of a Google API (AIP-193 JSON error shape) as a typed
 * error: 403 for a missing scope → OAUTH_SCOPE; 429 and 403 rate-limit
 * reasons → RATE_LIMITED with Google's retry hint; 401 → OAUTH_REVOKED.
 */
export function apiError(
  status: number,
  body: unknown,
  headers: Headers | Record<string, unknown> | undefined,
  email: string,
): GoogleToolError {
  const f = classifyResponse(status, body, headers);
  const quoted = f.message ? ` Google said: "${f.message}".` : '';
  switch (f.kind) {
    case 'rate-limited':
      return new GoogleToolError(
        'RATE_LIMITED',
        `Google rate limit reached for ${email}.${quoted}`,
        rateLimitWait(f),
      );
    case 'scope':
      return new GoogleToolError(
        'OAUTH_SCOPE',
        `${email} has not granted Airlock the permission this needs. Reconnect ${email} in Airlock and allow every requested access.${quoted}`,
      );
    case 'auth':
      return new GoogleToolError(
        'OAUTH_REVOKED',
        revokedMessage(email, `Google rejected the access token.${quoted}`),
      );
    default:
      return new GoogleToolError(
        'GOOGLE_API',
        `Google answered HTTP ${status} for ${email}.${quoted}`,
      );
  }
}

/**
 * The one text and shape of a failed Google tool call, Gmail and Calendar
 * alike: what happened and what to do, the retry hint, then the code in
 * brackets at the end; the same facts in `structuredContent.error`. Nothing
 * secret is included.
 */
export function toolErrorResult(e: GoogleToolError): CallToolResult {
  const retry = e.retryAfterSeconds !== undefined ? ` ${tryAgainIn(e.retryAfterSeconds)}` : '';
  return errorResult(`${e.message}${retry} [${e.code}]`, {
    structuredContent: {
      error: {
        code: e.code,
        message: e.message,
        ...(e.retryAfterSeconds !== undefined ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
      },
    },
  });
}

/** toolErrorResult for anything thrown: a GoogleToolError, a vault error, or something unexpected. */
export function googleErrorResult(err: unknown): CallToolResult {
  if (err instanceof GoogleToolError) return toolErrorResult(err);
  if (isVaultError(err)) return toolErrorResult(vaultToolError(err.code, err.message));
  return errorResult(`Google request failed: ${err instanceof Error ? err.message : String(err)}`);
}
