import type { calendar_v3 } from '@googleapis/calendar';
import type { CallContent } from '../../tools/types.js';
import { emails, optStrings, type Args } from './args.js';
import type { CallCtx } from './context.js';
import { loadEvent } from './write-tools.js';

type Event = calendar_v3.Schema$Event;

/**
 * The writes that reach the event's existing guests: an update, a cancellation, and an answer to
 * an invitation (respond patches the guest list, and the organizer — and the guests who see the
 * list — get the answer and its `comment`, whatever `send_updates` says: it stops the e-mail, not
 * the change to their copy of the event).
 */
export const TELLS_GUESTS = new Set([
  'calendar_update_event',
  'calendar_delete_event',
  'calendar_respond',
]);

/**
 * Whom a Calendar write reaches beyond its arguments: the event's guests as Google holds them now
 * (issue 33 item 2, the Calendar side). An update or a delete changes the event every guest holds,
 * and Google e-mails them about it (Events: patch / delete, `sendUpdates`); the arguments name at
 * most the guests added or removed. The event is read just before the taint check and a grant
 * decide (CalendarSource.callContent); the grant shape (grant-shape.ts) then checks the guests of
 * that read. One read per call: the entry is dropped before the read, so a read that fails or is
 * late leaves nothing, and a grant has no guests to check — the call asks.
 */
export class EventGuests {
  private readonly reads = new Map<string, string[]>();

  /** Reads the event (and, for a change to its series, the series) and remembers its guests. */
  async read(c: CallCtx, args: Args): Promise<string[]> {
    const key = keyOf(c.account, args);
    this.forget(c.account, args);
    const calendarId = typeof args.calendar_id === 'string' ? args.calendar_id : 'primary';
    const ev = await loadEvent(c, calendarId, String(args.event_id ?? ''));
    // A change to more than this occurrence goes to the series (update-tool.ts, write-tools.ts),
    // whose guest list may differ from this occurrence's: both count.
    const series =
      ev.recurringEventId && args.scope !== 'this_instance'
        ? [await loadEvent(c, calendarId, ev.recurringEventId)]
        : [];
    const guests = [...new Set([ev, ...series].flatMap(guestsOf))].sort();
    this.reads.set(key, guests);
    // Bounded: the read is used by the checks of the same call, moments later.
    if (this.reads.size > 500) this.reads.delete(this.reads.keys().next().value!);
    return guests;
  }

  /** Drops an earlier call's read, first thing, so only this call's own read can count. */
  forget(account: string, args: Args): void {
    this.reads.delete(keyOf(account, args));
  }

  /** The guests the call's own read found; throws when there was none (the call then asks). */
  guests(account: string, args: Args): string[] {
    const g = this.reads.get(keyOf(account, args));
    if (!g) throw new Error('the event was not read before the check');
    return g;
  }
}

/**
 * Everyone on the event but the user: each attendee (resources too) and an organiser who is not
 * the user (a guest allowed to modify the event changes it for the organiser as well).
 */
function guestsOf(e: Event): string[] {
  const people = [
    ...(e.attendees ?? []).filter((a) => !a.self).map((a) => a.email),
    ...(e.organizer && !e.organizer.self ? [e.organizer.email] : []),
  ];
  return people.flatMap((a) => (a ? [a.trim().toLowerCase()] : []));
}

function keyOf(account: string, args: Args): string {
  return JSON.stringify([
    account.toLowerCase(),
    typeof args.calendar_id === 'string' ? args.calendar_id : 'primary',
    String(args.event_id ?? ''),
    typeof args.scope === 'string' ? args.scope : '',
  ]);
}

/** The guests an update names in its arguments, read as the write tools read them. */
export function argumentGuests(args: Args): string[] {
  const g = (key: string) => emails(optStrings(args, key), key) ?? [];
  return [...g('attendees'), ...g('add_attendees'), ...g('remove_attendees')];
}

/** The call as the taint check reads it: every guest it reaches, in `attendees`. */
export function guestContent(args: Args, existing: string[]): CallContent {
  let named: string[] = [];
  try {
    named = argumentGuests(args);
  } catch {
    // Refused by validateArgs before it runs; the existing guests still count.
  }
  return { args: { ...args, attendees: [...new Set([...existing, ...named])] } };
}
