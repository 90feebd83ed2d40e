/*
 * The approval's words (issue 7): "Create an event, Tue 3 Dec 10:00–10:15 (Europe/Berlin),
 * 3 attendees — invitations will be e-mailed. Title: 'Standup'". The sync form
 * uses only the arguments and cached calendar zones; the async form also asks
 * Google (the event's title, overlapping events).
 *
 * Every sentence says its facts first and its quoted values last (quotedTail): a title — the
 * agent's, or an event's, which anyone who invites the user writes — can close its quote, and
 * quoted mid-sentence it wrote the rest ("Change 'Sync' (Tue 10:00): title → 'X', …"). Said last,
 * a value can add words after itself but change none of the statement before it
 * (card-line.security.test.ts, card-quotes.property.test.ts).
 */
import type { calendar_v3 } from '@googleapis/calendar';
import type { DateTime } from 'luxon';
import {
  emails,
  isGuestAddress,
  optString,
  optStrings,
  type Args,
  type SendUpdates,
} from './args.js';
import { zoneOf, type CallCtx } from './context.js';
import { extrasOf, extrasWords } from './event-extras.js';
import { eventTimes, hasTimeChange } from './event-input.js';
import { humanRange, hasOffset } from './time.js';
import { checkZone } from './time.js';
import type { EventRead } from './event-guests.js';
import { findOverlaps, loadEvent, sendUpdatesArg } from './write-tools.js';
import { whenText } from './render.js';
import { occurrencesBeforeThis, timeWords, updateTimes } from './update-tool.js';
import { cardLine, quoted, quotedUnless } from '../card-text.js';

type Event = calendar_v3.Schema$Event;

const SCOPE_WORDS: Record<string, string> = {
  this_instance: 'this occurrence only',
  this_and_following: 'this and all following occurrences',
  all: 'the whole series',
};

const VERBS: Record<string, string> = {
  accept: 'Accept',
  decline: 'Decline',
  tentative: 'Tentatively accept',
};

/**
 * ". Title: 'Standup'. New location: 'Room 4'": the labelled values after the statement, in the
 * order given; a value left undefined is left out. One line (cardLine).
 */
function quotedTail(
  values: readonly (readonly [label: string, value: string | undefined])[],
): string {
  return values
    .filter(([, v]) => v !== undefined)
    .map(([label, v]) => `. ${label}: ${quoted(v!)}`)
    .join('');
}

function mailClause(guests: number, send: SendUpdates, what: string): string {
  if (guests === 0) return '';
  if (send === 'none') return ` — no ${what} will be sent`;
  return ` — ${what} will be e-mailed${send === 'externalOnly' ? ' to guests outside your domain' : ''}`;
}

/** The zone times are read in, when known without asking Google. */
function knownZone(args: Args, cachedZone: string | undefined): string | undefined {
  const given = optString(args, 'time_zone');
  if (given) return checkZone(given);
  return cachedZone;
}

/** What reminders, colour, status and attachments will do, with reminder times when the start is known. */
function extrasClause(args: Args, zone: string | undefined, create: boolean): string[] {
  let startAt;
  try {
    if (zone && optString(args, 'start'))
      startAt = eventTimes(args, zone, { allDayDays: 1 }).startAt;
  } catch {
    startAt = undefined;
  }
  try {
    const calendarId = optString(args, 'calendar_id') ?? 'primary';
    const { body } = extrasOf(args, {
      allDay: false,
      calendarId,
      guests: 0,
      meet: false,
      create,
    });
    return extrasWords(body, startAt);
  } catch (err) {
    return [`this call will FAIL: ${(err as Error).message}`];
  }
}

/**
 * A time as the agent wrote it, read before the call checks it: bare when it reads as a date
 * ("2026-03-10T10:00"), quoted otherwise — any text, it would stand in the card's sentence.
 */
function asTime(given: string): string {
  return quotedUnless(given, (t) => /^\d{4}-\d{2}-\d{2}/.test(t));
}

/** "Tue 3 Dec 10:00–10:15 (Europe/Berlin)" from the arguments, or the raw text when the zone is not known yet. */
function whenFromArgs(args: Args, zone: string | undefined, now: DateTime): string {
  const start = optString(args, 'start');
  if (!start) return '';
  const end = optString(args, 'end');
  // Without the zone, times are read in UTC only when every one carries its offset: the write
  // reads a time without one in the calendar's zone, so an end without one would be read
  // differently here ("10:00+01:00 to 12:00" is two hours in Berlin, not three in UTC).
  const z = zone ?? (hasOffset(start) && (!end || hasOffset(end)) ? 'UTC' : undefined);
  if (!z) return `${asTime(start)}${end ? ` – ${asTime(end)}` : ''} (in the calendar's time zone)`;
  const t = eventTimes(args, z, { allDayDays: 1 });
  return `${humanRange(t.start, t.end, z, now)}${t.allDay ? '' : ` (${z})`}`;
}

/** An event the new one overlaps, as findOverlaps reads it: its time, and its organizer's title. */
export interface OverlapSeen {
  summary: string;
  when: string;
}

/**
 * The agent's recurrence rules as a card shows them, read before the call checks them: a rule
 * bare, anything else quoted (common/card-text.ts) — bare on a create's card, "x), 0 attendees"
 * wrote the card's words.
 */
function rulesShown(args: Args): string {
  let rules: string[];
  try {
    rules = optStrings(args, 'recurrence') ?? [];
  } catch {
    // Not a list of rules: the call will refuse it (validate-args.ts); shown as given, quoted.
    rules = [JSON.stringify(args.recurrence) ?? ''];
  }
  return rules
    .map((r) => quotedUnless(r, (l) => /^(?:RRULE|EXRULE|RDATE|EXDATE)[:;]/.test(l)))
    .join(' ');
}

export function describeCreate(
  args: Args,
  cachedZone: string | undefined,
  now: DateTime,
  overlaps: readonly OverlapSeen[] = [],
): string {
  const summary = optString(args, 'summary');
  const guests = (emails(optStrings(args, 'attendees'), 'attendees') ?? []).length;
  const when = whenFromArgs(args, knownZone(args, cachedZone), now);
  const calendar = optString(args, 'calendar_id');
  const parts = ['Create an event', when];
  if (args.recurrence) parts.push(`repeating (${rulesShown(args)})`);
  if (guests) parts.push(`${guests} attendee${guests === 1 ? '' : 's'}`);
  if (args.add_meet_link === true) parts.push('with a Google Meet link');
  parts.push(...extrasClause(args, knownZone(args, cachedZone), true));
  if (calendar && calendar !== 'primary')
    parts.push(`on calendar ${quotedUnless(calendar, () => true)}`);
  // The titles last: the agent's, then the overlapping events' (their organizers', strangers'
  // for an invitation). Quoted at the head ("Create '<title>', …") a title that closes the quote
  // wrote the rest of the sentence — "Sync', Tue 1 Dec 10:00, no guests. '" before the real time
  // and guests, pushed out of sight; an overlapping event's title did the same to the agent's.
  // After the whole statement, and the overlaps' times, it can add words but change none.
  const warn = overlaps.length
    ? `. Warning: overlaps ${overlaps.length === 1 ? 'an event' : `${overlaps.length} events`} (${overlaps.map((o) => o.when).join('; ')})`
    : '';
  const title = summary === undefined ? '. No title' : quotedTail([['Title', summary]]);
  const overlapping = overlaps.length
    ? `. Overlapping: ${overlaps.map((o) => quoted(o.summary)).join(', ')}`
    : '';
  // One line: a title (the agent's, or an overlapping stranger's invitation) must not write the
  // card's own lines, such as a "To:" the card would lay out as a mail (main/google/card-text.ts).
  return cardLine(
    `${parts.filter(Boolean).join(', ')}${mailClause(guests, sendUpdatesArg(args), 'invitations')}${warn}${title}${overlapping}`,
  );
}

/**
 * An update's new time as the write will set it. With the event read (the async card), by the
 * write's own reading and in its words (update-tool.ts updateTimes, timeWords): what the arguments
 * leave out is the event's (a new start alone keeps its length, an all-day event its days).
 * Without it, only what the arguments settle alone, and never a reading the write does not make.
 */
function timeChange(
  args: Args,
  zone: string | undefined,
  now: DateTime,
  ev: Event | undefined,
  series: Event | undefined,
): string {
  try {
    if (ev && zone) return timeWords(updateTimes(args, ev, series, zone), zone, now);
    if (args.start === undefined) return 'new end time';
    if (args.end === undefined && args.duration_minutes === undefined)
      return `time → starts ${asTime(String(args.start))}, keeping its length`;
    return `time → ${whenFromArgs(args, zone, now)}`;
  } catch (err) {
    return `time → this call will FAIL: ${(err as Error).message}`;
  }
}

/**
 * An update's guest addresses, read before the call checks them (validateArgs does not): each
 * bare when it is an address the write takes, quoted otherwise (card-text.ts quotedUnless).
 */
function guestsShown(list: readonly string[]): string {
  return list.map((e) => quotedUnless(e, isGuestAddress)).join(', ');
}

function changeWords(
  args: Args,
  zone: string | undefined,
  now: DateTime,
  ev?: Event,
  series?: Event,
): string[] {
  const out: string[] = [];
  // The new title and location are quoted after the statement (describeOther).
  if (typeof args.summary === 'string') out.push('new title');
  if (hasTimeChange(args)) out.push(timeChange(args, zone, now, ev, series));
  if (typeof args.location === 'string') out.push('new location');
  if (typeof args.description === 'string') out.push('new description');
  const add = optStrings(args, 'add_attendees') ?? [];
  const remove = optStrings(args, 'remove_attendees') ?? [];
  if (args.attendees !== undefined)
    out.push(`guest list → ${guestsShown(optStrings(args, 'attendees') ?? []) || 'nobody'}`);
  if (add.length) out.push(`invite ${guestsShown(add)}`);
  if (remove.length) out.push(`remove ${guestsShown(remove)}`);
  if (args.add_meet_link === true) out.push('add a Meet link');
  if (args.recurrence !== undefined) out.push(`recurrence → ${rulesShown(args)}`);
  out.push(...extrasClause(args, zone, false));
  return out;
}

/**
 * Names an event that was looked up by its time: "the event (Tue 3 Dec 10:00–10:15)"; its title,
 * the organizer's (a stranger's for an invitation), and the id the agent gave are quoted after
 * the statement (eventTail).
 */
function named(e: Event | undefined, zone: string | undefined, now: DateTime): string {
  if (!e) return 'an event';
  return `the event (${whenText(e, zone ?? 'UTC', now)})`;
}

/** ". Event: 'Standup'" for an event looked up, ". Event id: 'e1'" for one not. */
function eventTail(e: Event | undefined, id: string): (readonly [string, string | undefined])[] {
  if (!e) return [['Event id', id]];
  return [['Event', e.summary ?? '(no title)']];
}

export function describeOther(
  tool: string,
  args: Args,
  zone: string | undefined,
  now: DateTime,
  ev?: Event,
  series?: Event,
): string {
  const id = optString(args, 'event_id') ?? '?';
  const scope = optString(args, 'scope');
  const scopeText =
    scope && (ev === undefined || ev.recurringEventId || ev.recurrence)
      ? `, ${SCOPE_WORDS[scope] ?? scope}`
      : '';
  const guests = ev
    ? (ev.attendees ?? []).filter((a) => !a.self).length
    : (optStrings(args, 'attendees') ?? []).length;
  const send = sendUpdatesArg(args);
  const unknownGuests =
    !ev && guests === 0 && send !== 'none' ? ' — any guests will be e-mailed' : '';
  if (tool === 'calendar_update_event') {
    const added = (optStrings(args, 'add_attendees') ?? []).length;
    const words = changeWords(args, knownZone(args, zone), now, ev, series);
    const tail = quotedTail([
      ...eventTail(ev, id),
      ['New title', typeof args.summary === 'string' ? args.summary : undefined],
      ['New location', typeof args.location === 'string' ? args.location : undefined],
    ]);
    return cardLine(
      `Change ${named(ev, zone, now)}${scopeText}: ${words.join('; ') || 'nothing'}${mailClause(guests + added, send, 'updates') || unknownGuests}${tail}`,
    );
  }
  if (tool === 'calendar_delete_event')
    return cardLine(
      `Delete ${named(ev, zone, now)}${scopeText}${mailClause(guests, send, 'cancellations') || unknownGuests}${quotedTail(eventTail(ev, id))}`,
    );
  if (tool === 'calendar_respond') {
    const verb = VERBS[optString(args, 'response') ?? ''] ?? 'Answer';
    // The note goes to the organizer with the answer: the card says what it is.
    // On one line: a note must not read as more of the card's own lines.
    const comment =
      typeof args.comment === 'string' ? args.comment.replace(/\s+/g, ' ').trim() : '';
    const note = comment ? ', with a note' : '';
    // The organizer's address is theirs to write (an invitation's, from anyone): quoted after
    // the statement with the title, not mid-sentence, where closing its bracket it wrote
    // whether the organizer is e-mailed.
    const organizer = ev?.organizer?.email && !ev.organizer.self ? ev.organizer.email : undefined;
    const tail = quotedTail([
      ...eventTail(ev, id),
      ['Organizer', organizer],
      ['Note', comment || undefined],
    ]);
    return cardLine(
      `${verb} ${named(ev, zone, now)}${scopeText}${note}${send === 'none' ? ` without e-mailing the organizer${comment ? ', who still sees the note on the event' : ''}` : ' — the organizer will be told'}${tail}`,
    );
  }
  return '';
}

/** The async form: the event's own title and time, and overlap warnings for a new event. */
export async function describeWithLookups(
  c: CallCtx,
  tool: string,
  args: Args,
  read?: EventRead,
): Promise<string> {
  const calendarId = optString(args, 'calendar_id') ?? 'primary';
  const zone = optString(args, 'time_zone')
    ? checkZone(optString(args, 'time_zone')!)
    : await zoneOf(c, calendarId);
  if (tool === 'calendar_create_event') {
    const t = eventTimes(args, zone, { allDayDays: 1 });
    const overlaps = await findOverlaps(c, calendarId, t.startAt, t.endAt, zone);
    return describeCreate(args, zone, c.now, overlaps);
  }
  // The version the call is bound to, as its checks read it (event-guests.ts). A bound call
  // given no read of its version (CalendarSource.describeEffectAsync read again and found the
  // event or its series changed) will fail: the card says so.
  if (read) {
    const text = describeOther(tool, args, zone, c.now, read.event, await seriesOf(read));
    return withGuests(text, read.guests);
  }
  const ev = await loadEvent(c, calendarId, optString(args, 'event_id') ?? '');
  // Not bound (no read to find): the event and, for a change to its series, the series, read as
  // the write reads them (event-guests.ts read, update-tool.ts) — a time change "this and
  // following" takes the series' length, which the occurrence alone does not know.
  const series =
    ev.recurringEventId && args.scope !== 'this_instance' && tool === 'calendar_update_event'
      ? await loadEvent(c, calendarId, ev.recurringEventId)
      : undefined;
  const text = describeOther(
    tool,
    args,
    zone,
    c.now,
    ev,
    await seriesOf({ event: ev, ...(series ? { series } : {}) }),
  );
  if (typeof args.event_etag === 'string')
    return `${text}\nThis call will FAIL and change nothing: the event changed after Airlock checked it.`;
  return text;

  /**
   * The series the update's times are read against: none when "this and following" starts at
   * the first occurrence, which the write changes as "all" does, from the occurrence's own times
   * (update-tool.ts splitSeries).
   */
  async function seriesOf(r: { event: Event; series?: Event }): Promise<Event | undefined> {
    const whole =
      r.series &&
      tool === 'calendar_update_event' &&
      args.scope === 'this_and_following' &&
      hasTimeChange(args) &&
      (await occurrencesBeforeThis(c, calendarId, r.event, r.series, zone)) === 0;
    return whole ? undefined : r.series;
  }
}

/**
 * The card names everyone the write reaches on the event as read — not only how many: a guest
 * the user would not write to is seen before the approval, not after. One line, so no address can
 * read as another line of the card.
 */
export function withGuests(text: string, guests: readonly string[]): string {
  // Quoted unless an address (common/card-text.ts): the event's guest list is its organizer's.
  const one = guests.map((g) => quotedUnless(g, (a) => a.includes('@')));
  return one.length ? `${text}\nGuests on the event: ${one.join(', ')}` : text;
}
