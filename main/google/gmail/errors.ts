import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import { GoogleToolError } from '../account-access.js';
import { classify, rateLimitWait, type FailureKind, type GoogleFailure } from '../failure.js';

/** A Gmail failure that keeps its kind, so a pre-approval check can tell "no such id" from "try later". */
export class GmailApiError extends GoogleToolError {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super('GOOGLE_API', message);
  }
}

/** The sentence for message ids an account does not have, before an approval and after it. */
export function noSuchMessages(ids: readonly string[], account: string, role = ''): string {
  const list = ids.join(', ');
  return `There is no message with id ${list} in ${account}${role ? ` (${role})` : ''}. Use the exact id from gmail_search or gmail_read; nothing was changed.`;
}

/** Gmail said the thing asked for does not exist (404, or 400 for an id it cannot parse). */
export function isMissing(err: unknown): boolean {
  return err instanceof GmailApiError && (err.kind === 'not-found' || err.kind === 'bad-request');
}

/**
 * Gmail's wording for Google failures, classified once in ../failure.ts
 * (developers.google.com/gmail/api/guides/handle-errors). `what` names the
 * thing asked for ("message 18c…"), `account` the mailbox; neither carries a
 * secret, and only Google's own message is quoted.
 */
export function toToolError(
  err: unknown,
  ctx: { account: string; what: string },
  f: GoogleFailure = classify(err),
): GoogleToolError {
  if (err instanceof GoogleToolError) return err;
  const detail = textPrefix(f.message.replace(/\s+/g, ' '), 300, codeUnits);
  const gmail = (message: string) => new GmailApiError(f.kind, message);
  switch (f.kind) {
    case 'aborted':
      return gmail(`The request for ${ctx.what} was cancelled.`);
    case 'rate-limited':
      return new GoogleToolError(
        'RATE_LIMITED',
        `Gmail is rate-limiting ${ctx.account} (${f.status}: ${detail}).`,
        rateLimitWait(f),
      );
    case 'auth':
    case 'revoked':
      return new GoogleToolError(
        'OAUTH_REVOKED',
        `Google did not accept Airlock's sign-in for ${ctx.account} (${f.status}: ${detail}). The user needs to reconnect this account in Airlock.`,
      );
    case 'scope':
      return new GoogleToolError(
        'OAUTH_SCOPE',
        `Airlock's access to ${ctx.account} does not include permission for ${ctx.what} (403: ${detail}). The user can reconnect the account in Airlock and grant Gmail access.`,
      );
    case 'forbidden':
      return gmail(`Gmail refused ${ctx.what} for ${ctx.account} (403: ${detail}).`);
    case 'not-found':
      return gmail(
        `Gmail found no ${ctx.what} in ${ctx.account} (404). Check the id: use the exact id from gmail_search.`,
      );
    case 'conflict':
      return gmail(
        `Gmail refused ${ctx.what} in ${ctx.account}: it conflicts with what is there (409: ${detail}).`,
      );
    case 'bad-request':
      return gmail(`Gmail rejected the request for ${ctx.what} (400: ${detail}).`);
    case 'server':
      return gmail(
        `Gmail had a server error on ${ctx.what} (${f.status}: ${detail}). Try again later.`,
      );
    case 'network':
      return gmail(`Airlock could not reach Gmail for ${ctx.what} (${detail}).`);
    default:
      return gmail(
        `Gmail request for ${ctx.what} failed${f.status ? ` (${f.status})` : ''}: ${detail}`,
      );
  }
}
