import { randomUUID } from 'node:crypto';
import type { calendar_v3 } from '@googleapis/calendar';
import { DateTime } from 'luxon';
import { emails, guestKey, optNumber, optString, optStrings, type Args } from './args.js';
import { extrasOf, extrasWords } from './event-extras.js';
import { InputError } from './errors.js';
import { addDays, iso, parseTime } from './time.js';

type Event = calendar_v3.Schema$Event;

export interface TimeSpec {
  allDay: boolean;
  start: calendar_v3.Schema$EventDateTime;
  end: calendar_v3.Schema$EventDateTime;
  /** Instants in the zone (all-day: start of the first day / of the day after the last). */
  startAt: DateTime;
  endAt: DateTime;
}

export interface TimeDefaults {
  /** Keeps an event's length when only start moves. */
  durationMs?: number;
  allDayDays?: number;
}

/**
 * start/end/duration_minutes as Google event times. A date makes an all-day
 * event: `end` is the last day (inclusive) and Google's exclusive end date is
 * derived here, once. Timed events carry the offset and the IANA zone, which
 * Google needs for recurring events (events.insert: start.timeZone).
 */
export function eventTimes(args: Args, zone: string, defaults: TimeDefaults = {}): TimeSpec {
  const startText = optString(args, 'start');
  if (!startText) throw new InputError('start is required.');
  const s = parseTime(startText, zone, 'start');
  const endText = optString(args, 'end');
  const duration = optNumber(args, 'duration_minutes', 1, 20160);
  if (s.kind === 'date') {
    if (duration !== undefined)
      throw new InputError(
        'duration_minutes is for timed events; for an all-day event give end as its last day.',
      );
    let last = defaults.allDayDays ? addDays(s.date, defaults.allDayDays - 1) : s.date;
    if (endText) {
      const e = parseTime(endText, zone, 'end');
      if (e.kind !== 'date')
        throw new InputError(
          'start is a date (an all-day event), so end must be a date too: the last day, e.g. "2026-03-12".',
        );
      last = e.date;
    }
    if (last < s.date) throw new InputError(`end (${last}) must not be before start (${s.date}).`);
    const endDate = addDays(last, 1);
    const startAt = parseAt(s.date, zone);
    return {
      allDay: true,
      start: { date: s.date },
      end: { date: endDate },
      startAt,
      endAt: parseAt(endDate, zone),
    };
  }
  let endAt: DateTime;
  if (endText) {
    if (duration !== undefined) throw new InputError('Give end or duration_minutes, not both.');
    const e = parseTime(endText, zone, 'end');
    if (e.kind !== 'instant')
      throw new InputError('start has a time, so end needs one too, e.g. "2026-03-10T10:00".');
    endAt = e.at;
  } else if (duration !== undefined) endAt = s.at.plus({ minutes: duration });
  else if (defaults.durationMs !== undefined)
    endAt = s.at.plus({ milliseconds: defaults.durationMs });
  else throw new InputError('A timed event needs end or duration_minutes.');
  if (endAt <= s.at)
    throw new InputError(`end (${iso(endAt)}) must be after start (${iso(s.at)}).`);
  return {
    allDay: false,
    start: { dateTime: iso(s.at), timeZone: zone },
    end: { dateTime: iso(endAt.setZone(zone)), timeZone: zone },
    startAt: s.at,
    endAt: endAt.setZone(zone),
  };
}

function parseAt(date: string, zone: string): DateTime {
  return DateTime.fromISO(date, { zone }).startOf('day');
}

export function meetRequest(): calendar_v3.Schema$ConferenceData {
  // A new requestId per create, as the API asks (ConferenceData.createRequest.requestId).
  return {
    createRequest: { requestId: randomUUID(), conferenceSolutionKey: { type: 'hangoutsMeet' } },
  };
}

/** The non-time fields of an update, applied as a patch; returns what changes, in words. */
export function patchFields(args: Args, existing: Event): { patch: Event; changes: string[] } {
  const patch: Event = {};
  const changes: string[] = [];
  const summary = optString(args, 'summary');
  if (summary !== undefined) {
    patch.summary = summary;
    changes.push(`title → "${summary}"`);
  }
  const description = args.description;
  if (typeof description === 'string') {
    patch.description = description;
    changes.push('description');
  }
  const location = args.location;
  if (typeof location === 'string') {
    patch.location = location;
    changes.push(`location → "${location}"`);
  }
  const replace = emails(optStrings(args, 'attendees'), 'attendees');
  const add = emails(optStrings(args, 'add_attendees'), 'add_attendees') ?? [];
  const remove = new Set(emails(optStrings(args, 'remove_attendees'), 'remove_attendees') ?? []);
  if (replace || add.length || remove.size) {
    const current = existing.attendees ?? [];
    // The first entry per guest, should Google hold one guest in two forms (its answer kept).
    const byEmail = new Map<string, (typeof current)[number]>();
    for (const a of current) {
      const key = guestKey(a.email ?? '');
      if (!byEmail.has(key)) byEmail.set(key, a);
    }
    let list = replace ? replace.map((e) => byEmail.get(e) ?? { email: e }) : [...current];
    for (const e of add)
      if (!list.some((a) => guestKey(a.email ?? '') === e)) list.push({ email: e });
    list = list.filter((a) => !remove.has(guestKey(a.email ?? '')));
    // Patch replaces arrays whole (Calendar API, "Partial update"): send the full list.
    patch.attendees = list;
    const before = new Set(current.map((a) => guestKey(a.email ?? '')));
    const added = list.filter((a) => !before.has(guestKey(a.email ?? ''))).length;
    const removed = current.length - (list.length - added);
    if (added) changes.push(`${added} guest(s) added`);
    if (removed) changes.push(`${removed} guest(s) removed`);
  }
  if (args.add_meet_link === true) {
    patch.conferenceData = meetRequest();
    changes.push('Meet link added');
  }
  const recurrence = optStrings(args, 'recurrence');
  if (recurrence) {
    patch.recurrence = recurrence;
    changes.push(`recurrence → ${recurrence.join(' ')}`);
  }
  const extras = extrasOf(args, {
    allDay: Boolean(existing.start?.date),
    calendarId: 'primary',
    guests: 0,
    meet: false,
    create: false,
  });
  Object.assign(patch, extras.body);
  changes.push(...extrasWords(extras.body, undefined));
  return { patch, changes };
}

export function hasTimeChange(args: Args): boolean {
  return ['start', 'end', 'duration_minutes'].some(
    (k) => args[k] !== undefined && args[k] !== null,
  );
}
