import { GoogleToolError } from '../account-access.js';
import { googleErrorResult } from '../errors.js';
import { classify, rateLimitWait } from '../failure.js';
import { errorResult, type CallToolResult } from '../../tools/types.js';

/**
 * What the agent is told when the event is no longer the version the user approved: the run's
 * read differs from it, or Google refused the write's If-Match with 412 (event-version.ts).
 */
export const CHANGED_SINCE_APPROVED =
  'The event changed since it was approved (its guests, time or anything else); nothing was changed. Ask again: call the tool again, so Airlock checks the event as it is now and the user sees that.';

/** Bad arguments: the agent can fix them. The message says what and how. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * Every failure of a calendar tool as an `isError` result the agent can act
 * on, in the shared format (../errors.ts toolErrorResult). Only Google's own
 * error message is quoted: a GaxiosError also carries the request (with the
 * bearer token), which must never reach a result.
 */
export function toErrorResult(err: unknown, account: string | undefined): CallToolResult {
  if (err instanceof InputError) return errorResult(err.message);
  if (err instanceof GoogleToolError) return googleErrorResult(err);
  if (isHttpError(err)) return googleErrorResult(calendarError(err, account));
  return googleErrorResult(err);
}

/** The parts of a GaxiosError we check for (duck-typed: gaxios is googleapis-common's dependency, not ours). */
function isHttpError(err: unknown): err is Error {
  return err instanceof Error && 'config' in err && ('response' in err || 'code' in err);
}

/**
 * Calendar's wording for a failure classified in ../failure.ts
 * (developers.google.com/calendar/api/guides/errors: 403 rateLimitExceeded /
 * userRateLimitExceeded as well as 429; 403 insufficientPermissions for a scope).
 */
export function calendarError(err: unknown, account: string | undefined): GoogleToolError {
  const f = classify(err);
  const who = account ? ` for ${account}` : '';
  const quoted = f.message ? ` Google said: "${f.message}".` : '';
  const api = (message: string) => new GoogleToolError('GOOGLE_API', message);
  // A write sent with If-Match found the event changed (event-version.ts; 412, "Conditional
  // modification", developers.google.com/calendar/api/guides/version-resources).
  if (f.status === 412) return api(CHANGED_SINCE_APPROVED);
  switch (f.kind) {
    case 'aborted':
      return api('The call was cancelled before Google Calendar answered.');
    case 'network':
      return api(
        `Could not reach Google Calendar (${f.networkCode ?? 'no answer'}). Check the network and try again.`,
      );
    case 'rate-limited':
      return new GoogleToolError(
        'RATE_LIMITED',
        `Google Calendar rate limit reached${who} (about 600 requests a minute per user).`,
        rateLimitWait(f),
      );
    case 'auth':
    case 'revoked':
      return new GoogleToolError(
        'OAUTH_REVOKED',
        `Google rejected Airlock's access${who}. Reconnect the account in Airlock.${quoted}`,
      );
    case 'scope':
      return new GoogleToolError(
        'OAUTH_SCOPE',
        `The Google account${who} has not granted Airlock Calendar access for this. Reconnect it in Airlock and allow Calendar.${quoted}`,
      );
    case 'forbidden':
      return api(
        `Google Calendar refused this (403)${who}: you may not have write access to that calendar, or only the organizer may change the event.${quoted}`,
      );
    case 'not-found':
      return api(
        `Not found (404): no such calendar or event${who}. Check the id; event ids come from calendar_list_events or calendar_get_event.${quoted}`,
      );
    case 'gone':
      return api(`Gone (410): the event has already been deleted.${quoted}`);
    case 'conflict':
      return api(`Conflict (409): an event with that id already exists.${quoted}`);
    case 'bad-request':
      return api(`Google Calendar refused the request (400).${quoted}`);
    case 'server':
      return api(`Google Calendar had a problem (${f.status}); try again in a minute.${quoted}`);
    default:
      return f.status
        ? api(`Google Calendar answered ${f.status}.${quoted}`)
        : api(`Google Calendar call failed: ${f.message}`);
  }
}
