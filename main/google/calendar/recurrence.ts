/*
 * Splitting a recurring series for "this and following" changes, the way
 * Google documents it (developers.google.com/calendar/api/guides/recurringevents,
 * "Modifying all following instances"): end the original series just before the
 * chosen occurrence by giving its RRULE an UNTIL, then create a new series that
 * starts at that occurrence.
 */
import type { calendar_v3 } from '@googleapis/calendar';
import { DateTime } from 'luxon';
import type { CallCtx } from './context.js';
import { InputError } from './errors.js';
import { addDays } from './time.js';

type Event = calendar_v3.Schema$Event;
type When = calendar_v3.Schema$EventDateTime;

const RULE_LINE = /^(RRULE|EXRULE|RDATE|EXDATE)[:;]/i;

export function checkRecurrence(lines: string[] | undefined): string[] | undefined {
  if (!lines) return undefined;
  for (const l of lines) {
    if (!RULE_LINE.test(l))
      throw new InputError(
        `recurrence: "${l}" is not an RFC 5545 line; use e.g. "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10".`,
      );
  }
  return lines;
}

function parts(line: string): [string, string][] {
  return line
    .slice(line.indexOf(':') + 1)
    .split(';')
    .filter(Boolean)
    .map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).toUpperCase(), p.slice(i + 1)] as [string, string];
    });
}

const format = (kv: [string, string][]) => `RRULE:${kv.map(([k, v]) => `${k}=${v}`).join(';')}`;
const isRrule = (l: string) => /^RRULE:/i.test(l);

/**
 * UNTIL one second (or, for all-day series, one day) before the occurrence.
 * RFC 5545 §3.3.10: UNTIL has DTSTART's value type, and is in UTC when
 * DTSTART carries a time zone.
 */
export function untilBefore(original: When): string {
  if (original.date) return addDays(original.date, -1).replaceAll('-', '');
  const at = DateTime.fromISO(original.dateTime ?? '', { setZone: true })
    .toUTC()
    .minus({ seconds: 1 });
  return at.toFormat("yyyyMMdd'T'HHmmss'Z'");
}

/** The original series' lines, ending before `original` (COUNT gives way to UNTIL). */
export function endBefore(recurrence: string[], original: When): string[] {
  const until = untilBefore(original);
  return recurrence.map((l) =>
    isRrule(l)
      ? format([...parts(l).filter(([k]) => k !== 'COUNT' && k !== 'UNTIL'), ['UNTIL', until]])
      : l,
  );
}

/** The new series' lines: COUNT shrinks by the occurrences that stay with the original. */
export function following(recurrence: string[], before: number): string[] {
  return recurrence.map((l) => {
    if (!isRrule(l)) return l;
    return format(
      parts(l).map(([k, v]) =>
        k === 'COUNT' ? [k, String(Math.max(1, Number(v) - before))] : [k, v],
      ),
    );
  });
}

export function hasByDay(recurrence: string[] | null | undefined): boolean {
  return (recurrence ?? []).some((l) => isRrule(l) && parts(l).some(([k]) => k === 'BYDAY'));
}

function startMillis(w: When | undefined, zone: string): number {
  if (w?.dateTime) return Date.parse(w.dateTime);
  if (w?.date) return DateTime.fromISO(w.date, { zone }).startOf('day').toMillis();
  return NaN;
}

/**
 * How many occurrences come before `original`. Only a COUNT rule needs the
 * number (to split it); otherwise 0 or 1 says "first occurrence or not"
 * without listing instances.
 */
export async function occurrencesBefore(
  c: CallCtx,
  calendarId: string,
  master: Event,
  original: When,
  zone: string,
): Promise<number> {
  const split = startMillis(original, zone);
  if (startMillis(master.start ?? undefined, zone) >= split) return 0;
  if (!(master.recurrence ?? []).some((l) => isRrule(l) && /COUNT=/i.test(l))) return 1;
  let count = 0;
  let pageToken: string | undefined;
  do {
    const res = await c.api.events.instances(
      {
        calendarId,
        eventId: master.id ?? '',
        timeMax: new Date(split).toISOString(),
        // Cancelled occurrences still use up COUNT.
        showDeleted: true,
        maxResults: 2500,
        ...(pageToken ? { pageToken } : {}),
      },
      c.opts,
    );
    count += (res.data.items ?? []).filter(
      (i) => startMillis(i.originalStartTime ?? i.start ?? undefined, zone) < split,
    ).length;
    pageToken = res.data.nextPageToken ?? undefined;
  } while (pageToken);
  return count;
}

/** What a new series keeps from the original. */
export function copyable(master: Event): Event {
  const e: Event = {};
  for (const k of [
    'summary',
    'description',
    'location',
    'colorId',
    'transparency',
    'visibility',
    'reminders',
    'attachments',
    'guestsCanModify',
    'guestsCanInviteOthers',
    'guestsCanSeeOtherGuests',
  ] as const) {
    if (master[k] !== undefined && master[k] !== null)
      (e as Record<string, unknown>)[k] = master[k];
  }
  if (master.attendees?.length) {
    e.attendees = master.attendees.map((a) => ({
      email: a.email,
      ...(a.displayName ? { displayName: a.displayName } : {}),
      ...(a.optional ? { optional: true } : {}),
    }));
  }
  // The same Meet room carries over (needs conferenceDataVersion=1 on insert).
  if (master.conferenceData?.conferenceId) {
    const { createRequest: _ignored, ...rest } = master.conferenceData;
    e.conferenceData = rest;
  }
  return e;
}
