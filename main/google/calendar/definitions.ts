import type { JsonSchema, ToolAnnotations, ToolDefinition } from '../../tools/types.js';
import { spanningAccountProp } from '../spanning.js';
import { SCOPES, SEND_UPDATES } from './args.js';
import { extraProps } from './event-extras.js';

/** Reads whose `account` may be a list or "all" (spanning.ts, issue 33 item 6). */
const SPANNING_TOOLS = new Set(['calendar_list_events', 'calendar_freebusy']);

export const READ_TOOLS = [
  'calendar_list_calendars',
  'calendar_list_events',
  'calendar_get_event',
  'calendar_freebusy',
  'calendar_find_free_time',
] as const;
export const WRITE_TOOLS = [
  'calendar_create_event',
  'calendar_update_event',
  'calendar_delete_event',
  'calendar_respond',
] as const;

const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};
const write = (destructive: boolean, idempotent: boolean): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: true,
});

const TIME_HELP =
  'A date "2026-03-10", a local time "2026-03-10T09:30" (read in time_zone, else in the calendar\'s own time zone; ' +
  'DST-safe) or a time with an offset "2026-03-10T09:30:00-05:00".';
const str = (description: string): JsonSchema => ({ type: 'string', description });
const zone = str(
  'IANA time zone name such as "Europe/Berlin". Times without an offset are read in it and results are shown in it. Default: the calendar\'s own time zone.',
);
const calendarId = str('Calendar id from calendar_list_calendars; default "primary".');
const eventId = str(
  'Event id as returned by calendar_list_events (an instance of a recurring series has its own id).',
);
const sendUpdates = (dflt: string): JsonSchema => ({
  type: 'string',
  enum: [...SEND_UPDATES],
  description: `Who gets e-mailed about this: all guests, externalOnly (guests outside your domain) or none. Default: ${dflt}.`,
});
const scope = (what: string): JsonSchema => ({
  type: 'string',
  enum: [...SCOPES],
  description: `For a recurring event: ${what} this_instance (only the given occurrence), this_and_following (it and every later one) or all (the whole series). Required for recurring events.`,
});
const strings = (description: string): JsonSchema => ({
  type: 'array',
  items: { type: 'string' },
  description,
});

function obj(
  properties: Record<string, JsonSchema>,
  required: string[],
  accounts: string[],
  spanning = false,
): JsonSchema {
  const props = { ...properties };
  if (accounts.length > 0) {
    props.account = spanning
      ? spanningAccountProp(
          accounts,
          "each account's primary calendar, every item naming its account",
        )
      : {
          type: 'string',
          enum: accounts,
          description: `Google account to use; default ${accounts[0]}.`,
        };
  }
  return { type: 'object', properties: props, required, additionalProperties: false };
}

/** The calendar tools offered for these accounts; write tools only for accounts that may write (issue 7). */
export function definitions(read: string[], writable: string[]): ToolDefinition[] {
  if (read.length === 0) return [];
  const ro = (
    name: string,
    title: string,
    description: string,
    props: Record<string, JsonSchema>,
    required: string[] = [],
  ): ToolDefinition => ({
    name,
    title,
    description,
    inputSchema: obj(props, required, read, SPANNING_TOOLS.has(name)),
    annotations: READ,
    trustedReadOnly: true,
  });
  const defs: ToolDefinition[] = [
    ro(
      'calendar_list_calendars',
      'List calendars',
      'Lists the calendars of the Google account: id, name, time zone and your access role. Read-only.',
      {},
    ),
    ro(
      'calendar_list_events',
      'List calendar events',
      'Lists events from one or more calendars between time_min and time_max (default: now to 7 days from now), recurring series expanded into their occurrences, ordered by start. ' +
        "All-day events are shown as dates (end = last day, inclusive); timed events with their UTC offset in the calendar's time zone (or time_zone). Read-only.",
      {
        calendar_ids: strings('Calendar ids; default ["primary"].'),
        time_min: str(`Start of the range. ${TIME_HELP} Default: now.`),
        time_max: str(`End of the range. ${TIME_HELP} Default: 7 days after time_min.`),
        query: str('Free-text search in title, description, location and attendees.'),
        max_results: {
          type: 'integer',
          minimum: 1,
          maximum: 250,
          description: 'Per calendar; default 50.',
        },
        page_token: str('next_page_token from a previous call with the same arguments.'),
        time_zone: zone,
      },
    ),
    ro(
      'calendar_get_event',
      'Get a calendar event',
      'Shows one event in full: times, attendees and their responses, description, location, Meet link, recurrence. Read-only.',
      {
        event_id: eventId,
        calendar_id: calendarId,
        time_zone: zone,
      },
      ['event_id'],
    ),
    ro(
      'calendar_freebusy',
      'Free/busy',
      'Busy periods of calendars or people (e-mail addresses) in a time range, without event details. Read-only.',
      {
        calendars: strings('Calendar ids or e-mail addresses; default ["primary"].'),
        time_min: str(`${TIME_HELP} Default: now.`),
        time_max: str(`${TIME_HELP} Default: 7 days after time_min.`),
        time_zone: zone,
      },
    ),
    ro(
      'calendar_find_free_time',
      'Find free time',
      'Finds windows of at least duration_minutes when you and the given attendees are all free, within working hours on working days, in a time range (default: the next 7 days). Read-only.',
      {
        duration_minutes: {
          type: 'integer',
          minimum: 5,
          maximum: 1440,
          description: 'Length of the meeting.',
        },
        attendees: strings(
          'E-mail addresses whose free/busy to include (besides your own calendars).',
        ),
        calendar_ids: strings('Your calendars to treat as busy; default ["primary"].'),
        time_min: str(`${TIME_HELP} Default: now.`),
        time_max: str(`${TIME_HELP} Default: 7 days after time_min.`),
        working_hours: {
          type: 'object',
          properties: { start: str('"09:00"'), end: str('"17:00" (up to "24:00")') },
          additionalProperties: false,
          description: 'Local working hours in time_zone; default 09:00–17:00.',
        },
        working_days: {
          type: 'array',
          items: { type: 'integer', minimum: 1, maximum: 7 },
          description: 'ISO weekdays (1 = Monday … 7 = Sunday); default Monday–Friday.',
        },
        max_results: {
          type: 'integer',
          minimum: 1,
          maximum: 50,
          description: 'Most windows to return; default 10.',
        },
        time_zone: str(
          "IANA time zone for working hours and results; default the primary calendar's.",
        ),
      },
      ['duration_minutes'],
    ),
  ];
  if (writable.length === 0) return defs;
  const w = (
    name: string,
    title: string,
    description: string,
    annotations: ToolAnnotations,
    props: Record<string, JsonSchema>,
    required: string[],
  ): ToolDefinition => ({
    name,
    title,
    description,
    inputSchema: obj(props, required, writable),
    annotations,
  });
  const eventFields: Record<string, JsonSchema> = {
    summary: str('Title.'),
    start: str(`${TIME_HELP} A date makes an all-day event.`),
    end: str(
      'Same form as start. For all-day events the last day (inclusive); default the start day. For timed events give end or duration_minutes.',
    ),
    duration_minutes: {
      type: 'integer',
      minimum: 1,
      maximum: 20160,
      description: 'Instead of end, for timed events.',
    },
    time_zone: zone,
    description: str('Description (plain text).'),
    location: str('Location.'),
    add_meet_link: { type: 'boolean', description: 'Attach a new Google Meet link.' },
    calendar_id: calendarId,
  };
  defs.push(
    w(
      'calendar_create_event',
      'Create calendar event',
      'Creates an event. Attendees receive the invitation e-mail IMMEDIATELY when it is created (unless send_updates is "none"). ' +
        'Warns when it overlaps another event on the same calendar. Asks the user first.',
      write(false, false),
      {
        ...eventFields,
        ...extraProps(true),
        attendees: strings("Guests' e-mail addresses; they are invited at once."),
        recurrence: strings('RFC 5545 lines, e.g. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10"].'),
        send_updates: sendUpdates('all'),
      },
      ['summary', 'start'],
    ),
    w(
      'calendar_update_event',
      'Update calendar event',
      'Changes only the fields you give (patch). For a recurring event, scope chooses this instance, this and following (splits the series), or the whole series. ' +
        'Guests are e-mailed about the change per send_updates. Asks the user first.',
      write(true, false),
      {
        event_id: eventId,
        scope: scope('change'),
        ...eventFields,
        ...extraProps(false),
        attendees: strings('Replaces the whole guest list.'),
        add_attendees: strings('Guests to add (invited at once).'),
        remove_attendees: strings('Guests to remove.'),
        recurrence: strings('New RFC 5545 recurrence lines (series only).'),
        send_updates: sendUpdates('all'),
      },
      ['event_id'],
    ),
    w(
      'calendar_delete_event',
      'Delete calendar event',
      'Deletes an event (for a recurring event: this instance, this and following, or the whole series). Guests are told per send_updates. Asks the user first.',
      write(true, true),
      {
        event_id: eventId,
        scope: scope('delete'),
        calendar_id: calendarId,
        send_updates: sendUpdates('all'),
      },
      ['event_id'],
    ),
    w(
      'calendar_respond',
      'Respond to invitation',
      'Accepts, declines or tentatively accepts an invitation you received; the organizer is told per send_updates. Asks the user first.',
      write(false, true),
      {
        event_id: eventId,
        response: { type: 'string', enum: ['accept', 'decline', 'tentative'] },
        comment: str('Optional note to the organizer.'),
        scope: {
          type: 'string',
          enum: ['this_instance', 'all'],
          description:
            'For a recurring event: this_instance or all. Required for recurring events.',
        },
        calendar_id: calendarId,
        send_updates: sendUpdates('all'),
      },
      ['event_id', 'response'],
    ),
  );
  return defs;
}
