import { GoogleToolError, type GoogleAccountAccess } from './account-access.js';

/**
 * The accounts one Gmail or Calendar call reaches, as a pending approval is bound to them
 * (ToolSource.identityFor): each address with its write access, in the order the call uses them.
 * Never a secret (no token, no scope list).
 */
export function reachIdentity(access: GoogleAccountAccess, emails: readonly string[]): string {
  const all = access.accounts();
  return JSON.stringify(
    emails.map((e) => [e.toLowerCase(), all.find((a) => a.email === e)?.readOnly ?? null]),
  );
}

/**
 * A call whose account cannot be resolved fails before it reaches any (the same error call()
 * returns). It is bound to that failure, so one that would now reach an account counts as changed.
 */
export function unreached(err: unknown): string {
  const why = err instanceof GoogleToolError ? err.code : err instanceof Error ? err.name : 'error';
  return JSON.stringify({ unreached: why });
}
