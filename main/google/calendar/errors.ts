import { GoogleToolError } from '../account-access.js';
import { readErrorBody, retryAfterHeader } from '../api-errors.js';
import { errorResult, type CallToolResult } from '../../tools/types.js';

/** Bad arguments: the agent can fix them. The message says what and how. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * Calendar signals usage limits with 403 rateLimitExceeded / userRateLimitExceeded
 * as well as 429 (developers.google.com/calendar/api/guides/errors).
 */
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded']);
const SCOPE_REASONS = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT']);

/**
 * Every failure of a calendar tool as an `isError` result the agent can act
 * on. Only Google's own error message is quoted: a GaxiosError also carries
 * the request (with the bearer token), which must never reach a result.
 */
export function toErrorResult(err: unknown, account: string | undefined): CallToolResult {
  if (err instanceof InputError) return errorResult(err.message);
  if (err instanceof GoogleToolError) return coded(err.code, err.message, err.retryAfterSeconds);
  if (isHttpError(err)) return fromGaxios(err, account);
  return errorResult(
    `Google Calendar call failed: ${err instanceof Error ? err.message : String(err)}`,
  );
}

function coded(code: string, message: string, retryAfterSeconds?: number): CallToolResult {
  // The code ends the text, as in Gmail's results, so an agent reading text only still sees it.
  const retry = retryAfterSeconds !== undefined ? ` Retry after ${retryAfterSeconds} seconds.` : '';
  const text = `${message}${retry} [${code}]`;
  return errorResult(text, {
    structuredContent: {
      error: { code, message, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) },
    },
  });
}

/** The parts of a GaxiosError we read (duck-typed: gaxios is googleapis-common's dependency, not ours). */
interface HttpError {
  status?: number;
  code?: string | number;
  response?: { status?: number; statusText?: string; data?: unknown; headers?: unknown };
}

function isHttpError(err: unknown): err is HttpError & Error {
  return err instanceof Error && 'config' in err && ('response' in err || 'code' in err);
}

function fromGaxios(err: HttpError, account: string | undefined): CallToolResult {
  const status = err.response?.status ?? err.status;
  if (err.code === 'AbortError')
    return errorResult('The call was cancelled before Google Calendar answered.');
  if (!status) {
    const why = typeof err.code === 'string' ? err.code : 'no answer';
    return coded(
      'GOOGLE_API',
      `Could not reach Google Calendar (${why}). Check the network and try again.`,
    );
  }
  const body = readErrorBody(err.response?.data);
  const reasons = body.reasons;
  const said = body.message ?? err.response?.statusText ?? '';
  const who = account ? ` for ${account}` : '';
  const quoted = said ? ` Google said: "${said}".` : '';
  if (status === 429 || (status === 403 && reasons.some((r) => RATE_REASONS.has(r)))) {
    const after = retryAfterHeader(err.response?.headers) ?? (status === 429 ? 30 : 60);
    return coded(
      'RATE_LIMITED',
      `Google Calendar rate limit reached${who} (about 600 requests a minute per user).`,
      after,
    );
  }
  if (status === 401) {
    return coded(
      'OAUTH_REVOKED',
      `Google rejected Airlock's access${who}. Reconnect the account in Airlock.${quoted}`,
    );
  }
  if (
    status === 403 &&
    (reasons.some((r) => SCOPE_REASONS.has(r)) ||
      (body.status === 'PERMISSION_DENIED' && /scope/i.test(said)))
  ) {
    return coded(
      'OAUTH_SCOPE',
      `The Google account${who} has not granted Airlock Calendar access for this. Reconnect it in Airlock and allow Calendar.${quoted}`,
    );
  }
  if (status === 403) {
    return coded(
      'GOOGLE_API',
      `Google Calendar refused this (403)${who}: you may not have write access to that calendar, or only the organizer may change the event.${quoted}`,
    );
  }
  if (status === 404) {
    return coded(
      'GOOGLE_API',
      `Not found (404): no such calendar or event${who}. Check the id; event ids come from calendar_list_events or calendar_get_event.${quoted}`,
    );
  }
  if (status === 410)
    return coded('GOOGLE_API', `Gone (410): the event has already been deleted.${quoted}`);
  if (status === 409)
    return coded('GOOGLE_API', `Conflict (409): an event with that id already exists.${quoted}`);
  if (status === 400)
    return coded('GOOGLE_API', `Google Calendar refused the request (400).${quoted}`);
  if (status >= 500)
    return coded(
      'GOOGLE_API',
      `Google Calendar had a problem (${status}); try again in a minute.${quoted}`,
    );
  return coded('GOOGLE_API', `Google Calendar answered ${status}.${quoted}`);
}
