import { DateTime } from 'luxon';
import type { CallToolResult } from '../../tools/types.js';
import { emails, optNumber, optStrings, type Args } from './args.js';
import { resolveRange, zoneArg, zoneOf, type CallCtx } from './context.js';
import { InputError } from './errors.js';
import { textResult } from './render.js';
import { humanDate, iso } from './time.js';

interface Interval {
  start: number;
  end: number;
}

interface BusyAnswer {
  busy: Map<string, Interval[]>;
  unknown: Map<string, string>;
}

/** Google's freeBusy takes at most 50 calendars per query (calendarExpansionMax). */
const MAX_ITEMS = 50;

export async function queryBusy(
  c: CallCtx,
  ids: string[],
  min: DateTime,
  max: DateTime,
  zone: string,
): Promise<BusyAnswer> {
  if (ids.length > MAX_ITEMS)
    throw new InputError(`At most ${MAX_ITEMS} calendars or people per query.`);
  const res = await c.api.freebusy.query(
    {
      requestBody: {
        timeMin: iso(min),
        timeMax: iso(max),
        timeZone: zone,
        items: ids.map((id) => ({ id })),
      },
    },
    c.opts,
  );
  const out: BusyAnswer = { busy: new Map(), unknown: new Map() };
  for (const id of ids) {
    const cal = res.data.calendars?.[id];
    const errors = cal?.errors ?? [];
    if (!cal || errors.length) {
      out.unknown.set(id, errors.map((e) => e.reason ?? 'error').join(', ') || 'no answer');
      continue;
    }
    out.busy.set(
      id,
      (cal.busy ?? []).flatMap((b) =>
        b.start && b.end ? [{ start: Date.parse(b.start), end: Date.parse(b.end) }] : [],
      ),
    );
  }
  return out;
}

export function span(i: Interval, zone: string, now: DateTime): string {
  const s = DateTime.fromMillis(i.start, { zone });
  const e = DateTime.fromMillis(i.end, { zone });
  const hm = (d: DateTime) => d.toFormat('HH:mm');
  return s.hasSame(e, 'day')
    ? `${humanDate(s, now)} ${hm(s)}–${hm(e)}`
    : `${humanDate(s, now)} ${hm(s)} – ${humanDate(e, now)} ${hm(e)}`;
}

export const isoSpan = (i: Interval, zone: string) => ({
  start: iso(DateTime.fromMillis(i.start, { zone })),
  end: iso(DateTime.fromMillis(i.end, { zone })),
});

export async function freebusy(c: CallCtx, args: Args): Promise<CallToolResult> {
  const ids = optStrings(args, 'calendars') ?? ['primary'];
  const zone = zoneArg(args) ?? (await zoneOf(c, 'primary'));
  const { min, max } = await resolveRange(args, () => Promise.resolve(zone), c.now);
  const answer = await queryBusy(c, ids, min, max, zone);
  const lines = [
    `Busy times from ${iso(min.setZone(zone))} to ${iso(max.setZone(zone))} (${zone}):`,
  ];
  const calendars: Record<string, unknown> = {};
  for (const id of ids) {
    const busy = answer.busy.get(id);
    if (!busy) {
      lines.push(
        `- ${id}: unknown (${answer.unknown.get(id)}) — not shared with you, or no such calendar`,
      );
      calendars[id] = { error: answer.unknown.get(id) };
      continue;
    }
    lines.push(
      `- ${id}: ${busy.length ? busy.map((b) => span(b, zone, c.now)).join(', ') : 'free the whole time'}`,
    );
    calendars[id] = { busy: busy.map((b) => isoSpan(b, zone)) };
  }
  return textResult(lines.join('\n'), {
    account: c.account,
    time_zone: zone,
    time_min: iso(min),
    time_max: iso(max),
    calendars,
  });
}

function hhmm(text: unknown, field: string, allow24: boolean): { hour: number; minute: number } {
  const m = typeof text === 'string' ? /^(\d{1,2}):(\d{2})$/.exec(text.trim()) : null;
  const hour = m ? +m[1]! : NaN;
  const minute = m ? +m[2]! : NaN;
  const ok = m && minute < 60 && (hour < 24 || (allow24 && hour === 24 && minute === 0));
  if (!ok)
    throw new InputError(
      `${field} must be a time like "09:00"${allow24 ? ' (up to "24:00")' : ''}.`,
    );
  return { hour, minute };
}

export interface FreeOptions {
  zone: string;
  start: { hour: number; minute: number };
  end: { hour: number; minute: number };
  days: Set<number>;
  minMs: number;
  limit: number;
}

/**
 * Free windows inside working hours. Each day's hours are built from the wall
 * clock in `zone`, so 09:00 stays 09:00 on both sides of a DST change; a
 * working-hours edge inside a DST gap moves forward, as the clock does.
 */
export function freeWindows(
  min: DateTime,
  max: DateTime,
  busy: Interval[],
  o: FreeOptions,
): Interval[] {
  const merged = [...busy].sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  // Start on a quarter hour: "from 14:15", not "from 14:13:47".
  const from = Math.ceil(min.toMillis() / 900_000) * 900_000;
  for (
    let day = min.setZone(o.zone).startOf('day');
    day < max && out.length < o.limit;
    day = day.plus({ days: 1 }).startOf('day')
  ) {
    if (!o.days.has(day.weekday)) continue;
    const ws = day.set({ hour: o.start.hour, minute: o.start.minute }).toMillis();
    const we =
      o.end.hour === 24
        ? day.plus({ days: 1 }).startOf('day').toMillis()
        : day.set({ hour: o.end.hour, minute: o.end.minute }).toMillis();
    let cursor = Math.max(ws, from);
    const stop = Math.min(we, max.toMillis());
    for (const b of merged) {
      if (b.end <= cursor) continue;
      if (b.start >= stop) break;
      if (b.start - cursor >= o.minMs) out.push({ start: cursor, end: b.start });
      cursor = Math.max(cursor, b.end);
    }
    if (stop - cursor >= o.minMs) out.push({ start: cursor, end: stop });
  }
  return out.slice(0, o.limit);
}

export async function findFreeTime(c: CallCtx, args: Args): Promise<CallToolResult> {
  const duration = optNumber(args, 'duration_minutes', 5, 1440);
  if (duration === undefined) throw new InputError('duration_minutes is required.');
  const zone = zoneArg(args) ?? (await zoneOf(c, 'primary'));
  const { min, max } = await resolveRange(args, () => Promise.resolve(zone), c.now);
  const hours = (args.working_hours ?? {}) as Record<string, unknown>;
  const start = hhmm(hours.start ?? '09:00', 'working_hours.start', false);
  const end = hhmm(hours.end ?? '17:00', 'working_hours.end', true);
  if (end.hour * 60 + end.minute <= start.hour * 60 + start.minute)
    throw new InputError('working_hours.end must be after working_hours.start.');
  const days = (args.working_days ?? [1, 2, 3, 4, 5]) as unknown;
  if (
    !Array.isArray(days) ||
    !days.length ||
    days.some((d) => !Number.isInteger(d) || d < 1 || d > 7)
  ) {
    throw new InputError('working_days must list ISO weekdays 1 (Monday) to 7 (Sunday).');
  }
  const people = emails(optStrings(args, 'attendees'), 'attendees') ?? [];
  const ids = [...new Set([...(optStrings(args, 'calendar_ids') ?? ['primary']), ...people])];
  const answer = await queryBusy(c, ids, min, max, zone);
  const busy = [...answer.busy.values()].flat();
  const limit = optNumber(args, 'max_results', 1, 50) ?? 10;
  const windows = freeWindows(min, max, busy, {
    zone,
    start,
    end,
    days: new Set(days as number[]),
    minMs: duration * 60_000,
    limit,
  });
  const lines = [
    windows.length
      ? `Free for at least ${duration} min (${zone}, working hours ${fmt(start)}–${fmt(end)}), for ${ids.join(', ')}:`
      : `No free window of ${duration} min in working hours between ${iso(min.setZone(zone))} and ${iso(max.setZone(zone))} for ${ids.join(', ')}.`,
    ...windows.map(
      (w) => `- ${span(w, zone, c.now)} (${Math.round((w.end - w.start) / 60_000)} min)`,
    ),
  ];
  for (const [id, why] of answer.unknown)
    lines.push(`Note: availability of ${id} is unknown (${why}); it was not taken into account.`);
  return textResult(lines.join('\n'), {
    account: c.account,
    time_zone: zone,
    windows: windows.map((w) => ({
      ...isoSpan(w, zone),
      minutes: Math.round((w.end - w.start) / 60_000),
    })),
    unknown: Object.fromEntries(answer.unknown),
  });
}

const fmt = (t: { hour: number; minute: number }) =>
  `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
