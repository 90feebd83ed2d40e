/*
 * Recurrence expansion for the fake Calendar API: the subset of RFC 5545 the
 * tests use (FREQ=DAILY|WEEKLY, INTERVAL, COUNT, UNTIL, BYDAY; EXDATE). Like
 * Google, occurrences keep the series' wall-clock time in its time zone, so a
 * 09:00 America/New_York series is 14:00Z before 2026-03-08 and 13:00Z after.
 */
import type { calendar_v3 } from '@googleapis/calendar';
import { DateTime } from 'luxon';

type Event = calendar_v3.Schema$Event;
type When = calendar_v3.Schema$EventDateTime;

export interface Occurrence {
  /** Instance id suffix: "20260310T140000Z" or "20260310". */
  key: string;
  originalStart: When;
  start: When;
  end: When;
}

const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const MAX = 2000;

function rule(recurrence: string[]): Map<string, string> | null {
  const line = recurrence.find((l) => /^RRULE:/i.test(l));
  if (!line) return null;
  return new Map(
    line
      .slice(6)
      .split(';')
      .map((p) => p.split('=') as [string, string])
      .map(([k, v]) => [k.toUpperCase(), v]),
  );
}

function exdates(recurrence: string[], zone: string): Set<number> {
  const out = new Set<number>();
  for (const l of recurrence.filter((x) => /^EXDATE/i.test(x))) {
    const tzid = /TZID=([^;:]+)/i.exec(l)?.[1] ?? zone;
    for (const v of l.slice(l.indexOf(':') + 1).split(',')) out.add(parseIcal(v, tzid).toMillis());
  }
  return out;
}

function parseIcal(v: string, zone: string): DateTime {
  if (/^\d{8}$/.test(v)) return DateTime.fromFormat(v, 'yyyyMMdd', { zone });
  if (v.endsWith('Z')) return DateTime.fromFormat(v, "yyyyMMdd'T'HHmmss'Z'", { zone: 'UTC' });
  return DateTime.fromFormat(v, "yyyyMMdd'T'HHmmss", { zone });
}

/** Occurrences of a series whose start is before `untilMs`. */
export function expand(master: Event, calendarZone: string, untilMs: number): Occurrence[] {
  const recurrence = master.recurrence ?? [];
  const r = rule(recurrence);
  const allDay = Boolean(master.start?.date);
  const zone = master.start?.timeZone ?? calendarZone;
  const first = allDay
    ? DateTime.fromISO(master.start!.date!, { zone })
    : DateTime.fromISO(master.start!.dateTime!, { setZone: true }).setZone(zone);
  const lengthMs = allDay
    ? 0
    : DateTime.fromISO(master.end!.dateTime!, { setZone: true }).toMillis() - first.toMillis();
  const lengthDays = allDay
    ? Math.round(
        DateTime.fromISO(master.end!.date!).diff(DateTime.fromISO(master.start!.date!), 'days')
          .days,
      )
    : 0;
  if (!r) return [occurrence(first, allDay, lengthMs, lengthDays, zone)];
  const freq = r.get('FREQ') ?? 'WEEKLY';
  const interval = Number(r.get('INTERVAL') ?? 1);
  const count = r.has('COUNT') ? Number(r.get('COUNT')) : Infinity;
  const until = r.has('UNTIL') ? parseIcal(r.get('UNTIL')!, zone).toMillis() : Infinity;
  const byDay = (r.get('BYDAY') ?? DAYS[first.weekday - 1]!)
    .split(',')
    .map((d) => DAYS.indexOf(d.slice(-2)) + 1)
    .sort();
  const skip = exdates(recurrence, zone);
  const out: Occurrence[] = [];
  let n = 0;
  const at = (d: DateTime) =>
    DateTime.fromObject(
      {
        year: d.year,
        month: d.month,
        day: d.day,
        hour: first.hour,
        minute: first.minute,
        second: first.second,
      },
      { zone },
    );
  for (let step = 0; n < count && out.length < MAX; step++) {
    const candidates =
      freq === 'DAILY'
        ? [at(first.plus({ days: step * interval }))]
        : byDay.map((wd) =>
            at(first.startOf('week').plus({ weeks: step * interval, days: wd - 1 })),
          );
    let past = false;
    for (const c of candidates) {
      if (c < first) continue;
      if (c.toMillis() > until || c.toMillis() >= untilMs || n >= count) {
        past = true;
        break;
      }
      n++;
      if (!skip.has(c.toMillis())) out.push(occurrence(c, allDay, lengthMs, lengthDays, zone));
    }
    if (past) break;
  }
  return out;
}

function occurrence(
  start: DateTime,
  allDay: boolean,
  lengthMs: number,
  lengthDays: number,
  zone: string,
): Occurrence {
  if (allDay) {
    const date = start.toISODate()!;
    return {
      key: date.replaceAll('-', ''),
      originalStart: { date },
      start: { date },
      end: { date: start.plus({ days: lengthDays }).toISODate()! },
    };
  }
  const s = { dateTime: start.toISO({ suppressMilliseconds: true })!, timeZone: zone };
  const end = start.plus({ milliseconds: lengthMs });
  return {
    key: start.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'"),
    originalStart: s,
    start: s,
    end: { dateTime: end.toISO({ suppressMilliseconds: true })!, timeZone: zone },
  };
}
