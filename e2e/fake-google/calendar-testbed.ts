import { CalendarSource } from '../../main/google/calendar/calendar-source.js';
import type { CallToolResult } from '../../main/tools/types.js';
import { account, StaticGoogleAccess } from './calendar-access.js';
import { FakeCalendarApi } from './calendar-fake.js';

export const ALICE = 'alice@example.com';
export const BOB = 'bob@example.com';
export const TOKENS = { [ALICE]: 'ya29.alice-secret-token', [BOB]: 'ya29.bob-secret-token' };

export interface CalendarTestbed {
  fake: FakeCalendarApi;
  access: StaticGoogleAccess;
  source: CalendarSource;
  call: (tool: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  stop: () => Promise<void>;
}

/**
 * A fake Calendar API with two accounts — alice (read-write, primary calendar
 * in America/New_York, plus Berlin, Honolulu (UTC−10) and Kiritimati (UTC+14)
 * calendars) and bob (read-only, Europe/Berlin) — and a CalendarSource over
 * a static access layer, with "now" fixed.
 */
export async function calendarTestbed(now = '2026-03-01T12:00:00Z'): Promise<CalendarTestbed> {
  const fake = new FakeCalendarApi({
    [TOKENS[ALICE]]: { email: ALICE },
    [TOKENS[BOB]]: { email: BOB, scopes: ['https://www.googleapis.com/auth/calendar.readonly'] },
  });
  const root = await fake.start();
  fake.addCalendar(ALICE, {
    id: ALICE,
    summary: 'Alice',
    timeZone: 'America/New_York',
    primary: true,
  });
  fake.addCalendar(ALICE, {
    id: 'berlin@group.calendar.google.com',
    summary: 'Berlin office',
    timeZone: 'Europe/Berlin',
  });
  fake.addCalendar(ALICE, {
    id: 'honolulu@group.calendar.google.com',
    summary: 'Honolulu',
    timeZone: 'Pacific/Honolulu',
  });
  fake.addCalendar(ALICE, {
    id: 'kiritimati@group.calendar.google.com',
    summary: 'Kiritimati',
    timeZone: 'Pacific/Kiritimati',
  });
  fake.addCalendar(BOB, { id: BOB, summary: 'Bob', timeZone: 'Europe/Berlin', primary: true });
  const access = new StaticGoogleAccess([account(ALICE), account(BOB, true)], TOKENS, root);
  const source = new CalendarSource(access, { now: () => new Date(now) });
  const signal = new AbortController().signal;
  return {
    fake,
    access,
    source,
    call: (tool, args = {}) => source.call(tool, args, { agent: 'test', signal }),
    stop: async () => {
      await source.stop();
      await fake.stop();
    },
  };
}

export function text(r: CallToolResult): string {
  return (r.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export interface EventOut {
  id: string;
  summary: string;
  start: string;
  end: string;
  all_day: boolean;
  recurring_event_id?: string;
  calendar_id: string;
}

export function events(r: CallToolResult): EventOut[] {
  return (r.structuredContent as { events: EventOut[] }).events;
}
