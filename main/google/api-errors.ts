/**
 * Reading Google's error answers, shared by the account/OAuth, Gmail and
 * Calendar error mapping (classified once, in failure.ts). Google API errors are
 * `{ error: { code, message, status, errors: [{ reason }], details: [{ reason }] } }`
 * (AIP-193; cloud.google.com/apis/design/errors); the OAuth endpoints answer
 * `{ error, error_description }` (RFC 6749 §5.2).
 */

export interface GoogleErrorBody {
  /** `error.message` of an API error. */
  message?: string;
  /** `error.status`, e.g. `PERMISSION_DENIED`. */
  status?: string;
  /** `error.errors[].reason` (v1 shape). */
  reasons: string[];
  /** `error.details[].reason` (v2 shape, e.g. `ACCESS_TOKEN_SCOPE_INSUFFICIENT`). */
  detailReasons: string[];
  /** OAuth endpoints: `error` as a string, and `error_description`. */
  oauthError?: string;
  oauthDescription?: string;
}

interface RawBody {
  error?:
    | {
        message?: unknown;
        status?: unknown;
        errors?: { reason?: string }[];
        details?: { reason?: string }[];
      }
    | string;
  error_description?: unknown;
}

/** The parts of an error body (object, or JSON text) that are safe to repeat. */
export function readErrorBody(data: unknown): GoogleErrorBody {
  const b = parseData(data) as RawBody;
  const err = b.error && typeof b.error === 'object' ? b.error : undefined;
  const out: GoogleErrorBody = {
    reasons: (err?.errors ?? []).map((r) => r.reason ?? ''),
    detailReasons: (err?.details ?? []).map((r) => r.reason ?? ''),
  };
  if (typeof err?.message === 'string') out.message = err.message;
  if (typeof err?.status === 'string') out.status = err.status;
  if (typeof b.error === 'string') out.oauthError = b.error;
  if (typeof b.error_description === 'string') out.oauthDescription = b.error_description;
  return out;
}

/** Retry-After is seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The Retry-After of a fetch `Headers` or a gaxios header record. */
export function retryAfterHeader(headers: unknown, now = Date.now()): number | undefined {
  return retryAfterSeconds(headerOf(headers, 'retry-after'), now);
}

function headerOf(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  if (typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name) ?? undefined;
  const v = (headers as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
}

function parseData(data: unknown): Record<string, unknown> {
  if (typeof data === 'string') {
    try {
      return (JSON.parse(data) ?? {}) as Record<string, unknown>;
    } catch {
      return {};
    }
  }
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}
