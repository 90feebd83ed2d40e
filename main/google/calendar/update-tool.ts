import type { calendar_v3 } from '@googleapis/calendar';
import { DateTime } from 'luxon';
import type { CallToolResult } from '../../tools/types.js';
import { calendarIdOf, optEnum, reqString, SCOPES, type Args, type SendUpdates } from './args.js';
import { zoneArg, zoneOf, type CallCtx } from './context.js';
import { eventTimes, hasTimeChange, patchFields, type TimeSpec } from './event-input.js';
import { InputError } from './errors.js';
import { checkBound, writeOptions } from './event-version.js';
import {
  checkRecurrence,
  copyable,
  endBefore,
  following,
  hasByDay,
  occurrencesBefore,
} from './recurrence.js';
import { describedAs } from './provenance.js';
import { errorText } from './read-tools.js';
import { eventView, textResult, whenText } from './render.js';
import { addDays, fromGoogle, instantOf, iso, wallClock } from './time.js';
import {
  findOverlaps,
  loadEvent,
  overlapText,
  requireScope,
  sendUpdatesArg,
} from './write-tools.js';

type Event = calendar_v3.Schema$Event;
type When = calendar_v3.Schema$EventDateTime;

/** The event's current start as tool input ("2026-03-10" or an ISO time in `zone`), so a partial time change keeps the rest. */
function startText(w: When | undefined, zone: string): string {
  return w?.date ?? (w?.dateTime ? iso(fromGoogle(w.dateTime, zone)) : '');
}

function spanOf(e: Event): { durationMs?: number; allDayDays?: number } {
  if (e.start?.date && e.end?.date) {
    return {
      allDayDays: DateTime.fromISO(e.end.date, { zone: 'UTC' }).diff(
        DateTime.fromISO(e.start.date, { zone: 'UTC' }),
        'days',
      ).days,
    };
  }
  if (e.start?.dateTime && e.end?.dateTime)
    return { durationMs: Date.parse(e.end.dateTime) - Date.parse(e.start.dateTime) };
  return {};
}

/** New times for `base`, filling what the agent left out from it. */
export function newTimes(args: Args, base: Event, zone: string): TimeSpec {
  const keepLength = args.end === undefined && args.duration_minutes === undefined;
  return eventTimes(
    { ...args, start: args.start ?? startText(base.start ?? undefined, zone) },
    zone,
    keepLength ? spanOf(base) : {},
  );
}

/**
 * The times an update writes, read as the write reads them (updateEvent, splitSeries): what the
 * arguments leave out comes from the event — an occurrence's own start and length, or for "this
 * and following" the new series', which starts where the occurrence was meant to and has the
 * series' length. The approval card states these (effects.ts), not a reading of the arguments
 * alone: a new start alone keeps the event's length, which only the event knows.
 */
export function updateTimes(
  args: Args,
  ev: Event,
  series: Event | undefined,
  zone: string,
): TimeSpec {
  if (args.scope === 'this_and_following' && ev.recurringEventId && series) {
    const original = ev.originalStartTime ?? ev.start ?? {};
    return newTimes(args, { start: original, end: shiftedEnd(series, original) }, zone);
  }
  return newTimes(args, ev, zone);
}

/**
 * How many occurrences of the series come before this one. None: "this and following" is the
 * whole series, and the write changes it as "all" does, from this occurrence's own times
 * (splitSeries), not the series' length — the card asks the same (effects.ts).
 */
export function occurrencesBeforeThis(
  c: CallCtx,
  calendarId: string,
  occurrence: Event,
  series: Event,
  zone: string,
): Promise<number> {
  const original = occurrence.originalStartTime ?? occurrence.start ?? {};
  return occurrencesBefore(c, calendarId, series, original, zone);
}

/** "time → Thu 12 Mar 14:00–16:00 (UTC-04:00) (America/New_York)": the result's words, and the card's. */
export function timeWords(t: TimeSpec, zone: string, now: DateTime): string {
  return `time → ${whenText({ start: t.start, end: t.end }, zone, now)} (${zone})`;
}

/**
 * Moving the whole series from one occurrence: the series start moves by the
 * same number of days and takes the new wall-clock time, so the series keeps
 * its local hour on both sides of a DST change.
 */
function shiftSeries(
  master: Event,
  instance: Event,
  t: TimeSpec,
  zone: string,
  newRule: boolean,
): { start: When; end: When } {
  const instStart = instantOf(instance.start ?? undefined, zone);
  const masterStart = instantOf(master.start ?? undefined, zone);
  if (!instStart || !masterStart)
    throw new InputError('The series has no start time Airlock can read.');
  const days = Math.round(t.startAt.startOf('day').diff(instStart.startOf('day'), 'days').days);
  if (days !== 0 && hasByDay(master.recurrence) && !newRule) {
    throw new InputError(
      'Moving a series to another day also needs its rule changed: pass recurrence (e.g. ["RRULE:FREQ=WEEKLY;BYDAY=WE"]), or move one occurrence with scope "this_instance".',
    );
  }
  const day = masterStart.startOf('day').plus({ days });
  if (t.allDay) {
    const len = DateTime.fromISO(t.end.date ?? '', { zone: 'UTC' }).diff(
      DateTime.fromISO(t.start.date ?? '', { zone: 'UTC' }),
      'days',
    ).days;
    const date = day.toISODate() ?? '';
    return { start: { date }, end: { date: addDays(date, len) } };
  }
  const start = wallClock(
    {
      year: day.year,
      month: day.month,
      day: day.day,
      hour: t.startAt.hour,
      minute: t.startAt.minute,
      second: t.startAt.second,
    },
    zone,
    'start',
  );
  const end = start.plus({ milliseconds: t.endAt.toMillis() - t.startAt.toMillis() });
  return {
    start: { dateTime: iso(start), timeZone: zone },
    end: { dateTime: iso(end.setZone(zone)), timeZone: zone },
  };
}

export async function updateEvent(c: CallCtx, args: Args): Promise<CallToolResult> {
  const calendarId = calendarIdOf(args);
  const ev = await loadEvent(c, calendarId, reqString(args, 'event_id'));
  const scope = requireScope(ev, optEnum(args, 'scope', SCOPES));
  const send = sendUpdatesArg(args);
  // Times without an offset are read in the calendar's zone, as everywhere (issue 7).
  const zone = zoneArg(args) ?? (await zoneOf(c, calendarId));
  checkRecurrence(args.recurrence as string[] | undefined);
  if (args.recurrence !== undefined && scope === 'this_instance') {
    throw new InputError(
      'recurrence can only change for the whole series (scope "all") or from an occurrence on (scope "this_and_following").',
    );
  }
  const timed = hasTimeChange(args);
  if (scope === 'this_and_following') return splitSeries(c, calendarId, ev, args, zone, send);

  const master =
    scope === 'all' && ev.recurringEventId
      ? await loadEvent(c, calendarId, ev.recurringEventId)
      : ev;
  checkBound(args, ev, master === ev ? undefined : master);
  const { patch, changes } = patchFields(args, master);
  if (timed) {
    const t = newTimes(args, ev, zone);
    if (master !== ev)
      Object.assign(patch, shiftSeries(master, ev, t, zone, patch.recurrence !== undefined));
    else Object.assign(patch, { start: t.start, end: t.end });
    changes.push(timeWords(t, zone, c.now));
  }
  if (!changes.length)
    throw new InputError(
      'Nothing to change: give at least one field (summary, start, end, attendees, …).',
    );
  const res = await c.api.events.patch(
    {
      calendarId,
      eventId: master.id ?? '',
      sendUpdates: send,
      ...(patch.conferenceData ? { conferenceDataVersion: 1 } : {}),
      ...(patch.attachments ? { supportsAttachments: true } : {}),
      requestBody: patch,
    },
    writeOptions(c, args, ev, master.id ?? ''),
  );
  const overlaps =
    timed && res.data.start && res.data.end ? await overlapsOf(c, calendarId, res.data, zone) : [];
  const view = eventView(res.data, calendarId, zone, false);
  const what =
    scope === 'all'
      ? 'the whole series'
      : scope === 'this_instance'
        ? 'this occurrence'
        : 'the event';
  const lines = [
    `Updated ${what} "${view.summary}" (id ${view.id}): ${changes.join('; ')}.`,
    guestsNote(res.data, send),
  ];
  if (overlaps.length) lines.push(overlapText(overlaps));
  return describedAs(
    textResult(lines.filter(Boolean).join('\n'), {
      account: c.account,
      scope,
      event: view,
      changes,
      overlaps,
    }),
    res.data,
  );
}

async function overlapsOf(c: CallCtx, calendarId: string, e: Event, zone: string) {
  const s = instantOf(e.start ?? undefined, zone);
  const end = instantOf(e.end ?? undefined, zone);
  if (!s || !end) return [];
  try {
    return await findOverlaps(c, calendarId, s, end, zone, [e.id ?? '']);
  } catch {
    return [];
  }
}

function guestsNote(e: Event, send: SendUpdates): string {
  const guests = (e.attendees ?? []).filter((a) => !a.self).length;
  if (!guests) return '';
  return send === 'none'
    ? `${guests} guest(s) were not e-mailed.`
    : `${guests} guest(s) are e-mailed about the change${send === 'externalOnly' ? ' (external ones only)' : ''}.`;
}

/** "This and following": trim the original series, then start a new one at this occurrence (recurrence.ts). */
async function splitSeries(
  c: CallCtx,
  calendarId: string,
  instance: Event,
  args: Args,
  zone: string,
  send: SendUpdates,
): Promise<CallToolResult> {
  const master = await loadEvent(c, calendarId, instance.recurringEventId ?? '');
  checkBound(args, instance, master);
  const original = instance.originalStartTime ?? instance.start ?? {};
  const before = await occurrencesBeforeThis(c, calendarId, instance, master, zone);
  if (before === 0) {
    // The first occurrence: "this and following" is the whole series.
    return updateEvent(c, { ...args, event_id: instance.id, scope: 'all' });
  }
  const rules = master.recurrence ?? [];
  const { patch, changes } = patchFields(args, master);
  // The new series starts where the chosen occurrence was meant to start, with the series' length.
  const t = updateTimes(args, instance, master, zone);
  if (hasTimeChange(args)) changes.push(timeWords(t, zone, c.now));
  const body: Event = {
    ...copyable(master),
    ...patch,
    start: t.start,
    end: t.end,
    recurrence: patch.recurrence ?? following(rules, before),
  };
  await c.api.events.patch(
    {
      calendarId,
      eventId: master.id ?? '',
      sendUpdates: send,
      requestBody: { recurrence: endBefore(rules, original) },
    },
    writeOptions(c, args, instance, master.id ?? ''),
  );
  let created: Event;
  try {
    created = (
      await c.api.events.insert(
        {
          calendarId,
          sendUpdates: send,
          conferenceDataVersion: 1,
          // The new series keeps the original's Drive attachments (copyable).
          supportsAttachments: true,
          requestBody: body,
        },
        c.opts,
      )
    ).data;
  } catch (err) {
    const why = errorText(err, c.account);
    try {
      await c.api.events.patch(
        {
          calendarId,
          eventId: master.id ?? '',
          sendUpdates: send,
          requestBody: { recurrence: rules },
        },
        c.opts,
      );
    } catch (undo) {
      throw new InputError(
        `The new series could not be created (${why}), and restoring the original failed too (${errorText(undo, c.account)}): "${master.summary}" now ends before ${startText(original, zone)}.`,
      );
    }
    throw new InputError(
      `The new series could not be created (${why}); the original series was restored unchanged.`,
    );
  }
  const view = eventView(created, calendarId, zone, false);
  const lines = [
    `Split "${master.summary}": the original series (id ${master.id}) now ends before ${startText(original, zone)}; a new series (id ${view.id}) runs from ${whenText(created, zone, c.now)} on${changes.length ? ` with ${changes.join('; ')}` : ''}.`,
    guestsNote(created, send),
  ];
  return textResult(lines.filter(Boolean).join('\n'), {
    account: c.account,
    scope: 'this_and_following',
    original_series: master.id,
    event: view,
    changes,
  });
}

function shiftedEnd(master: Event, original: When): When {
  const span = spanOf(master);
  if (original.date) return { date: addDays(original.date, span.allDayDays ?? 1) };
  const start = DateTime.fromISO(original.dateTime ?? '', { setZone: true });
  return {
    dateTime: iso(start.plus({ milliseconds: span.durationMs ?? 0 })),
    ...(original.timeZone ? { timeZone: original.timeZone } : {}),
  };
}
