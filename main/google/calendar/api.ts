import type { calendar_v3, MethodOptions } from '@googleapis/calendar';
import {
  GoogleToolError,
  type GoogleAccountAccess,
  type GoogleAccountInfo,
} from '../account-access.js';
import { libs } from '../lazy.js';
import { reauthOn401 } from '../reauth.js';

const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar';
/** Scopes that allow creating and changing events (developers.google.com/calendar/api/auth). */
const WRITE_SCOPES = new Set([
  CALENDAR_SCOPE,
  `${CALENDAR_SCOPE}.events`,
  `${CALENDAR_SCOPE}.events.owned`,
]);

/**
 * Which connected accounts get the calendar tools: every account reads, and
 * every account not connected read-only writes. An account whose grant lacks
 * Calendar (the box left unticked on Google's consent page) keeps the tools,
 * and its calls answer OAUTH_SCOPE saying to reconnect and allow Calendar —
 * not an unknown-tool error the agent cannot explain (issue 18.3).
 */
export function calendarAccounts(all: GoogleAccountInfo[]): { read: string[]; write: string[] } {
  return {
    read: all.map((a) => a.email),
    write: all.filter((a) => !a.readOnly).map((a) => a.email),
  };
}

/** Whether the grant allows Calendar at all; an account that reports no scopes is taken at its word. */
export function hasCalendar(a: GoogleAccountInfo): boolean {
  return a.scopes.length === 0 || a.scopes.some((s) => s.startsWith(CALENDAR_SCOPE));
}

/** OAUTH_SCOPE when the grant lacks what the call needs (developers.google.com/calendar/api/auth). */
function scopeProblem(a: GoogleAccountInfo, write: boolean): GoogleToolError | null {
  const canWrite = a.scopes.length === 0 || a.scopes.some((s) => WRITE_SCOPES.has(s));
  if (hasCalendar(a) && (!write || canWrite)) return null;
  return new GoogleToolError(
    'OAUTH_SCOPE',
    `${a.email} did not allow Airlock ${hasCalendar(a) ? 'to change' : 'to use'} Google Calendar when it was connected. The user can reconnect it in Airlock (Accounts page, or "airlock connect google --account ${a.email}") and allow Calendar.`,
  );
}

/** Zones change rarely; a short cache spares a calendars.get per call (600 requests/min/user). */
const ZONE_TTL_MS = 10 * 60_000;

/**
 * The typed Calendar client, one per API root, and the per-account request
 * options. The bearer token goes into each request's headers, so one client
 * serves every account and no token is kept here.
 */
export class CalendarApi {
  private client: calendar_v3.Calendar | null = null;
  private root = '';
  private readonly zones = new Map<string, { zone: string; at: number }>();

  constructor(
    private readonly access: GoogleAccountAccess,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The client for the current API root; @googleapis/calendar loads on the first call (issue 2). */
  async api(): Promise<calendar_v3.Calendar> {
    const { calendar } = await libs.calendar();
    const root = this.access.apiRoot();
    if (!this.client || root !== this.root) {
      // retry: false — gaxios would otherwise retry 429s and DELETEs on its own; a rate limit goes
      // back to the agent with its Retry-After, and a write is never sent twice behind the user's back.
      this.client = calendar({ version: 'v3', rootUrl: root, retry: false });
      this.root = root;
    }
    return this.client;
  }

  /** Picks the account: the one asked for (must be usable), else the default (first). */
  account(requested: unknown, write: boolean): string {
    const all = this.access.accounts();
    const { read, write: writable } = calendarAccounts(all);
    const pool = write ? writable : read;
    const checked = (email: string) => {
      const problem = scopeProblem(
        all.find((a) => a.email === email)!,
        write,
      );
      if (problem) throw problem;
      return email;
    };
    if (typeof requested === 'string' && requested) {
      const hit = pool.find((e) => e.toLowerCase() === requested.toLowerCase());
      if (hit) return checked(hit);
      const why =
        write && read.some((e) => e.toLowerCase() === requested.toLowerCase())
          ? 'is connected read-only'
          : 'is not connected';
      throw new GoogleToolError(
        'NO_ACCOUNT',
        `The Google account ${requested} ${why}. Usable accounts: ${pool.join(', ') || 'none'}.`,
      );
    }
    const first = pool[0];
    if (!first)
      throw new GoogleToolError(
        'NO_ACCOUNT',
        `No Google account with Calendar${write ? ' write' : ''} access is connected to Airlock.`,
      );
    return checked(first);
  }

  async options(account: string, signal?: AbortSignal): Promise<MethodOptions> {
    const token = await this.access.accessToken(account);
    return {
      headers: { Authorization: `Bearer ${token}` },
      adapter: reauthOn401(this.access, account),
      timeout: 30_000,
      ...(signal ? { signal } : {}),
    };
  }

  cachedZone(account: string, calendarId: string): string | undefined {
    const hit = this.zones.get(`${account}\n${calendarId}`);
    return hit && this.clock() - hit.at < ZONE_TTL_MS ? hit.zone : undefined;
  }

  /** Any zone seen for the calendar, however old: good enough for an approval's wording, not for reading times. */
  knownZone(account: string, calendarId: string): string | undefined {
    return this.zones.get(`${account}\n${calendarId}`)?.zone;
  }

  /**
   * Only a calendar's own description (calendars.get, calendarList) may be remembered
   * here — never a response shaped by a request's timeZone (issue 18.1).
   */
  rememberZone(account: string, calendarId: string, zone: string | null | undefined): void {
    if (zone) this.zones.set(`${account}\n${calendarId}`, { zone, at: this.clock() });
  }

  /** The calendar's own time zone: where times without an offset are read. */
  async zoneOf(account: string, calendarId: string, opts: MethodOptions): Promise<string> {
    const cached = this.cachedZone(account, calendarId);
    if (cached) return cached;
    const res = await (await this.api()).calendars.get({ calendarId }, opts);
    const zone = res.data.timeZone ?? 'UTC';
    this.rememberZone(account, calendarId, zone);
    return zone;
  }
}
