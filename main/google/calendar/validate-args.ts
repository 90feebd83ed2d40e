import type { CalendarApi } from './api.js';
import { emails, optStrings, reqString } from './args.js';
import { zoneArg } from './context.js';
import { InputError } from './errors.js';
import { extrasOf } from './event-extras.js';
import { BOUND_TOOLS, VERSION_ARGS } from './event-guests.js';
import { eventTimes } from './event-input.js';
import { checkRecurrence } from './recurrence.js';

/** Tools whose recurring targets need `scope` (write-tools.ts requireScope). */
const SCOPED = new Set(['calendar_update_event', 'calendar_delete_event', 'calendar_respond']);

/**
 * An occurrence's id is `<series id>_<original start>` (20260310 or
 * 20260310T140000Z); ids Google or a client give events are base32hex
 * (a–v, 0–9) and never hold "_" (Events resource, "id"). So an id of that
 * shape is certainly one occurrence of a series, and without `scope` the call
 * would be refused after the approval — refuse it before (issue 18.4).
 */
function occurrenceWithoutScope(args: Record<string, unknown>): string | null {
  const id = typeof args.event_id === 'string' ? args.event_id : '';
  if (args.scope !== undefined || !/^[a-v0-9]+_\d{8}(T\d{6}Z)?$/.test(id)) return null;
  return `event_id ${id} is one occurrence of a recurring series. Say which occurrences you mean with scope: "this_instance", "this_and_following" or "all" (calendar_respond: "this_instance" or "all").`;
}

/** Catches bad times, zones, addresses and rules before the user is asked to approve a write. */
export function validateCalendarArgs(
  cal: CalendarApi,
  tool: string,
  args: Record<string, unknown>,
): string | null {
  // The event's version is Airlock's to fill in (CallContent.bind, event-guests.ts): an agent
  // that gave one could stand in for a read that failed, and the checks would have judged a
  // version they never saw (CalendarSource.alwaysAsk). Not in the schema either (definitions.ts),
  // which refuses it first; this holds for a call that reaches the tool another way.
  const named = BOUND_TOOLS.has(tool) ? VERSION_ARGS.find((k) => args[k] !== undefined) : undefined;
  if (named)
    return `${named}: leave it out — Airlock fills in the version of the event it checks and shows.`;
  if (tool === 'calendar_update_event') {
    try {
      extrasOf(args, {
        allDay: false,
        calendarId: 'primary',
        guests: 0,
        meet: false,
        create: false,
      });
    } catch (err) {
      if (err instanceof InputError) return err.message;
    }
  }
  if (SCOPED.has(tool)) return occurrenceWithoutScope(args);
  if (tool !== 'calendar_create_event') return null;
  try {
    reqString(args, 'summary');
    const account = cal.account(args.account, true);
    const zone =
      zoneArg(args) ??
      cal.knownZone(account, typeof args.calendar_id === 'string' ? args.calendar_id : 'primary') ??
      'UTC';
    const times = eventTimes(args, zone, { allDayDays: 1 });
    const guests = emails(optStrings(args, 'attendees'), 'attendees') ?? [];
    checkRecurrence(optStrings(args, 'recurrence'));
    extrasOf(args, {
      allDay: times.allDay,
      calendarId: typeof args.calendar_id === 'string' ? args.calendar_id : 'primary',
      guests: guests.length,
      meet: args.add_meet_link === true,
      create: true,
    });
    return null;
  } catch (err) {
    return err instanceof InputError ? err.message : null;
  }
}
