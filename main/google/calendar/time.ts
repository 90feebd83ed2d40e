/*
 * Time handling for the calendar tools (issue 7: "times without an offset are
 * read in the calendar's time zone, DST-safe").
 *
 * Why luxon: Node 22 has no Temporal; luxon is small, maintained, reads the
 * IANA database through Intl (the tz data Node ships) and converts wall clock
 * ↔ instant in a named zone. Its getPossibleOffsets() lets us *detect* DST gaps
 * and overlaps instead of silently shifting (date-fns-tz shifts a nonexistent
 * 02:30 to 03:30 without a word).
 *
 * All-day dates are never turned into instants to be compared or printed:
 * "2026-03-10" stays a string, so it cannot move a day in UTC−10 or UTC+14.
 */
import { DateTime, IANAZone } from 'luxon';
import type { calendar_v3 } from '@googleapis/calendar';
import { InputError } from './errors.js';

export type EventDateTime = calendar_v3.Schema$EventDateTime;

/** Region/City names as Google wants them (e.g. "Europe/Zurich"); not "+05:00", not "GMT+5". */
const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_-]*(\/[A-Za-z0-9_+-]+)*$/;

/** Returns the canonical IANA name ("europe/berlin" → "Europe/Berlin"), or throws a clear InputError. */
export function checkZone(zone: string, field = 'time_zone'): string {
  const z = zone.trim();
  if (!ZONE_SHAPE.test(z) || !IANAZone.isValidZone(z)) {
    throw new InputError(
      `${field}: "${zone}" is not an IANA time zone name. Use a name such as "Europe/Berlin", "America/New_York" or "UTC".`,
    );
  }
  return new Intl.DateTimeFormat('en-US', { timeZone: z }).resolvedOptions().timeZone;
}

export type TimeInput =
  { kind: 'date'; date: string } | { kind: 'instant'; at: DateTime; hadOffset: boolean };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;
const WITH_OFFSET =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Reads "2026-03-10" (a date), "2026-03-10T09:30" (wall clock in `zone`) or
 * "2026-03-10T09:30:00-05:00" (an instant). Instants come back in `zone`.
 */
export function parseTime(text: string, zone: string, field: string): TimeInput {
  const s = text.trim();
  const d = DATE.exec(s);
  if (d) {
    const date = DateTime.fromObject({ year: +d[1]!, month: +d[2]!, day: +d[3]! }, { zone: 'UTC' });
    if (!date.isValid)
      throw new InputError(
        `${field}: "${text}" is not a valid date (${date.invalidExplanation ?? 'invalid'}).`,
      );
    return { kind: 'date', date: s };
  }
  if (WITH_OFFSET.test(s)) {
    const at = DateTime.fromISO(s.replace(' ', 'T'), { setZone: true });
    if (!at.isValid)
      throw new InputError(
        `${field}: "${text}" is not a valid time (${at.invalidExplanation ?? 'invalid'}).`,
      );
    return { kind: 'instant', at: at.setZone(zone), hadOffset: true };
  }
  const m = LOCAL.exec(s);
  if (m) {
    const parts = {
      year: +m[1]!,
      month: +m[2]!,
      day: +m[3]!,
      hour: +m[4]!,
      minute: +m[5]!,
      second: +(m[6] ?? 0),
    };
    return { kind: 'instant', at: wallClock(parts, zone, field), hadOffset: false };
  }
  throw new InputError(
    `${field}: "${text}" is not a date or time Airlock reads. Use "2026-03-10" (a date), "2026-03-10T09:30" ` +
      `(read in ${zone}) or "2026-03-10T09:30:00-05:00" (with an offset).`,
  );
}

export interface WallParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

/**
 * A wall-clock time in a zone. A time inside a DST gap does not exist and is
 * refused; an ambiguous one (clocks going back) means its first occurrence,
 * as RFC 5545 §3.3.5 reads local times.
 */
export function wallClock(parts: WallParts, zone: string, field: string): DateTime {
  const guess = DateTime.fromObject({ ...parts, second: parts.second ?? 0 }, { zone });
  if (!guess.isValid)
    throw new InputError(`${field}: not a valid time (${guess.invalidExplanation ?? 'invalid'}).`);
  const same = guess
    .getPossibleOffsets()
    .filter((c) => c.day === parts.day && c.hour === parts.hour && c.minute === parts.minute)
    .sort((a, b) => a.toMillis() - b.toMillis());
  const first = same[0];
  if (!first) {
    const hhmm = `${String(parts.hour).padStart(2, '0')}:${String(parts.minute).padStart(2, '0')}`;
    throw new InputError(
      `${field}: ${hhmm} on ${guess.toISODate()} does not exist in ${zone}: the clocks skip that hour (daylight saving time). ` +
        'Pick a time outside the gap, or give an explicit UTC offset.',
    );
  }
  return first;
}

/** "2026-03-10T09:00:00-04:00": an instant with the offset it has in its zone. */
export function iso(at: DateTime): string {
  return at.toISO({ suppressMilliseconds: true }) ?? '';
}

/** A Google dateTime (always has an offset) as an instant in `zone`. */
export function fromGoogle(dateTime: string, zone: string): DateTime {
  return DateTime.fromISO(dateTime, { setZone: true }).setZone(zone);
}

/** Adds days to a date string without going through a time zone. */
export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() ?? date;
}

/** Where an event time starts, as an instant in `zone` (all-day: the date's start in `zone`), for sorting and overlap. */
export function instantOf(t: EventDateTime | undefined, zone: string): DateTime | null {
  if (t?.dateTime) return fromGoogle(t.dateTime, zone);
  if (t?.date) return DateTime.fromISO(t.date, { zone }).startOf('day');
  return null;
}

const LOCALE = 'en-GB';

/** "Tue 3 Dec" (+ year when not the current one). */
export function humanDate(at: DateTime, now: DateTime): string {
  const base = at.setLocale(LOCALE).toFormat('ccc d LLL');
  return at.year === now.setZone(at.zone).year ? base : `${base} ${at.year}`;
}

/**
 * "Tue 3 Dec 10:00–10:15", "Tue 3 Dec 23:00 – Wed 4 Dec 01:00",
 * "Tue 3 Dec (all day)", "Tue 3 Dec – Thu 5 Dec (all day)".
 */
export function humanRange(
  start: EventDateTime | undefined,
  end: EventDateTime | undefined,
  zone: string,
  now: DateTime,
): string {
  if (start?.date) {
    const first = DateTime.fromISO(start.date, { zone: 'UTC' });
    const last = end?.date ? DateTime.fromISO(addDays(end.date, -1), { zone: 'UTC' }) : first;
    const nowUtc = now.setZone('UTC');
    if (last <= first) return `${humanDate(first, nowUtc)} (all day)`;
    return `${humanDate(first, nowUtc)} – ${humanDate(last, nowUtc)} (all day)`;
  }
  const s = start?.dateTime ? fromGoogle(start.dateTime, zone) : null;
  const e = end?.dateTime ? fromGoogle(end.dateTime, zone) : null;
  if (!s) return '(no time)';
  const hm = (d: DateTime) => d.toFormat('HH:mm');
  if (!e) return `${humanDate(s, now)} ${hm(s)}`;
  if (s.hasSame(e, 'day')) return `${humanDate(s, now)} ${hm(s)}–${hm(e)}`;
  return `${humanDate(s, now)} ${hm(s)} – ${humanDate(e, now)} ${hm(e)}`;
}

/** "UTC-04:00" for the offset an instant has in its zone. */
export function offsetLabel(at: DateTime): string {
  return `UTC${at.toFormat('ZZ')}`;
}

/** True when the text carries its own offset ("Z", "+02:00"), so no zone is needed to read it. */
export function hasOffset(text: string): boolean {
  return WITH_OFFSET.test(text.trim());
}

/** A parsed input as an instant: a date means the start of that day in `zone` (or its end, for the end of a range). */
export function toInstant(t: TimeInput, zone: string, edge: 'start' | 'end'): DateTime {
  if (t.kind === 'instant') return t.at;
  const day = DateTime.fromISO(t.date, { zone }).startOf('day');
  return edge === 'start' ? day : day.plus({ days: 1 }).startOf('day');
}
