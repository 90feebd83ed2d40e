/**
 * What each Google scope lets Airlock do, in the user's words (mirrors
 * main/google/scopes.ts SCOPE_PURPOSES; the renderer may not import main/ at
 * runtime). An unknown scope is shown as its URL.
 */
const G = 'https://www.googleapis.com/auth/';

const PURPOSE: Record<string, string> = {
  openid: 'Know which account this is',
  email: 'See the account’s e-mail address',
  [`${G}userinfo.email`]: 'See the account’s e-mail address',
  [`${G}gmail.readonly`]: 'Search and read mail',
  [`${G}gmail.modify`]: 'Read, draft, send (after your approval), label, archive and trash mail',
  [`${G}calendar.readonly`]: 'Read calendars, events and free/busy',
  [`${G}calendar.events`]: 'Create, change, answer and delete events (after your approval)',
};

const IDENTITY = new Set(['openid', 'email', `${G}userinfo.email`]);

export function scopePurpose(scope: string): string {
  return PURPOSE[scope] ?? scope;
}

/** Scopes worth showing (identity scopes are implied). */
export function visibleScopes(scopes: string[]): string[] {
  return scopes.filter((s) => !IDENTITY.has(s));
}
