import type { GoogleAccountAccess } from '../account-access.js';
import { isAccountPages, SpanError } from '../spanning.js';
import type { CalendarApi } from './api.js';
import type { Args } from './args.js';
import { WRITE_TOOLS } from './definitions.js';
import { SPANNING, spannedAccounts } from './spanning.js';

export const isWrite = (tool: string) => (WRITE_TOOLS as readonly string[]).includes(tool);

/** The accounts a Calendar call goes to: several for a read across accounts, else exactly one. */
export type CalendarReach =
  { across: string[] } | { across?: undefined; account: string; args: Args };

/**
 * Whom a call reaches, resolved once for both call() (calendar-source.ts), which then runs in
 * it, and the approval's binding (identityFor): the account `account` names, else the first that
 * may run the tool (CalendarApi.account); a read across accounts names its list or "all". Throws
 * as call() reports: an unknown or read-only account, malformed `account`.
 */
export function calendarReach(
  access: GoogleAccountAccess,
  cal: CalendarApi,
  tool: string,
  args: Args,
): CalendarReach {
  if (!SPANNING.has(tool) && args.account !== undefined && typeof args.account !== 'string')
    throw new SpanError(`${tool} works in one account at a time: give account as one address.`);
  const spanned = SPANNING.has(tool) ? spannedAccounts(access, cal, args) : null;
  if (spanned && (spanned.length > 1 || isAccountPages(args.page_token)))
    return { across: spanned };
  const one = spanned ? { ...args, account: spanned[0] } : args;
  return { account: cal.account(one.account, isWrite(tool)), args: one };
}
