import type { GrantShape } from '../../tools/types.js';
import { emails, optStrings, type Args } from './args.js';
import { argumentGuests, VERSION_ARGS } from './event-guests.js';

/** Guests as the write tools read them (write-tools.ts, event-input.ts patchFields): bare, lowercased. */
const guests = (args: Args, key: string) => emails(optStrings(args, key), key) ?? [];

/**
 * What a grant on a calendar write reads (issue 27 item 1). A new event invites its attendees;
 * its title, times, text, place and Meet link are content.
 */
const CREATE: GrantShape = {
  recipientArgs: ['attendees'],
  contentArgs: [
    'summary',
    'description',
    'location',
    'start',
    'end',
    'duration_minutes',
    'time_zone',
    'add_meet_link',
  ],
  destinations: (args) => guests(args, 'attendees'),
};

/** What the grant reads from the call's own read of the event (event-guests.ts). */
export interface EventReach {
  /** The event's guests as that read found them; throws when there was none. */
  guests(args: Args): string[];
  /** The account the call writes as. */
  self(args: Args): string;
}

/**
 * Whom a change reaches: the guests, or — an event without any — the user alone. Then a grant
 * still has someone to hold to ("only while it reaches you"), and asks once a guest is on it.
 */
function reached(people: string[], args: Args, event: EventReach): string[] {
  const all = [...new Set(people)];
  return all.length ? all : [event.self(args).toLowerCase()];
}

/**
 * An update reaches the guests it adds and removes and also the event's existing guests, whom its
 * arguments do not name: their copy of the event changes, and Google e-mails them about it
 * (docs/calendar.md "Invitations and approvals"). So the recipients come from state (recipientsFromState,
 * main/approvals/grant-scope.ts part 3): a `domain` grant checks every one of them, and an
 * `equals` grant covers a later call only while each is one the approved call reached. Whatever
 * `send_updates` says: "none" stops the e-mail, not the change on the guests' calendars.
 * Everything but the guest lists stays as approved (the same event, the same changes).
 */
function updateShape(event: EventReach): GrantShape {
  return {
    recipientArgs: ['attendees', 'add_attendees', 'remove_attendees'],
    // The version may differ under a grant (its own run changes it): the guests are what is checked.
    contentArgs: [...VERSION_ARGS],
    recipientsFromState: true,
    destinations: (args) => reached([...event.guests(args), ...argumentGuests(args)], args, event),
  };
}

/**
 * A delete cancels the event for every guest (Google e-mails them the cancellation unless
 * send_updates is "none", and it leaves their calendars either way). No argument names a guest,
 * so there is no domain grant; an `equals` grant (on event_id, say) covers a later delete only
 * while the event's guests are among those of the delete the user approved (a recurring
 * occurrence, or a series deleted from one occurrence on).
 */
function deleteShape(event: EventReach): GrantShape {
  return {
    recipientArgs: [],
    contentArgs: [...VERSION_ARGS],
    recipientsFromState: true,
    destinations: (args) => reached(event.guests(args), args, event),
  };
}

export function calendarGrantShape(tool: string, event: EventReach): GrantShape | undefined {
  if (tool === 'calendar_create_event') return CREATE;
  if (tool === 'calendar_update_event') return updateShape(event);
  if (tool === 'calendar_delete_event') return deleteShape(event);
  return undefined;
}
