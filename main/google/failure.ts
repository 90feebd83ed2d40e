import { readErrorBody, retryAfterHeader, retryAfterSeconds } from './api-errors.js';

/**
 * The one classifier of Google failures (issue 13): an API answer, an OAuth
 * endpoint answer, a gaxios error, a fetch failure or an abort → one kind.
 * The accounts layer, Gmail and Calendar each keep only their wording
 * (main/google/errors.ts, gmail/errors.ts, calendar/errors.ts); the rules
 * live here and are tested once, in failure.test.ts.
 *
 * Sources: AIP-193 error shape (cloud.google.com/apis/design/errors);
 * developers.google.com/gmail/api/guides/handle-errors and
 * developers.google.com/calendar/api/guides/errors (403 rateLimitExceeded as
 * well as 429; 403 insufficientPermissions for a scope); RFC 6749 §5.2 for
 * the OAuth endpoints; RFC 9110 §10.2.3 for Retry-After.
 */
export type FailureKind =
  | 'rate-limited'
  | 'scope'
  /** 401 from an API: the access token was not accepted. */
  | 'auth'
  /** invalid_grant from the token endpoint: the grant is gone, the user must reconnect. */
  | 'revoked'
  /** invalid_client / unauthorized_client: the OAuth client itself was rejected. */
  | 'client'
  | 'forbidden'
  | 'not-found'
  | 'gone'
  | 'conflict'
  | 'bad-request'
  | 'server'
  | 'network'
  | 'aborted'
  | 'other';

export interface GoogleFailure {
  kind: FailureKind;
  /** HTTP status, absent when Google was not reached. */
  status?: number;
  /** errors[].reason, details[].reason and error.status, in that order. */
  reasons: string[];
  /** Google's own message (API `error.message`, or OAuth `error: error_description`), else the error's message. */
  message: string;
  /** Only when Google said (header or "Retry after <date>" in the message); the wording picks any default. */
  retryAfterSeconds?: number;
  /** The OAuth error code (RFC 6749 §5.2), e.g. `invalid_grant`. */
  oauthError?: string;
  /** What failed at the network level: `ECONNREFUSED`, `timeout`, … */
  networkCode?: string;
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
const SCOPE_TEXT = /insufficient (authentication )?scopes|insufficient permission/i;
const NETWORK_CODE = /^(E[A-Z_]+|UND_ERR\w*)$/;

/** A non-2xx answer: status, its body (object or JSON text) and its headers. */
/**
 * How long to wait after a rate limit: Google's own hint when it gave one, else 30 s after a 429
 * and 60 s after a 403 rate-limit reason (developers.google.com/gmail/api/guides/handle-errors
 * and …/calendar/api/guides/errors: back off exponentially; "usage limits" are per minute). One
 * default for Gmail, Calendar and token refreshes (issue 31: three defaults before).
 */
export function rateLimitWait(f: Pick<GoogleFailure, 'status' | 'retryAfterSeconds'>): number {
  return f.retryAfterSeconds ?? (f.status === 403 ? 60 : 30);
}

export function classifyResponse(
  status: number,
  body: unknown,
  headers?: unknown,
  now = Date.now(),
): GoogleFailure {
  const b = readErrorBody(body);
  const reasons = [...b.reasons, ...b.detailReasons, b.status ?? ''].filter(Boolean);
  const message =
    b.message ??
    (b.oauthError ? [b.oauthError, b.oauthDescription].filter(Boolean).join(': ') : '');
  const out: GoogleFailure = { kind: 'other', status, reasons, message };
  if (b.oauthError) out.oauthError = b.oauthError;
  const retry = retryAfterHeader(headers, now) ?? retryAfterFromMessage(message, now);
  if (retry !== undefined) out.retryAfterSeconds = retry;
  out.kind = kindOf(out);
  return out;
}

interface ErrorLike {
  name?: string;
  status?: number;
  code?: string | number;
  message?: string;
  cause?: { code?: unknown; name?: unknown };
  response?: { status?: number; statusText?: string; data?: unknown; headers?: unknown };
}

/** Anything thrown by gaxios, fetch or an AbortSignal. */
export function classify(err: unknown, now = Date.now()): GoogleFailure {
  const e = (err && typeof err === 'object' ? err : {}) as ErrorLike;
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : String(err);
  const status = e.response?.status ?? (typeof e.status === 'number' ? e.status : undefined);
  if (status) {
    const f = classifyResponse(status, e.response?.data, e.response?.headers, now);
    if (!f.message) f.message = e.response?.statusText || text;
    return f;
  }
  const aborted =
    e.name === 'AbortError' ||
    e.code === 'ABORT_ERR' ||
    e.code === 'AbortError' ||
    e.cause?.name === 'AbortError';
  if (aborted) return { kind: 'aborted', reasons: [], message: text };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const causeCode = typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  const networkCode =
    e.name === 'TimeoutError' || code === 'ETIMEDOUT'
      ? 'timeout'
      : [code, causeCode].find((c) => c !== undefined && NETWORK_CODE.test(c));
  if (networkCode) return { kind: 'network', reasons: [], message: text, networkCode };
  return { kind: 'other', reasons: [], message: text };
}

function kindOf(f: GoogleFailure): FailureKind {
  const status = f.status ?? 0;
  // OAuth endpoint answers first: invalid_client arrives as 401 and must not read as a token problem.
  if (f.oauthError === 'invalid_grant') return 'revoked';
  if (f.oauthError === 'invalid_client' || f.oauthError === 'unauthorized_client') return 'client';
  if (status === 429 || f.oauthError === 'rate_limit_exceeded') return 'rate-limited';
  // 403 carries both rate limits and missing scopes; the reason decides (rate first: it is retriable).
  if (status === 403 && f.reasons.some((r) => RATE_REASONS.has(r))) return 'rate-limited';
  if (
    status === 403 &&
    (f.reasons.some((r) => SCOPE_REASONS.has(r)) ||
      SCOPE_TEXT.test(f.message) ||
      (f.reasons.includes('PERMISSION_DENIED') && /scope/i.test(f.message)))
  )
    return 'scope';
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 410) return 'gone';
  if (status === 409) return 'conflict';
  if (status === 400) return 'bad-request';
  if (status >= 500) return 'server';
  return 'other';
}

/** Worth another try for a read: rate limits, Google's 5xx and dropped connections. */
export function isRetriable(f: GoogleFailure): boolean {
  return f.kind === 'rate-limited' || f.kind === 'server' || f.kind === 'network';
}

/** Gmail says "User-rate limit exceeded.  Retry after 2026-01-01T00:00:00.000Z". */
function retryAfterFromMessage(message: string, now: number): number | undefined {
  const m = /retry after (.+)$/i.exec(message.trim());
  if (!m?.[1]) return undefined;
  const rest = m[1].replace(/\.$/, '');
  return retryAfterSeconds(rest, now) ?? retryAfterSeconds(rest.split(/\s+/)[0], now);
}

/** "Try again in 1 second." / "Try again in 30 seconds." */
export function tryAgainIn(seconds: number): string {
  return `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
}
