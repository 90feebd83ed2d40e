import type { calendar_v3 } from '@googleapis/calendar';
import type { DateTime } from 'luxon';
import type { JsonSchema } from '../../tools/types.js';
import { optString, type Args } from './args.js';
import { InputError } from './errors.js';

/**
 * Reminders, colours, out-of-office and focus-time events and Drive
 * attachments (issue 33 item 5), after the Events resource
 * (developers.google.com/calendar/api/v3/reference/events) and the guide
 * "Manage focus time, out of office, and working location events"
 * (developers.google.com/calendar/api/guides/calendar-status).
 */

type Event = calendar_v3.Schema$Event;

/** Google's event colour palette (colors.get "event": ids 1–11), by the names Calendar shows. */
export const COLORS = [
  'lavender',
  'sage',
  'grape',
  'flamingo',
  'banana',
  'tangerine',
  'peacock',
  'graphite',
  'blueberry',
  'basil',
  'tomato',
] as const;

/** "Reminders: Maximum number of override reminders is 5"; minutes 0–40320 (four weeks). */
export const MAX_REMINDERS = 5;
export const MAX_REMINDER_MINUTES = 40320;
/** "You can have a maximum of 25 attachments per event." */
export const MAX_ATTACHMENTS = 25;

const DECLINE: Record<string, string> = {
  none: 'declineNone',
  all_conflicting: 'declineAllConflictingInvitations',
  new_conflicting: 'declineOnlyNewConflictingInvitations',
};

/**
 * Google's autoDeclineMode for an out-of-office or focus-time event's `auto_decline` (absent:
 * none), or undefined for a value it does not take: the reading the event body is built with.
 */
export function autoDeclineMode(args: Args): string | undefined {
  return DECLINE[optString(args, 'auto_decline') ?? 'none'];
}

export function extraProps(create: boolean): Record<string, JsonSchema> {
  const props: Record<string, JsonSchema> = {
    reminders: {
      anyOf: [
        { type: 'string', enum: ['default'] },
        {
          type: 'array',
          maxItems: MAX_REMINDERS,
          items: {
            type: 'object',
            properties: {
              method: { type: 'string', enum: ['popup', 'email'] },
              minutes: { type: 'integer', minimum: 0, maximum: MAX_REMINDER_MINUTES },
            },
            required: ['method', 'minutes'],
            additionalProperties: false,
          },
        },
      ],
      description: `"default" for the calendar's own reminders, or up to ${MAX_REMINDERS} of {method: popup|email, minutes before the start} ([] for none). For an all-day event, minutes count back from midnight of its first day in the calendar's time zone.`,
    },
    color: {
      type: 'string',
      enum: [...COLORS],
      description: 'Event colour, as Google Calendar names it.',
    },
    attachments: {
      type: 'array',
      maxItems: MAX_ATTACHMENTS,
      items: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            description: 'A Google Drive link (drive.google.com or docs.google.com).',
          },
          title: { type: 'string' },
        },
        required: ['url'],
        additionalProperties: false,
      },
      description: `Google Drive files to attach (up to ${MAX_ATTACHMENTS}; an update replaces the list). Guests see the links; sharing the files is separate.`,
    },
  };
  if (create) {
    props.event_type = {
      type: 'string',
      enum: ['default', 'out_of_office', 'focus_time'],
      description:
        'out_of_office or focus_time make a status event on the primary calendar: timed (not all-day), without guests or Meet link.',
    };
    props.auto_decline = {
      type: 'string',
      enum: Object.keys(DECLINE),
      description:
        'For out_of_office / focus_time: decline meeting invitations in that time — none (default), all_conflicting (existing and new: their organizers are told), new_conflicting.',
    };
    props.decline_message = {
      type: 'string',
      description: 'Message sent with automatic declines.',
    };
    props.chat_status = {
      type: 'string',
      enum: ['available', 'do_not_disturb'],
      description: 'For focus_time: the status shown in Google Chat.',
    };
  }
  return props;
}

export interface Extras {
  /** Fields for the event body (insert) or patch. */
  body: Event;
  /** Drive attachments need supportsAttachments=true on the request (Events: insert/patch). */
  supportsAttachments: boolean;
}

function reminders(v: unknown): Event['reminders'] | undefined {
  if (v === undefined || v === null) return undefined;
  if (v === 'default') return { useDefault: true };
  if (!Array.isArray(v)) throw new InputError('reminders must be "default" or a list.');
  if (v.length > MAX_REMINDERS) throw new InputError(`reminders: at most ${MAX_REMINDERS}.`);
  const overrides = v.map((r: unknown, i) => {
    const o = (r ?? {}) as { method?: unknown; minutes?: unknown };
    if (o.method !== 'popup' && o.method !== 'email')
      throw new InputError(`reminders[${i}].method must be "popup" or "email".`);
    const m = o.minutes;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 0 || m > MAX_REMINDER_MINUTES)
      throw new InputError(
        `reminders[${i}].minutes must be a whole number from 0 to ${MAX_REMINDER_MINUTES}.`,
      );
    return { method: o.method, minutes: m };
  });
  // "useDefault … and overrides" cannot both be set (Google answers 400).
  return { useDefault: false, overrides };
}

function attachments(v: unknown): Event['attachments'] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw new InputError('attachments must be a list.');
  if (v.length > MAX_ATTACHMENTS) throw new InputError(`attachments: at most ${MAX_ATTACHMENTS}.`);
  return v.map((a: unknown, i) => {
    const o = (a ?? {}) as { url?: unknown; title?: unknown };
    let url: URL;
    try {
      url = new URL(String(o.url));
    } catch {
      throw new InputError(`attachments[${i}].url is not a link.`);
    }
    if (url.protocol !== 'https:' || !/^(drive|docs)\.google\.com$/.test(url.hostname))
      throw new InputError(
        `attachments[${i}].url must be a Google Drive link (https://drive.google.com/… or https://docs.google.com/…).`,
      );
    return {
      fileUrl: url.href,
      ...(typeof o.title === 'string' && o.title ? { title: o.title } : {}),
    };
  });
}

/**
 * The extra fields as Google takes them. `event` says what kind of event they
 * go on (all-day, calendar, guests), to refuse what Google would.
 */
export function extrasOf(
  args: Args,
  event: { allDay: boolean; calendarId: string; guests: number; meet: boolean; create: boolean },
): Extras {
  const body: Event = {};
  const r = reminders(args.reminders);
  if (r) body.reminders = r;
  const color = optString(args, 'color');
  if (color) {
    const i = (COLORS as readonly string[]).indexOf(color.toLowerCase());
    if (i < 0) throw new InputError(`color must be one of: ${COLORS.join(', ')}.`);
    body.colorId = String(i + 1);
  }
  const att = attachments(args.attachments);
  if (att) body.attachments = att;
  const type = event.create ? (optString(args, 'event_type') ?? 'default') : 'default';
  if (type !== 'default') {
    const what = type === 'out_of_office' ? 'An out-of-office event' : 'A focus-time event';
    if (event.calendarId !== 'primary')
      throw new InputError(`${what} can only be on the primary calendar (leave calendar_id out).`);
    if (event.allDay) throw new InputError(`${what} cannot be all-day: give start and end times.`);
    if (event.guests || event.meet) throw new InputError(`${what} has no guests or Meet link.`);
    const mode = autoDeclineMode(args);
    if (!mode)
      throw new InputError(`auto_decline must be one of: ${Object.keys(DECLINE).join(', ')}.`);
    const message = optString(args, 'decline_message');
    const props = { autoDeclineMode: mode, ...(message ? { declineMessage: message } : {}) };
    if (type === 'out_of_office') {
      body.eventType = 'outOfOffice';
      body.outOfOfficeProperties = props;
    } else if (type === 'focus_time') {
      const chat = optString(args, 'chat_status');
      body.eventType = 'focusTime';
      body.focusTimeProperties = {
        ...props,
        ...(chat ? { chatStatus: chat === 'do_not_disturb' ? 'doNotDisturb' : 'available' } : {}),
      };
    } else throw new InputError('event_type must be default, out_of_office or focus_time.');
    body.transparency = 'opaque';
  } else if (
    event.create &&
    (args.auto_decline ?? args.decline_message ?? args.chat_status) !== undefined
  ) {
    throw new InputError(
      'auto_decline, decline_message and chat_status are for out_of_office or focus_time events.',
    );
  }
  return { body, supportsAttachments: att !== undefined };
}

/** "popup 10 min before (Tue 10 Mar 09:50)": when a reminder fires, in the event's zone. */
export function reminderWords(
  r: Event['reminders'] | null | undefined,
  startAt: DateTime | undefined,
): string {
  if (!r) return '';
  if (r.useDefault) return "the calendar's default reminders";
  const list = r.overrides ?? [];
  if (list.length === 0) return 'no reminders';
  return list
    .map((o) => {
      const m = o.minutes ?? 0;
      const at = startAt ? ` (${startAt.minus({ minutes: m }).toFormat('ccc d LLL HH:mm')})` : '';
      return `${o.method} ${m} min before${at}`;
    })
    .join(', ');
}

export function colorName(id: string | null | undefined): string | undefined {
  const n = Number(id);
  return Number.isInteger(n) && n >= 1 && n <= COLORS.length ? COLORS[n - 1] : undefined;
}

/** What the extras do, in words, for the approval and the result. */
export function extrasWords(body: Event, startAt: DateTime | undefined): string[] {
  const out: string[] = [];
  if (body.eventType === 'outOfOffice' || body.eventType === 'focusTime') {
    const props = body.outOfOfficeProperties ?? body.focusTimeProperties ?? {};
    const decline = {
      declineNone: 'invitations in that time are not declined',
      declineAllConflictingInvitations:
        'existing and new invitations in that time are DECLINED (their organizers are told)',
      declineOnlyNewConflictingInvitations:
        'new invitations in that time are DECLINED (their organizers are told)',
    }[props.autoDeclineMode ?? 'declineNone'];
    out.push(`${body.eventType === 'outOfOffice' ? 'out of office' : 'focus time'}: ${decline}`);
    if (body.focusTimeProperties?.chatStatus === 'doNotDisturb')
      out.push('Chat set to do not disturb');
  }
  if (body.reminders) out.push(`reminders: ${reminderWords(body.reminders, startAt)}`);
  if (body.colorId) out.push(`colour ${colorName(body.colorId) ?? body.colorId}`);
  if (body.attachments)
    out.push(
      body.attachments.length
        ? `attachments: ${body.attachments.map((a) => a.title ?? a.fileUrl).join(', ')}`
        : 'no attachments',
    );
  return out;
}
