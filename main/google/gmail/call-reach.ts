import type { GoogleAccountAccess, GoogleAccountInfo } from '../account-access.js';
import { accountsArg, decodeAccountPages, isAccountPages } from '../spanning.js';
import { pickAccount } from './account-pick.js';
import { MULTI_ACCOUNT_TOOLS } from './multi.js';

/** The accounts a Gmail call goes to: several for a read across accounts, else exactly one. */
export type GmailReach =
  | { across: string[]; connected: string[] }
  | { across?: undefined; account: GoogleAccountInfo; args: Record<string, unknown> };

/**
 * Whom a call reaches, resolved once for both call() (source.ts), which then runs in it, and the
 * approval's binding (identityFor): the account `account` names, else the first connected one
 * that may run the tool (pickAccount); a read across accounts names its list or "all". Throws
 * as call() reports: an unknown or read-only account, malformed `account`.
 */
export function gmailReach(
  access: GoogleAccountAccess,
  tool: string,
  args: Record<string, unknown>,
): GmailReach {
  const connected = access.accounts().map((a) => a.email);
  const spanning = MULTI_ACCOUNT_TOOLS.has(tool);
  // A page token from a search across accounts names its accounts itself (some of these): those
  // are the ones acrossAccounts reads, so the binding is to them, not to every connected account
  // (one connected meanwhile is not reached). A token naming one not connected fails (SpanError).
  const continued =
    spanning && isAccountPages(args.page_token)
      ? Object.keys(decodeAccountPages(args.page_token as string, connected) ?? {})
      : null;
  const spanned = continued ?? (spanning ? accountsArg(args.account, connected) : null);
  if (spanned && (spanned.length > 1 || continued)) return { across: spanned, connected };
  const one = spanned ? { ...args, account: spanned[0] } : args;
  return { account: pickAccount(access, tool, one), args: one };
}
