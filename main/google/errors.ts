import { errorResult, type CallToolResult } from '../tools/types.js';
import { isVaultError } from '../platform/vault/vault.js';
import { GoogleToolError } from './account-access.js';
import { readErrorBody, retryAfterHeader } from './api-errors.js';

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

interface HttpLikeError {
  status?: number;
  code?: string | number;
  message?: string;
  response?: { status?: number; data?: unknown; headers?: unknown };
}

/** Reads the parts of a GaxiosError (or any fetch-like failure) that are safe to repeat. */
export function describeOAuthError(err: unknown): OAuthFailure {
  const e = (err ?? {}) as HttpLikeError;
  const status = e.response?.status ?? e.status;
  if (!status) {
    const code =
      typeof e.code === 'string'
        ? e.code
        : (err as Error)?.name === 'TimeoutError'
          ? 'timeout'
          : 'no answer';
    return { network: code };
  }
  const data = readErrorBody(e.response?.data);
  const out: OAuthFailure = { status };
  if (data.oauthError) out.error = data.oauthError;
  if (data.oauthDescription) out.description = data.oauthDescription;
  const retry = retryAfterHeader(e.response?.headers);
  if (retry !== undefined) out.retryAfterSeconds = retry;
  return out;
}

/** What a failed refresh means for the account (issue 5, item 6). */
export function refreshError(
  err: unknown,
  email: string,
): { error: GoogleToolError; revoked: boolean; detail?: string } {
  if (err instanceof GoogleToolError) return { error: err, revoked: false };
  if (isVaultError(err)) return { error: vaultToolError(err.code, err.message), revoked: false };
  const f = describeOAuthError(err);
  const said = [f.error, f.description].filter(Boolean).join(': ');
  if (f.error === 'invalid_grant') {
    // Revoked at myaccount.google.com, expired (7 days while the consent screen is
    // "Testing", 6 months unused), password change, or too many tokens (Google, "OAuth 2.0": refresh token expiration).
    const detail = `Google no longer accepts Airlock's access (${said}).`;
    return {
      error: new GoogleToolError('OAUTH_REVOKED', revokedMessage(email, detail)),
      revoked: true,
      detail,
    };
  }
  if (f.status === 429 || f.error === 'rate_limit_exceeded') {
    return {
      error: new GoogleToolError(
        'RATE_LIMITED',
        `Google is rate-limiting token refreshes for ${email}.`,
        f.retryAfterSeconds ?? 30,
      ),
      revoked: false,
    };
  }
  if (f.error === 'invalid_client' || f.error === 'unauthorized_client') {
    return {
      error: new GoogleToolError(
        'GOOGLE_API',
        `Google rejected Airlock's OAuth client (${said}). The client may have been deleted or its secret reset: import it again with "airlock google client import FILE", then reconnect ${email}.`,
      ),
      revoked: false,
    };
  }
  if (f.network)
    return {
      error: new GoogleToolError(
        'GOOGLE_API',
        `Could not reach Google to refresh access for ${email} (${f.network}). Check the network and try again.`,
      ),
      revoked: false,
    };
  return {
    error: new GoogleToolError(
      'GOOGLE_API',
      `Refreshing access for ${email} failed (HTTP ${f.status}${said ? `, ${said}` : ''}). Try again shortly.`,
    ),
    revoked: false,
  };
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

const RATE_REASONS = new Set([
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'RATE_LIMIT_EXCEEDED',
]);
const SCOPE_REASONS = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT']);

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
  const b = readErrorBody(body);
  const reasons = [...b.reasons, ...b.detailReasons];
  const message =
    b.message ??
    (b.oauthError ? [b.oauthError, b.oauthDescription].filter(Boolean).join(': ') : '');
  const quoted = message ? ` Google said: "${message}".` : '';
  if (status === 429 || reasons.some((r) => RATE_REASONS.has(r))) {
    const after =
      retryAfterHeader(headers) ?? retryAfterFromMessage(message) ?? (status === 429 ? 30 : 60);
    return new GoogleToolError(
      'RATE_LIMITED',
      `Google rate limit reached for ${email}.${quoted}`,
      after,
    );
  }
  if (
    status === 403 &&
    (reasons.some((r) => SCOPE_REASONS.has(r)) ||
      /insufficient authentication scopes/i.test(message))
  ) {
    return new GoogleToolError(
      'OAUTH_SCOPE',
      `${email} has not granted Airlock the permission this needs. Reconnect ${email} in Airlock and allow every requested access.${quoted}`,
    );
  }
  if (status === 401)
    return new GoogleToolError(
      'OAUTH_REVOKED',
      revokedMessage(email, `Google rejected the access token.${quoted}`),
    );
  return new GoogleToolError('GOOGLE_API', `Google answered HTTP ${status} for ${email}.${quoted}`);
}

/**
 * The `isError` result a Google tool returns for any failure: the agent reads
 * the code and what to do; nothing secret is included.
 */
export function googleErrorResult(err: unknown): CallToolResult {
  const e =
    err instanceof GoogleToolError
      ? err
      : isVaultError(err)
        ? vaultToolError(err.code, err.message)
        : null;
  if (!e)
    return errorResult(
      `Google request failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  const retry =
    e.retryAfterSeconds !== undefined ? ` Retry after ${e.retryAfterSeconds} seconds.` : '';
  return errorResult(`${e.code}: ${e.message}${retry}`, {
    structuredContent: {
      error: {
        code: e.code,
        message: e.message,
        ...(e.retryAfterSeconds !== undefined ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
      },
    },
  });
}

/** Gmail says "User-rate limit exceeded.  Retry after 2026-01-01T00:00:00.000Z". */
function retryAfterFromMessage(message: string, now = Date.now()): number | undefined {
  const m = /retry after (\S+)/i.exec(message);
  if (!m?.[1]) return undefined;
  const at = Date.parse(m[1]);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
