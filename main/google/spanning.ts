import { GoogleToolError } from './account-access.js';

/**
 * Reads that span accounts (issue 33 item 6): a read tool's `account` may be
 * one address, a list of them, or "all". Shared by Gmail (gmail/multi.ts) and
 * Calendar (calendar/spanning.ts); writes always take one account.
 */
export const ALL_ACCOUNTS = 'all';

/** Input the agent can fix, worded for it. */
export class SpanError extends Error {
  override readonly name = 'SpanError';
}

/** The `account` schema of a read that may span accounts. */
export function spanningAccountProp(emails: string[], what: string): Record<string, unknown> {
  return {
    anyOf: [
      { type: 'string', enum: [...emails, ALL_ACCOUNTS] },
      { type: 'array', items: { type: 'string', enum: emails }, minItems: 1, uniqueItems: true },
    ],
    description: `The Google account to use, a list of them, or "all" (${what}). Default: ${emails[0]}.`,
  };
}

/**
 * The accounts `account` names for a spanning read, or null when it names one
 * (or none: the default). Unknown addresses are a NO_ACCOUNT error.
 */
export function accountsArg(value: unknown, connected: string[]): string[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string')
    return value.trim().toLowerCase() === ALL_ACCOUNTS ? connected : null;
  if (!Array.isArray(value))
    throw new SpanError('account: one address, a list of addresses, or "all".');
  const out: string[] = [];
  for (const v of value) {
    const hit = connected.find(
      (e) => typeof v === 'string' && e.toLowerCase() === v.trim().toLowerCase(),
    );
    if (!hit)
      throw new GoogleToolError(
        'NO_ACCOUNT',
        `No connected Google account ${String(v)}. Connected: ${connected.join(', ') || 'none'}.`,
      );
    if (!out.includes(hit)) out.push(hit);
  }
  if (out.length === 0) throw new SpanError('account: the list names no account.');
  return out;
}

const PREFIX = 'acc.';

/** Each account's own page token, in one opaque token. */
export function encodeAccountPages(pages: Record<string, string>): string | undefined {
  return Object.keys(pages).length
    ? `${PREFIX}${Buffer.from(JSON.stringify(pages)).toString('base64url')}`
    : undefined;
}

export function isAccountPages(token: unknown): boolean {
  return typeof token === 'string' && token.startsWith(PREFIX);
}

export function decodeAccountPages(
  token: string | undefined,
  connected: string[],
): Record<string, string> | undefined {
  if (!token) return undefined;
  try {
    if (!isAccountPages(token)) throw new Error('not ours');
    const parsed = JSON.parse(
      Buffer.from(token.slice(PREFIX.length), 'base64url').toString('utf8'),
    ) as unknown;
    if (
      parsed &&
      typeof parsed === 'object' &&
      Object.entries(parsed).every(([k, v]) => connected.includes(k) && typeof v === 'string')
    )
      return parsed as Record<string, string>;
  } catch {
    // fall through
  }
  throw new SpanError(
    'page_token is not one a call across accounts gave out; repeat the call without it (or with the one account it came from).',
  );
}
