/*
 * State of the fake Calendar API: calendars per account, events, per-instance
 * exceptions of recurring series, and the rules Google applies when listing
 * (developers.google.com/calendar/api/v3/reference/events/list): timeMin
 * bounds an event's end, timeMax its start; all-day events span their dates in
 * the calendar's time zone; singleEvents expands series into instances whose
 * ids are "<seriesId>_<UTC start>" with recurringEventId and originalStartTime.
 */
import { randomBytes } from 'node:crypto';
import type { calendar_v3 } from '@googleapis/calendar';
import { DateTime } from 'luxon';
import { checkExtras } from './calendar-extras.js';
import { expand } from './calendar-rrule.js';

export type Event = calendar_v3.Schema$Event;

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export interface FakeCalendarInfo {
  id: string;
  summary: string;
  timeZone: string;
  primary?: boolean;
  accessRole?: string;
}

export interface StoredCalendar extends FakeCalendarInfo {
  owner: string;
  events: Map<string, Event>;
  /** Per-instance changes of recurring series, by instance id ("cancelled" = deleted instance). */
  exceptions: Map<string, Event>;
}

const HORIZON_DAYS = 400;

/**
 * A new etag for every stored change: "a version field that changes every time the resource
 * changes" (developers.google.com/calendar/api/guides/version-resources). A counter, not the
 * clock: two changes in one millisecond must not share one.
 */
let versions = 0;
const nextEtag = () => `"${Date.now()}${String(++versions).padStart(6, '0')}"`;

/**
 * Conditional modification (same guide): a write sent with If-Match succeeds only while the
 * resource's etag is that value, else 412 Precondition Failed and nothing changes. The error is
 * Google's JSON error format with reason `conditionNotMet`, as Google answers a failed If-Match.
 */
export function checkIfMatch(current: Event, ifMatch: string | undefined): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const tags = ifMatch.split(',').map((t) => t.trim());
  if (!tags.includes(current.etag ?? ''))
    throw new ApiError(412, 'conditionNotMet', 'Precondition Failed');
}

export class CalendarStore {
  readonly calendars = new Map<string, StoredCalendar>();

  add(owner: string, info: FakeCalendarInfo): StoredCalendar {
    const cal: StoredCalendar = {
      accessRole: 'owner',
      ...info,
      owner,
      events: new Map(),
      exceptions: new Map(),
    };
    this.calendars.set(`${owner}\n${info.id}`, cal);
    return cal;
  }

  of(owner: string): StoredCalendar[] {
    return [...this.calendars.values()].filter((c) => c.owner === owner);
  }

  get(owner: string, id: string): StoredCalendar {
    const cal =
      id === 'primary'
        ? this.of(owner).find((c) => c.primary)
        : this.calendars.get(`${owner}\n${id}`);
    if (!cal) throw new ApiError(404, 'notFound', 'Not Found');
    return cal;
  }

  /** A stored event or one instance of a series (with its exception applied). */
  find(cal: StoredCalendar, id: string): Event {
    const direct = cal.events.get(id);
    if (direct) {
      if (direct.status === 'cancelled')
        throw new ApiError(410, 'deleted', 'Resource has been deleted');
      return direct;
    }
    const cut = id.lastIndexOf('_');
    const master = cut > 0 ? cal.events.get(id.slice(0, cut)) : undefined;
    if (!master || !master.recurrence) throw new ApiError(404, 'notFound', 'Not Found');
    if (master.status === 'cancelled')
      throw new ApiError(410, 'deleted', 'Resource has been deleted');
    const inst = this.instances(cal, master, Infinity, true).find((i) => i.id === id);
    if (!inst) throw new ApiError(404, 'notFound', 'Not Found');
    return inst;
  }

  instances(cal: StoredCalendar, master: Event, untilMs: number, showDeleted: boolean): Event[] {
    const limit = Number.isFinite(untilMs)
      ? untilMs
      : startMs(master.start, cal.timeZone) + HORIZON_DAYS * 86_400_000;
    const { recurrence: _r, ...base } = master;
    return expand(master, cal.timeZone, limit)
      .map((o) => {
        const id = `${master.id}_${o.key}`;
        const inst: Event = {
          ...base,
          id,
          recurringEventId: master.id!,
          originalStartTime: o.originalStart,
          start: o.start,
          end: o.end,
        };
        const own = cal.exceptions.get(id);
        // An occurrence is a resource of its own (its etag is not the series'), and it changes
        // with its series and with its own exception: its etag follows both.
        const etag = `"${unquote(master.etag)}${o.key.replace(/\D/g, '')}${unquote(own?.etag)}"`;
        return { ...inst, ...(own ?? {}), etag };
      })
      .filter((i) => showDeleted || i.status !== 'cancelled');
  }

  /** events.list with singleEvents=true semantics. */
  list(
    cal: StoredCalendar,
    q: {
      timeMin?: string;
      timeMax?: string;
      singleEvents: boolean;
      showDeleted: boolean;
      text?: string;
    },
  ): Event[] {
    const min = q.timeMin ? Date.parse(q.timeMin) : -Infinity;
    const max = q.timeMax ? Date.parse(q.timeMax) : Infinity;
    const out: Event[] = [];
    for (const e of cal.events.values()) {
      if (e.recurrence && q.singleEvents) {
        if (e.status === 'cancelled' && !q.showDeleted) continue;
        out.push(...this.instances(cal, e, Number.isFinite(max) ? max : Infinity, q.showDeleted));
      } else out.push(e);
    }
    const needle = q.text?.toLowerCase();
    return out
      .filter((e) => q.showDeleted || e.status !== 'cancelled')
      .filter((e) => endMs(e.end, cal.timeZone) > min && startMs(e.start, cal.timeZone) < max)
      .filter(
        (e) =>
          !needle ||
          [e.summary, e.description, e.location, ...(e.attendees ?? []).map((a) => a.email)].some(
            (t) => t?.toLowerCase().includes(needle),
          ),
      )
      .sort((a, b) => startMs(a.start, cal.timeZone) - startMs(b.start, cal.timeZone));
  }

  insert(cal: StoredCalendar, body: Event, meet: boolean, supportsAttachments = false): Event {
    checkTimes(body);
    const id = body.id ?? randomBytes(13).toString('hex');
    if (cal.events.has(id))
      throw new ApiError(409, 'duplicate', 'The requested identifier already exists.');
    const now = new Date().toISOString();
    const event: Event = {
      kind: 'calendar#event',
      ...body,
      etag: nextEtag(),
      id,
      status: body.status ?? 'confirmed',
      iCalUID: `${id}@google.com`,
      htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
      created: now,
      updated: now,
      creator: { email: cal.owner, self: true },
      organizer: { email: cal.owner, self: true },
      ...(body.attendees
        ? { attendees: body.attendees.map((a) => normaliseAttendee(a, cal.owner)) }
        : {}),
    };
    conference(event, body, meet);
    checkExtras(cal, event, body, supportsAttachments);
    cal.events.set(id, event);
    return event;
  }

  patch(
    cal: StoredCalendar,
    id: string,
    body: Event,
    meet: boolean,
    supportsAttachments = false,
  ): Event {
    const current = this.find(cal, id);
    if (body.attendees)
      body = { ...body, attendees: body.attendees.map((a) => normaliseAttendee(a, cal.owner)) };
    const next: Event = {
      ...current,
      ...body,
      updated: new Date().toISOString(),
      etag: nextEtag(),
    };
    conference(next, body, meet);
    checkTimes(next);
    checkExtras(cal, next, body, supportsAttachments, current);
    if (current.recurringEventId) {
      if (body.recurrence)
        throw new ApiError(
          400,
          'invalid',
          'Cannot set recurrence on an instance of a recurring event.',
        );
      cal.exceptions.set(id, {
        ...(cal.exceptions.get(id) ?? {}),
        ...body,
        etag: nextEtag(),
        ...(body.attachments ? { attachments: next.attachments } : {}),
        ...(next.conferenceData
          ? { conferenceData: next.conferenceData, hangoutLink: next.hangoutLink }
          : {}),
      });
      return this.find(cal, id);
    }
    cal.events.set(id, next);
    return next;
  }

  remove(cal: StoredCalendar, id: string): void {
    const current = this.find(cal, id);
    if (current.recurringEventId) {
      if (current.status === 'cancelled')
        throw new ApiError(410, 'deleted', 'Resource has been deleted');
      cal.exceptions.set(id, {
        ...(cal.exceptions.get(id) ?? {}),
        status: 'cancelled',
        etag: nextEtag(),
      });
    } else cal.events.set(id, { ...current, status: 'cancelled', etag: nextEtag() });
  }

  /** Busy intervals (ms) of a calendar: opaque, not cancelled, not declined by the owner. */
  busy(cal: StoredCalendar, min: number, max: number): { start: number; end: number }[] {
    return this.list(cal, {
      timeMin: new Date(min).toISOString(),
      timeMax: new Date(max).toISOString(),
      singleEvents: true,
      showDeleted: false,
    })
      .filter(
        (e) =>
          e.transparency !== 'transparent' &&
          !(e.attendees ?? []).some((a) => a.self && a.responseStatus === 'declined'),
      )
      .map((e) => ({
        start: Math.max(min, startMs(e.start, cal.timeZone)),
        end: Math.min(max, endMs(e.end, cal.timeZone)),
      }));
  }
}

export function startMs(w: calendar_v3.Schema$EventDateTime | undefined, zone: string): number {
  if (w?.dateTime) return Date.parse(w.dateTime);
  if (w?.date) return DateTime.fromISO(w.date, { zone }).startOf('day').toMillis();
  return NaN;
}

const endMs = startMs;

const unquote = (etag: string | null | undefined) => (etag ?? '').replaceAll('"', '');

function normaliseAttendee(
  a: calendar_v3.Schema$EventAttendee,
  owner: string,
): calendar_v3.Schema$EventAttendee {
  const self = a.email?.toLowerCase() === owner.toLowerCase();
  return {
    ...a,
    responseStatus: a.responseStatus ?? (self ? 'accepted' : 'needsAction'),
    ...(self ? { self: true } : {}),
  };
}

/** Google's 400s for times (events.insert): missing, empty range, no zone for a zone-less dateTime or a recurring series. */
function checkTimes(e: Event): void {
  if (!e.start || (!e.start.date && !e.start.dateTime))
    throw new ApiError(400, 'required', 'Missing start time.');
  if (!e.end || (!e.end.date && !e.end.dateTime))
    throw new ApiError(400, 'required', 'Missing end time.');
  for (const w of [e.start, e.end]) {
    if (w.dateTime && !/(Z|[+-]\d\d:\d\d)$/.test(w.dateTime) && !w.timeZone)
      throw new ApiError(400, 'timeRangeEmpty', 'Missing time zone definition for start time.');
  }
  if (e.recurrence?.length && e.start.dateTime && !e.start.timeZone)
    throw new ApiError(400, 'invalid', 'Missing time zone definition for start time.');
  const s = e.start.dateTime ? Date.parse(e.start.dateTime) : Date.parse(e.start.date!);
  const end = e.end.dateTime ? Date.parse(e.end.dateTime) : Date.parse(e.end.date!);
  if (!(end > s)) throw new ApiError(400, 'timeRangeEmpty', 'The specified time range is empty.');
}

function conference(event: Event, body: Event, meet: boolean): void {
  const req = body.conferenceData?.createRequest;
  if (!meet) {
    // Without conferenceDataVersion=1 Google ignores conferenceData in the request.
    if (body.conferenceData) delete event.conferenceData;
    return;
  }
  if (!req) return;
  const code = randomBytes(5).toString('hex');
  const uri = `https://meet.google.com/${code.slice(0, 3)}-${code.slice(3, 7)}-${code.slice(7)}`;
  event.conferenceData = {
    createRequest: { ...req, status: { statusCode: 'success' } },
    conferenceId: code,
    conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Google Meet' },
    entryPoints: [{ entryPointType: 'video', uri, label: uri.slice(8) }],
  };
  event.hangoutLink = uri;
}
