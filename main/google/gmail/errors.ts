import { GoogleToolError } from '../account-access.js';
import { readErrorBody, retryAfterHeader } from '../api-errors.js';

/**
 * Google API failures → GoogleToolError with a sentence an agent can act on.
 * Google's error body is `{ error: { code, message, errors: [{ reason }], status } }`
 * (cloud.google.com/apis/design/errors; developers.google.com/gmail/api/guides/handle-errors).
 */

interface HttpishError {
  status?: number;
  code?: string | number;
  message?: string;
  name?: string;
  response?: { status?: number; data?: unknown; headers?: unknown };
}

export interface ErrorFacts {
  status: number | undefined;
  reasons: string[];
  message: string;
  retryAfterSeconds: number | undefined;
  network: boolean;
  aborted: boolean;
}

const RATE_REASONS = new Set([
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'dailyLimitExceeded',
  'RATE_LIMIT_EXCEEDED',
  'RESOURCE_EXHAUSTED',
]);
const SCOPE_REASONS = new Set([
  'insufficientPermissions',
  'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
  'forbidden_scope',
]);

/** The parts of a gaxios error (or anything thrown) that decide what to do. */
export function factsOf(err: unknown): ErrorFacts {
  const e = (err ?? {}) as HttpishError;
  const status = e.response?.status ?? e.status;
  const body = readErrorBody(e.response?.data);
  const reasons = [...body.reasons, ...body.detailReasons, body.status ?? ''].filter(Boolean);
  const aborted =
    e.name === 'AbortError' || e.code === 'ABORT_ERR' || /aborted/i.test(e.message ?? '');
  return {
    status,
    reasons,
    message: body.message ?? e.message ?? String(err),
    retryAfterSeconds: retryAfterHeader(e.response?.headers),
    network:
      status === undefined &&
      !aborted &&
      typeof e.code === 'string' &&
      /^(E[A-Z]+|UND_ERR)/.test(e.code),
    aborted,
  };
}

export function isRateLimit(f: ErrorFacts): boolean {
  // Gmail signals rate limits with 429, and with 403 + rateLimitExceeded on older paths.
  return f.status === 429 || (f.status === 403 && f.reasons.some((r) => RATE_REASONS.has(r)));
}

/** Worth another try for a read: rate limits, Google's 5xx and dropped connections. */
export function isRetriable(f: ErrorFacts): boolean {
  if (f.aborted) return false;
  return isRateLimit(f) || (f.status !== undefined && f.status >= 500) || f.network;
}

/**
 * A GoogleToolError for the failure. `what` names the thing asked for
 * ("message 18c…"), `account` the mailbox; neither carries a secret.
 */
export function toToolError(err: unknown, ctx: { account: string; what: string }): GoogleToolError {
  if (err instanceof GoogleToolError) return err;
  const f = factsOf(err);
  const detail = f.message.replace(/\s+/g, ' ').slice(0, 300);
  if (f.aborted)
    return new GoogleToolError('GOOGLE_API', `The request for ${ctx.what} was cancelled.`);
  if (isRateLimit(f)) {
    const wait = f.retryAfterSeconds;
    return new GoogleToolError(
      'RATE_LIMITED',
      `Gmail is rate-limiting ${ctx.account} (${f.status}: ${detail}). ${wait !== undefined ? `Try again in ${wait} seconds.` : 'Wait a minute before trying again.'}`,
      wait,
    );
  }
  if (f.status === 401) {
    return new GoogleToolError(
      'OAUTH_REVOKED',
      `Google did not accept Airlock's sign-in for ${ctx.account} (401: ${detail}). The user needs to reconnect this account in Airlock.`,
    );
  }
  if (
    f.status === 403 &&
    (f.reasons.some((r) => SCOPE_REASONS.has(r)) ||
      /insufficient (authentication )?scopes|insufficient permission/i.test(detail))
  ) {
    return new GoogleToolError(
      'OAUTH_SCOPE',
      `Airlock's access to ${ctx.account} does not include permission for ${ctx.what} (403: ${detail}). The user can reconnect the account in Airlock and grant Gmail access.`,
    );
  }
  if (f.status === 403)
    return new GoogleToolError(
      'GOOGLE_API',
      `Gmail refused ${ctx.what} for ${ctx.account} (403: ${detail}).`,
    );
  if (f.status === 404)
    return new GoogleToolError(
      'GOOGLE_API',
      `Gmail found no ${ctx.what} in ${ctx.account} (404). Check the id: use the exact id from gmail_search.`,
    );
  if (f.status === 400)
    return new GoogleToolError(
      'GOOGLE_API',
      `Gmail rejected the request for ${ctx.what} (400: ${detail}).`,
    );
  if (f.status !== undefined && f.status >= 500)
    return new GoogleToolError(
      'GOOGLE_API',
      `Gmail had a server error on ${ctx.what} (${f.status}: ${detail}). Try again later.`,
    );
  if (f.network)
    return new GoogleToolError(
      'GOOGLE_API',
      `Airlock could not reach Gmail for ${ctx.what} (${detail}).`,
    );
  return new GoogleToolError(
    'GOOGLE_API',
    `Gmail request for ${ctx.what} failed${f.status ? ` (${f.status})` : ''}: ${detail}`,
  );
}

/** The text of an isError result for a GoogleToolError. */
export function errorText(err: GoogleToolError): string {
  return `${err.message} [${err.code}]`;
}
