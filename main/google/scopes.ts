/**
 * The scopes Airlock asks Google for (issue 5, "Scopes"): the narrowest set
 * that covers the Gmail and Calendar tools. Never `https://mail.google.com/`
 * (full access incl. permanent delete): Airlock trashes instead
 * (docs/google.md). Scope meanings: developers.google.com/gmail/api/auth/scopes,
 * developers.google.com/calendar/api/auth.
 */
const G = 'https://www.googleapis.com/auth/';

export const SCOPES = {
  /** OpenID Connect: lets Airlock learn which account was connected (userinfo). */
  openid: 'openid',
  email: 'email',
  gmailReadonly: `${G}gmail.readonly`,
  /** Read, compose, send, label, archive and trash — everything but permanent delete. */
  gmailModify: `${G}gmail.modify`,
  /**
   * Create and delete Gmail filters (users.settings.filters.create/delete accept no other
   * scope). Not forwarding addresses or auto-forwarding: those need gmail.settings.sharing,
   * which Airlock does not ask for.
   */
  gmailSettings: `${G}gmail.settings.basic`,
  calendarReadonly: `${G}calendar.readonly`,
  /** Create, change and delete events (not calendars themselves). */
  calendarEvents: `${G}calendar.events`,
} as const;

/** The full mail scope: never requested, refused if it ever shows up in a request. */
export const FULL_MAIL_SCOPE = 'https://mail.google.com/';

/** What each scope is for, in words a consent screen reviewer (or user) can check. */
export const SCOPE_PURPOSES: Record<string, string> = {
  [SCOPES.openid]: 'identify the connected account',
  [SCOPES.email]: "learn the account's e-mail address",
  [SCOPES.gmailReadonly]: 'search and read mail and attachments',
  [SCOPES.gmailModify]:
    'read mail; create drafts and send (after your approval); label, archive and trash',
  [SCOPES.gmailSettings]: 'create and delete Gmail filters (after your approval)',
  [SCOPES.calendarReadonly]: 'list calendars, read events and free/busy',
  [SCOPES.calendarEvents]: 'create, change, answer and delete events (after your approval)',
};

/** Read-only: Gmail and Calendar reads. Full: adds writes (each still asks before it runs). */
export function scopesFor(readOnly: boolean): string[] {
  const identity: string[] = [SCOPES.openid, SCOPES.email];
  const scopes: string[] = readOnly
    ? [...identity, SCOPES.gmailReadonly, SCOPES.calendarReadonly]
    : [
        ...identity,
        SCOPES.gmailModify,
        SCOPES.gmailSettings,
        SCOPES.calendarReadonly,
        SCOPES.calendarEvents,
      ];
  if (scopes.includes(FULL_MAIL_SCOPE)) throw new Error('The full Gmail scope is never requested.');
  return scopes;
}

/**
 * Google answers the short `email` scope as `…/auth/userinfo.email` and may
 * add `openid`; normalise so "asked" and "granted" compare.
 */
export function normaliseScope(scope: string): string {
  if (scope === `${G}userinfo.email`) return SCOPES.email;
  return scope;
}

export function parseScopeString(scope: string | undefined | null): string[] {
  return [...new Set((scope ?? '').split(/\s+/).filter(Boolean).map(normaliseScope))].sort();
}

/** Scopes asked for but not granted (granular consent lets the user untick some). */
export function missingScopes(asked: readonly string[], granted: readonly string[]): string[] {
  const have = new Set(granted.map(normaliseScope));
  return asked.map(normaliseScope).filter((s) => !have.has(s));
}
