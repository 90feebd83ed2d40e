import type { calendar_v3 } from '@googleapis/calendar';
import type { DateTime } from 'luxon';
import type { CallToolResult } from '../../tools/types.js';
import {
  calendarIdOf,
  emails,
  optBool,
  optEnum,
  optString,
  optStrings,
  reqString,
  SCOPES,
  SEND_UPDATES,
  type Args,
  type SendUpdates,
  type SeriesScope,
} from './args.js';
import { zoneArg, zoneOf, type CallCtx } from './context.js';
import { extrasOf, extrasWords } from './event-extras.js';
import { eventTimes, meetRequest } from './event-input.js';
import { InputError } from './errors.js';
import { checkBound, writeOptions } from './event-version.js';
import { checkRecurrence, endBefore, occurrencesBefore } from './recurrence.js';
import { eventView, textResult, whenText } from './render.js';
import { iso } from './time.js';

type Event = calendar_v3.Schema$Event;

export async function loadEvent(c: CallCtx, calendarId: string, eventId: string): Promise<Event> {
  return (await c.api.events.get({ calendarId, eventId }, c.opts)).data;
}

export function sendUpdatesArg(args: Args): SendUpdates {
  return optEnum(args, 'send_updates', SEND_UPDATES) ?? 'all';
}

/**
 * For a recurring event the agent must say which occurrences it means — the
 * classic bug is one instance edited as the whole series (issue 7).
 */
export function requireScope(
  ev: Event,
  requested: SeriesScope | undefined,
  allowed: readonly SeriesScope[] = SCOPES,
): SeriesScope | 'single' {
  const isMaster = Boolean(ev.recurrence?.length);
  if (!ev.recurringEventId && !isMaster) return 'single';
  if (!requested) {
    throw new InputError(
      `"${ev.summary ?? ev.id}" is part of a recurring series. Say which occurrences you mean with scope: ${allowed.map((s) => `"${s}"`).join(', ')}.`,
    );
  }
  if (!allowed.includes(requested))
    throw new InputError(`scope must be one of: ${allowed.join(', ')}.`);
  if (isMaster && requested !== 'all') {
    throw new InputError(
      "event_id names the whole series. For one occurrence (or it and the following ones) pass that occurrence's id from calendar_list_events.",
    );
  }
  return requested;
}

export interface Overlap {
  id: string;
  summary: string;
  when: string;
}

/**
 * Busy events on the same calendar that overlap [start, end). Events shown as
 * free, cancelled ones and ones the user declined do not block time.
 */
export async function findOverlaps(
  c: CallCtx,
  calendarId: string,
  start: DateTime,
  end: DateTime,
  zone: string,
  exclude: string[] = [],
): Promise<Overlap[]> {
  const res = await c.api.events.list(
    {
      calendarId,
      timeMin: iso(start),
      timeMax: iso(end),
      singleEvents: true,
      orderBy: 'startTime',
      maxResults: 20,
    },
    c.opts,
  );
  return (res.data.items ?? [])
    .filter((e) => e.status !== 'cancelled' && e.transparency !== 'transparent')
    .filter((e) => !(e.attendees ?? []).some((a) => a.self && a.responseStatus === 'declined'))
    .filter((e) => !exclude.includes(e.id ?? '') && !exclude.includes(e.recurringEventId ?? ''))
    .map((e) => ({
      id: e.id ?? '',
      summary: e.summary ?? '(no title)',
      when: whenText(e, zone, c.now),
    }));
}

export function overlapText(overlaps: Overlap[]): string {
  return `Warning: overlaps ${overlaps.map((o) => `"${o.summary}" (${o.when})`).join(', ')} on the same calendar.`;
}

export function invitationText(count: number, send: SendUpdates, verb = 'Invitations'): string {
  if (count === 0) return '';
  if (send === 'none') return `${count} guest(s); no e-mail was sent.`;
  return `${verb} e-mailed to ${send === 'externalOnly' ? 'guests outside your domain among the ' : ''}${count} guest(s).`;
}

export async function createEvent(c: CallCtx, args: Args): Promise<CallToolResult> {
  const summary = reqString(args, 'summary');
  const calendarId = calendarIdOf(args);
  const zone = zoneArg(args) ?? (await zoneOf(c, calendarId));
  const times = eventTimes(args, zone, { allDayDays: 1 });
  const attendees = emails(optStrings(args, 'attendees'), 'attendees') ?? [];
  const recurrence = checkRecurrence(optStrings(args, 'recurrence'));
  const send = sendUpdatesArg(args);
  const meet = optBool(args, 'add_meet_link') === true;
  let overlaps: Overlap[] = [];
  let overlapNote = '';
  try {
    overlaps = await findOverlaps(c, calendarId, times.startAt, times.endAt, zone);
  } catch {
    overlapNote = 'Airlock could not check this calendar for overlapping events.';
  }
  const extras = extrasOf(args, {
    allDay: times.allDay,
    calendarId,
    guests: attendees.length,
    meet,
    create: true,
  });
  const body: Event = {
    ...extras.body,
    summary,
    start: times.start,
    end: times.end,
    ...(typeof args.description === 'string' ? { description: args.description } : {}),
    ...(typeof args.location === 'string' ? { location: args.location } : {}),
    ...(attendees.length ? { attendees: attendees.map((email) => ({ email })) } : {}),
    ...(recurrence ? { recurrence } : {}),
    ...(meet ? { conferenceData: meetRequest() } : {}),
  };
  const res = await c.api.events.insert(
    {
      calendarId,
      sendUpdates: send,
      ...(meet ? { conferenceDataVersion: 1 } : {}),
      ...(extras.supportsAttachments ? { supportsAttachments: true } : {}),
      requestBody: body,
    },
    c.opts,
  );
  const view = eventView(res.data, calendarId, zone, false);
  const extra = extrasWords(res.data, times.startAt);
  const lines = [
    `Created "${view.summary}", ${whenText(res.data, zone, c.now)} (${zone}) on calendar ${calendarId}; id ${view.id}.`,
    invitationText(attendees.length, send),
    view.meet_link ? `Meet link: ${view.meet_link}` : '',
    extra.length ? `With ${extra.join('; ')}.` : '',
    overlaps.length ? overlapText(overlaps) : overlapNote,
    recurrence && overlaps.length ? '(Checked against the first occurrence only.)' : '',
  ].filter(Boolean);
  return textResult(lines.join('\n'), {
    account: c.account,
    event: view,
    invitations_sent: attendees.length > 0 && send !== 'none',
    overlaps,
  });
}

export async function deleteEvent(c: CallCtx, args: Args): Promise<CallToolResult> {
  const calendarId = calendarIdOf(args);
  const eventId = reqString(args, 'event_id');
  const ev = await loadEvent(c, calendarId, eventId);
  const scope = requireScope(ev, optEnum(args, 'scope', SCOPES));
  checkBound(args, ev);
  const send = sendUpdatesArg(args);
  const zone = await zoneOf(c, calendarId);
  const guests = (ev.attendees ?? []).filter((a) => !a.self).length;
  const told = guests ? ` ${invitationText(guests, send, 'Cancellations')}` : '';
  if (scope === 'this_and_following') {
    const master = await loadEvent(c, calendarId, ev.recurringEventId ?? '');
    checkBound(args, ev, master);
    const original = ev.originalStartTime ?? ev.start ?? {};
    if ((await occurrencesBefore(c, calendarId, master, original, zone)) > 0) {
      // Google's documented way: end the series before this occurrence (recurrence.ts).
      await c.api.events.patch(
        {
          calendarId,
          eventId: master.id ?? '',
          sendUpdates: send,
          requestBody: { recurrence: endBefore(master.recurrence ?? [], original) },
        },
        writeOptions(c, args, ev, master.id ?? ''),
      );
      return textResult(
        `Deleted "${ev.summary}" from ${whenText(ev, zone, c.now)} on: the series now ends before it.${told}`,
        {
          account: c.account,
          deleted: { series: master.id, from: eventView(ev, calendarId, zone, false).start },
        },
      );
    }
  }
  const target =
    scope === 'all' || scope === 'this_and_following'
      ? (ev.recurringEventId ?? ev.id ?? '')
      : (ev.id ?? '');
  await c.api.events.delete(
    { calendarId, eventId: target, sendUpdates: send },
    writeOptions(c, args, ev, target),
  );
  const what =
    target === ev.id
      ? `"${ev.summary}" (${whenText(ev, zone, c.now)})`
      : `the whole series "${ev.summary}"`;
  return textResult(`Deleted ${what}.${told}`, {
    account: c.account,
    deleted: { id: target, scope },
  });
}

const RESPONSES = { accept: 'accepted', decline: 'declined', tentative: 'tentative' } as const;

export async function respond(c: CallCtx, args: Args): Promise<CallToolResult> {
  const calendarId = calendarIdOf(args);
  const response = optEnum(args, 'response', ['accept', 'decline', 'tentative'] as const);
  if (!response) throw new InputError('response is required: accept, decline or tentative.');
  const ev = await loadEvent(c, calendarId, reqString(args, 'event_id'));
  const scope = requireScope(ev, optEnum(args, 'scope', SCOPES), ['this_instance', 'all']);
  const target =
    scope === 'all' && ev.recurringEventId
      ? await loadEvent(c, calendarId, ev.recurringEventId)
      : ev;
  const attendees = target.attendees ?? [];
  const me =
    attendees.find((a) => a.self) ??
    attendees.find((a) => a.email?.toLowerCase() === c.account.toLowerCase());
  if (target.organizer?.self || me?.organizer)
    throw new InputError(`You organize "${target.summary}"; there is no invitation to answer.`);
  if (!me)
    throw new InputError(
      `${c.account} is not on the guest list of "${target.summary}"; only invitations can be answered.`,
    );
  const comment = optString(args, 'comment');
  const status = RESPONSES[response];
  const send = sendUpdatesArg(args);
  // Patch replaces the attendees array whole, so the full list goes back with one entry changed.
  const list = attendees.map((a) =>
    a === me ? { ...a, responseStatus: status, ...(comment ? { comment } : {}) } : a,
  );
  const res = await c.api.events.patch(
    { calendarId, eventId: target.id ?? '', sendUpdates: send, requestBody: { attendees: list } },
    c.opts,
  );
  const zone = await zoneOf(c, calendarId);
  const who = send === 'none' ? 'The organizer was not e-mailed.' : 'The organizer is told.';
  return textResult(
    `Answered "${status}" to "${target.summary}" (${scope === 'all' ? 'whole series' : whenText(ev, zone, c.now)}). ${who}`,
    {
      account: c.account,
      event: eventView(res.data, calendarId, zone, false),
      response: status,
    },
  );
}
