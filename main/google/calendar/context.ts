import type { calendar_v3, MethodOptions } from '@googleapis/calendar';
import type { DateTime } from 'luxon';
import type { CalendarApi } from './api.js';
import { optString, type Args } from './args.js';
import { InputError } from './errors.js';
import { checkZone, hasOffset, iso, parseTime, toInstant } from './time.js';

/** What one tool call works with: the client, this account's request options, and "now". */
export interface CallCtx {
  api: calendar_v3.Calendar;
  opts: MethodOptions;
  account: string;
  now: DateTime;
  cal: CalendarApi;
}

export function zoneOf(c: CallCtx, calendarId: string): Promise<string> {
  return c.cal.zoneOf(c.account, calendarId, c.opts);
}

/** The `time_zone` argument, validated, or undefined. */
export function zoneArg(args: Args): string | undefined {
  const z = optString(args, 'time_zone');
  return z === undefined ? undefined : checkZone(z);
}

/**
 * time_min/time_max as instants. Inputs without an offset are read in the
 * zone `zone()` gives (fetched only when needed). A date as time_max means
 * the end of that day, so "2026-03-10 to 2026-03-10" is that whole day.
 */
export async function resolveRange(
  args: Args,
  zone: () => Promise<string>,
  now: DateTime,
  days = 7,
): Promise<{ min: DateTime; max: DateTime }> {
  const minText = optString(args, 'time_min');
  const maxText = optString(args, 'time_max');
  const needsZone = [minText, maxText].some((t) => t !== undefined && !hasOffset(t));
  const z = needsZone ? await zone() : 'UTC';
  const min = minText ? toInstant(parseTime(minText, z, 'time_min'), z, 'start') : now;
  const max = maxText ? toInstant(parseTime(maxText, z, 'time_max'), z, 'end') : min.plus({ days });
  if (max <= min)
    throw new InputError(`time_max (${iso(max)}) must be after time_min (${iso(min)}).`);
  return { min, max };
}
