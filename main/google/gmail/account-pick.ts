import {
  GoogleToolError,
  type GoogleAccountAccess,
  type GoogleAccountInfo,
} from '../account-access.js';
import { str } from './context.js';
import { FILTER_WRITE_TOOLS } from './label-tools.js';
import { WRITE_TOOLS } from './tools.js';

const G = 'https://www.googleapis.com/auth/';
/** Scopes users.settings.filters.create/delete accept (their reference pages: only this one). */
const FILTER_SCOPES = [`${G}gmail.settings.basic`];

/**
 * What the account's grant lacks for this tool, or null. An account that
 * reports no scopes is taken at its word (the service did not record them).
 */
export function scopeProblem(a: GoogleAccountInfo, tool: string): string | null {
  if (!FILTER_WRITE_TOOLS.has(tool) || a.scopes.length === 0) return null;
  if (a.scopes.some((s) => FILTER_SCOPES.includes(s))) return null;
  return `${a.email} did not allow Airlock to manage Gmail filters when it was connected (the gmail.settings.basic permission). The user can reconnect it in Airlock (Accounts page, or "airlock connect google --account ${a.email}") and allow it.`;
}

/** The account a call runs as: the one named, else the first that may run this tool. */
export function pickAccount(
  access: GoogleAccountAccess,
  tool: string,
  args: Record<string, unknown>,
): GoogleAccountInfo {
  const accounts = access.accounts();
  if (args.account !== undefined && args.account !== null && typeof args.account !== 'string')
    throw new GoogleToolError(
      'NO_ACCOUNT',
      `${tool} works in one account at a time: give account as one address.`,
    );
  const eligible = WRITE_TOOLS.has(tool) ? accounts.filter((a) => !a.readOnly) : accounts;
  const wanted = str(args.account)?.trim().toLowerCase();
  const found = wanted ? eligible.find((a) => a.email.toLowerCase() === wanted) : eligible[0];
  if (found) return found;
  if (wanted && accounts.some((a) => a.email.toLowerCase() === wanted)) {
    throw new GoogleToolError(
      'OAUTH_SCOPE',
      `${String(args.account)} is connected read-only: Airlock cannot send or change mail in it.`,
    );
  }
  const list = accounts.map((a) => a.email).join(', ');
  throw new GoogleToolError(
    'NO_ACCOUNT',
    wanted
      ? `No connected Google account ${String(args.account)}. Connected: ${list || 'none'}.`
      : "No Google account is connected to Airlock. The user can connect one in Airlock's settings.",
  );
}

/**
 * Why no account can run this tool, for the Tools page (issue 28 item 5): every account a call
 * could pick (pickAccount's eligible ones) lacks what the tool needs (scopeProblem, the check a
 * call makes). Null when one can, or when no account is connected (the Accounts page says so).
 */
export function toolScopeProblem(access: GoogleAccountAccess, tool: string): string | null {
  const accounts = access.accounts();
  const eligible = WRITE_TOOLS.has(tool) ? accounts.filter((a) => !a.readOnly) : accounts;
  const problems = eligible.map((a) => scopeProblem(a, tool));
  if (problems.length === 0 || problems.some((p) => p === null)) return null;
  return problems.length === 1
    ? problems[0]!
    : `None of the connected Google accounts allowed Airlock to manage Gmail filters (the gmail.settings.basic permission). The user can reconnect one in Airlock (Accounts page) and allow it.`;
}
