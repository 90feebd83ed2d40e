import {
  GoogleToolError,
  type GoogleAccountAccess,
  type GoogleAccountInfo,
} from '../account-access.js';
import { str } from './context.js';
import { WRITE_TOOLS } from './tools.js';

/** The account a call runs as: the one named, else the first that may run this tool. */
export function pickAccount(
  access: GoogleAccountAccess,
  tool: string,
  args: Record<string, unknown>,
): GoogleAccountInfo {
  const accounts = access.accounts();
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
