import type { calendar_v3 } from '@googleapis/calendar';
import { emails, optEnum, optString, optStrings, type Args } from './args.js';
import { autoDeclineMode } from './event-extras.js';
import type { EventRead } from './event-guests.js';
import { patchFields } from './event-input.js';

type Event = calendar_v3.Schema$Event;

/**
 * What a Calendar call destroys or answers for the user without sending anything anywhere, in
 * words after "This call" (CallContent.effect): the instructed-effect rule flags such a call after
 * a stranger's content addressed the agent (main/provenance/instructed-effects.ts). Read as the
 * tools read their arguments: `response` as respond() does, `auto_decline` as the event body is
 * built (event-extras.ts autoDeclineMode), for the event types that take it, an update's guests
 * by `emails` and its fields by `patchFields`, as the update writes them (event-input.ts).
 * `read` is the event (and its series) as the read before the call found them (event-guests.ts);
 * without it a new guest list counts as removing some, and new text, reminders or attachments as
 * replacing what was there.
 */
export function calendarEffect(tool: string, args: Args, read?: EventRead): string | undefined {
  try {
    if (tool === 'calendar_delete_event') return 'deletes an event from your calendar';
    // Any answer is the user's word to the organiser: an accept commits her time and tells a
    // stranger the address is read, as a decline turns a meeting down.
    if (tool === 'calendar_respond') return ANSWERS[optEnum(args, 'response', RESPONSES) ?? ''];
    if (tool === 'calendar_update_event') return updateEffect(args, read);
    if (tool !== 'calendar_create_event') return undefined;
    // Only an out-of-office or focus-time event declines (createEvent refuses it on others).
    if ((optString(args, 'event_type') ?? 'default') === 'default') return undefined;
    const mode = autoDeclineMode(args);
    return mode !== undefined && mode !== 'declineNone'
      ? 'declines meetings for you automatically'
      : undefined;
  } catch {
    return undefined; // Arguments the tool refuses (validateArgs) before it runs.
  }
}

const RESPONSES = ['accept', 'decline', 'tentative'] as const;
const ANSWERS: Record<string, string> = {
  accept: 'accepts an invitation for you',
  decline: 'declines an invitation for you',
  tentative: 'answers an invitation for you (maybe)',
};

/**
 * What an update takes away: guests removed (each is told, per send_updates), a series' rule
 * changed, which can end it and drop its later occurrences (recurrence.ts), and what the user
 * wrote or set on the event that the patch overwrites (textAndSettingsLost).
 *
 * Not declared, as neither destroys, hides nor answers for the user: a new time (the event stays
 * on the calendar, where she sees it, and its guests are told of it, as the destination rules see:
 * event-shown.ts — "far" would need the calendar's zone, which only the write reads), a colour, a
 * Meet link, new guests or attachments added to the ones there. Guests' answers are kept: the
 * patch carries each remaining guest's own entry (patchFields), and only calendar_respond answers
 * — except where "this and following" splits the series (splits): the new series is a new event.
 */
function updateEffect(args: Args, read: EventRead | undefined): string | undefined {
  const replace = emails(optStrings(args, 'attendees'), 'attendees');
  const remove = emails(optStrings(args, 'remove_attendees'), 'remove_attendees') ?? [];
  const guests = read?.guests;
  const parts: string[] = [];
  if (
    remove.length > 0 ||
    (replace !== undefined && (guests === undefined || guests.some((g) => !replace.includes(g))))
  )
    parts.push('removes guests from an event (they are told)');
  if (args.recurrence !== undefined)
    parts.push("changes a recurring event's rule, which can end the series");
  if (splits(args, read))
    parts.push(
      'ends a recurring series before this occurrence and makes the rest a new series (its guests answer again; changes to single later occurrences are not carried over)',
    );
  // The event the patch goes to: the series for a change beyond this occurrence (update-tool.ts
  // updateEvent and splitSeries), which is what the read loaded (event-guests.ts).
  parts.push(...textAndSettingsLost(args, read ? (read.series ?? read.event) : undefined));
  return parts.length ? parts.join(' and ') : undefined;
}

/**
 * Whether the update splits a series (update-tool.ts splitSeries): "this and following" from an
 * occurrence ends the original series before it (its rule changed, whatever `recurrence` says) and
 * inserts the rest as a new series — a new event, whose guests are invited afresh, without the
 * answers they gave or the changes made to single occurrences. From the series' first occurrence
 * it changes the whole series instead (occurrencesBefore 0): known when the occurrence was meant
 * to start where the series does. Without a read: it may.
 */
function splits(args: Args, read: EventRead | undefined): boolean {
  if (args.scope !== 'this_and_following') return false;
  if (!read) return true;
  // The read loads the series for an occurrence changed beyond itself (event-guests.ts); an
  // event that is no occurrence is changed whole, or refused (requireScope).
  if (!read.series) return false;
  const at = (w: calendar_v3.Schema$EventDateTime | undefined | null) =>
    Date.parse(w?.dateTime ?? w?.date ?? '');
  const from = at(read.event.originalStartTime ?? read.event.start);
  return Number.isNaN(from) || from !== at(read.series.start);
}

/**
 * What the patch (patchFields, the reading the write sends) overwrites. Events: patch replaces
 * each field it names, arrays whole (Calendar API, "Partial update"; Events resource: summary,
 * description, location, reminders, attachments):
 * - a title, description or location whose old text the new one no longer holds (emptied or
 *   replaced; kept when the new text contains it whole, as "Board (moved to room 4)" keeps
 *   "Board" — but "Room 45" does not keep "Room 4", nor "PIN 12345" "PIN 1234": `holds`);
 * - reminders turned off (overrides [] with useDefault false) where the event had some — the
 *   event is still there, but nothing tells the user it starts — or the event's own reminders
 *   replaced by the calendar's defaults, which may be none (CalendarList defaultReminders, read
 *   by neither the check nor the write);
 * - Drive attachments the new list leaves out (the files stay in Drive, but are gone from the
 *   event its guests and the user open).
 * `existing` undefined: the read failed, and whatever the patch names may replace something.
 */
function textAndSettingsLost(args: Args, existing: Event | undefined): string[] {
  const { patch } = patchFields(args, existing ?? {});
  const parts: string[] = [];
  for (const [field, name] of TEXT) {
    const now = patch[field];
    if (typeof now !== 'string') continue;
    const before = existing === undefined ? undefined : (existing[field] ?? '').trim();
    // Kept when the new text holds the old (an empty old text, nothing to lose, is held by any).
    if (before !== undefined && holds(now, before)) continue;
    parts.push(now.trim() === '' ? `empties an event's ${name}` : `replaces an event's ${name}`);
  }
  const r = patch.reminders;
  if (r && !r.useDefault && (r.overrides ?? []).length === 0 && hadReminders(existing))
    parts.push("turns off an event's reminders");
  else if (r?.useDefault && hadOwnReminders(existing))
    parts.push("replaces an event's own reminders with the calendar's defaults (maybe none)");
  if (patch.attachments) {
    const kept = new Set(patch.attachments.map((a) => a.fileUrl));
    if (existing === undefined || (existing.attachments ?? []).some((a) => !kept.has(a.fileUrl)))
      parts.push('removes files attached to an event');
  }
  return parts;
}

const TEXT = [
  ['summary', 'title'],
  ['description', 'description'],
  ['location', 'location'],
] as const;

/**
 * Whether the event had reminders: its own, or the calendar's defaults (Events resource,
 * reminders.useDefault; an event read without the field has the defaults). Unknown (no read): yes.
 */
function hadReminders(e: Event | undefined): boolean {
  if (e === undefined || !e.reminders) return true;
  return e.reminders.useDefault !== false || (e.reminders.overrides ?? []).length > 0;
}

/** Whether the event had reminders of its own (overrides). Unknown (no read): yes. */
function hadOwnReminders(e: Event | undefined): boolean {
  return e === undefined || (e.reminders?.overrides ?? []).length > 0;
}

/** A letter, digit or combining mark: what a word or a number is made of. */
const WORDISH_END = /[\p{L}\p{N}\p{M}]$/u;
const WORDISH_START = /^[\p{L}\p{N}\p{M}]/u;

/**
 * Whether `now` holds `old` whole: somewhere it stands in `now` with no letter, digit or mark
 * run on to it either side. "Board (moved)" holds "Board", "Dial-in 555 0100." holds "Dial-in
 * 555 0100"; "Room 45" does not hold "Room 4", nor "Boardroom" "Board" — each replaces what the
 * event said. Two code units either side: a character outside the BMP is a surrogate pair.
 */
function holds(now: string, old: string): boolean {
  if (old === '') return true;
  for (let i = now.indexOf(old); i >= 0; i = now.indexOf(old, i + 1)) {
    const end = i + old.length;
    if (WORDISH_END.test(now.slice(Math.max(0, i - 2), i))) continue;
    if (WORDISH_START.test(now.slice(end, end + 2))) continue;
    return true;
  }
  return false;
}
