import type { calendar_v3 } from '@googleapis/calendar';
import type { CallContent } from '../../tools/types.js';
import { calendarIdOf, emails, guestKey, optStrings, reqString, type Args } from './args.js';
import type { CallCtx } from './context.js';
import { shownContent } from './event-shown.js';
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

/** The version of the event (and of its series) a call is bound to: Google's etags. */
export const VERSION_ARGS = ['event_etag', 'series_etag'] as const;

/**
 * The writes bound to the version their checks read. calendar_respond is not: it has no grant
 * shape, so a scoped grant on it holds every argument as approved, and a version among them would
 * stop it at the event's first change (its own answer changes the event).
 */
export const BOUND_TOOLS = new Set(['calendar_update_event', 'calendar_delete_event']);

/** What one read before the checks found: the event, its series when the write reaches it, and their guests. */
export interface EventRead {
  event: Event;
  series?: Event;
  guests: string[];
}

/**
 * Whom a Calendar write reaches beyond its arguments: the event's guests as Google holds them
 * (issue 33 item 2, the Calendar side). An update or a delete changes the event every guest holds,
 * and Google e-mails them about it (Events: patch / delete, `sendUpdates`); the arguments name at
 * most the guests added or removed. The event is read just before the taint check and a grant
 * decide (CalendarSource.callContent), and an update or delete is bound to the version read: its
 * etags (`event_etag`, `series_etag`; CallContent.bind), which the write then sends as If-Match,
 * so it changes that version or nothing (event-version.ts). Their reads are kept by version, so
 * the grant shape (grant-shape.ts) and the card (effects.ts) of each call find the read of the
 * version that call is bound to — never another call's read of the same event, made before it
 * changed or after. A call bound to no version (its read failed or was late) finds none: a grant
 * has no guests to check, and the call asks. A respond's read (not bound) is kept by event; it is
 * dropped before the read, so a read that fails or is late leaves no earlier one behind.
 */
export class EventGuests {
  private readonly reads = new Map<string, EventRead>();

  /** Reads the event (and, for a change to its series, the series) and keeps the read. */
  async read(c: CallCtx, tool: string, args: Args): Promise<EventRead> {
    const bound = BOUND_TOOLS.has(tool);
    this.forget(tool, c.account, args);
    // Read as the write reads them (update-tool.ts, write-tools.ts), or the two act on different events.
    const calendarId = calendarIdOf(args);
    const ev = await loadEvent(c, calendarId, reqString(args, 'event_id'));
    // A change to more than this occurrence goes to the series (update-tool.ts, write-tools.ts),
    // whose guest list may differ from this occurrence's: both count.
    const series =
      ev.recurringEventId && args.scope !== 'this_instance'
        ? await loadEvent(c, calendarId, ev.recurringEventId)
        : undefined;
    const guests = [...new Set([ev, ...(series ? [series] : [])].flatMap(guestsOf))].sort();
    const read: EventRead = { event: ev, ...(series ? { series } : {}), guests };
    const version = bound ? versionOf(read) : {};
    if (version) {
      this.reads.set(keyOf(c.account, { ...args, ...version }, bound), read);
      // Bounded: a read is used by its call's checks and card, moments later.
      if (this.reads.size > 500) this.reads.delete(this.reads.keys().next().value!);
    }
    return read;
  }

  /**
   * Drops an earlier respond's read of the event (kept by event, not by version), so only this
   * call's own read can count: called before anything that waits (CalendarSource.callContent),
   * so a read that fails or is late — before it reaches Google too — leaves none behind.
   */
  forget(tool: string, account: string, args: Args): void {
    if (!BOUND_TOOLS.has(tool)) this.reads.delete(keyOf(account, args, false));
  }

  /** The read this call's checks made: of the version it is bound to (update, delete). */
  find(tool: string, account: string, args: Args): EventRead | undefined {
    const bound = BOUND_TOOLS.has(tool);
    if (bound && typeof args.event_etag !== 'string') return undefined;
    return this.reads.get(keyOf(account, args, bound));
  }

  /** The guests of that read; throws when there is none (the call then asks). */
  guests(tool: string, account: string, args: Args): string[] {
    const r = this.find(tool, account, args);
    if (!r) throw new Error('the event was not read before the check');
    return r.guests;
  }
}

/** The etags a read binds its call to, or undefined when Google gave none (nothing is bound). */
export function versionOf(r: EventRead): Record<string, string> | undefined {
  if (!r.event.etag || (r.series && !r.series.etag)) return undefined;
  return { event_etag: r.event.etag, ...(r.series ? { series_etag: r.series.etag! } : {}) };
}

/**
 * Everyone on the event but the user: each attendee (resources too) and an organiser who is not
 * the user (a guest allowed to modify the event changes it for the organiser as well).
 */
export function guestsOf(e: Event): string[] {
  const people = [
    ...(e.attendees ?? []).filter((a) => !a.self).map((a) => a.email),
    ...(e.organizer && !e.organizer.self ? [e.organizer.email] : []),
  ];
  // In the form Airlock sends and compares guests in (args.ts guestKey).
  return people.flatMap((a) => (a ? [guestKey(a)] : []));
}

function keyOf(account: string, args: Args, versioned: boolean): string {
  const tag = (k: string) => (typeof args[k] === 'string' ? args[k] : '');
  return JSON.stringify([
    account.toLowerCase(),
    calendarIdOf(args),
    String(args.event_id ?? ''),
    typeof args.scope === 'string' ? args.scope : '',
    versioned ? VERSION_ARGS.map(tag) : 'unversioned',
  ]);
}

/** The guests an update names in its arguments, read as the write tools read them. */
export function argumentGuests(args: Args): string[] {
  const g = (key: string) => emails(optStrings(args, key), key) ?? [];
  return [...g('attendees'), ...g('add_attendees'), ...g('remove_attendees')];
}

/**
 * The call as the taint check reads it: every guest it reaches, in `attendees`; what it shows
 * them (event-shown.ts); and, for an update or delete, the version it is bound to (its etags).
 */
export function guestContent(tool: string, args: Args, read: EventRead): CallContent {
  let named: string[] = [];
  try {
    named = argumentGuests(args);
  } catch {
    // Refused by validateArgs before it runs; the existing guests still count.
  }
  const version = BOUND_TOOLS.has(tool) ? versionOf(read) : undefined;
  return {
    args: { ...args, attendees: [...new Set([...read.guests, ...named])] },
    ...shownContent(args, read.guests.length > 0 || named.length > 0),
    ...(version ? { bind: version } : {}),
  };
}
