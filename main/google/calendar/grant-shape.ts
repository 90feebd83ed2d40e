import type { GrantShape } from '../../tools/types.js';
import { emails, optStrings, type Args } from './args.js';

/** Guests as the write tools read them (write-tools.ts, event-input.ts patchFields): bare, lowercased. */
const guests = (args: Args, key: string) => emails(optStrings(args, key), key) ?? [];

/**
 * What a grant on a calendar write reads (issue 27 item 1). A new event invites its attendees;
 * its title, times, text, place and Meet link are content. An update e-mails the guests it adds
 * and the ones it removes, and also the event's existing guests, whom its arguments do not name:
 * so under a scoped grant everything but the guest lists stays as approved (the same event, the
 * same changes).
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

const UPDATE: GrantShape = {
  recipientArgs: ['attendees', 'add_attendees', 'remove_attendees'],
  contentArgs: [],
  destinations: (args) => [
    ...guests(args, 'attendees'),
    ...guests(args, 'add_attendees'),
    ...guests(args, 'remove_attendees'),
  ],
};

export function calendarGrantShape(tool: string): GrantShape | undefined {
  if (tool === 'calendar_create_event') return CREATE;
  if (tool === 'calendar_update_event') return UPDATE;
  return undefined;
}
