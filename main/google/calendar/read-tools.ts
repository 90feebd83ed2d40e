import type { calendar_v3 } from '@googleapis/calendar';
import type { CallToolResult } from '../../tools/types.js';
import { optNumber, optString, optStrings, reqString, type Args } from './args.js';
import { resolveRange, zoneArg, zoneOf, type CallCtx } from './context.js';
import { InputError, toErrorResult } from './errors.js';
import { eventLine, eventText, eventView, markEventContent, textResult } from './render.js';
import type { DateTime } from 'luxon';
import { instantOf, iso } from './time.js';
import { eventItem } from './provenance.js';

export async function listCalendars(c: CallCtx): Promise<CallToolResult> {
  const items: calendar_v3.Schema$CalendarListEntry[] = [];
  let pageToken: string | undefined;
  do {
    const res = await c.api.calendarList.list(
      { maxResults: 250, ...(pageToken ? { pageToken } : {}) },
      c.opts,
    );
    items.push(...(res.data.items ?? []));
    pageToken = res.data.nextPageToken ?? undefined;
  } while (pageToken && items.length < 1000);
  const calendars = items.map((e) => {
    c.cal.rememberZone(c.account, e.id ?? '', e.timeZone);
    if (e.primary) c.cal.rememberZone(c.account, 'primary', e.timeZone);
    return {
      id: e.id ?? '',
      name: e.summaryOverride ?? e.summary ?? '',
      time_zone: e.timeZone ?? '',
      access_role: e.accessRole ?? '',
      primary: Boolean(e.primary),
    };
  });
  const lines = calendars.map(
    (k) =>
      `- "${k.name}" · id ${k.id} · ${k.time_zone} · ${k.access_role}${k.primary ? ' · primary' : ''}`,
  );
  return textResult(`Calendars of ${c.account} (${calendars.length}):\n${lines.join('\n')}`, {
    account: c.account,
    calendars,
  });
}

/** Several calendars page independently; the token carries each calendar's own Google page token. */
export function encodePages(pages: Record<string, string>): string | undefined {
  return Object.keys(pages).length
    ? Buffer.from(JSON.stringify(pages)).toString('base64url')
    : undefined;
}

export function decodePages(token: string | undefined): Record<string, string> | undefined {
  if (!token) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (
      parsed &&
      typeof parsed === 'object' &&
      Object.values(parsed).every((v) => typeof v === 'string')
    )
      return parsed as Record<string, string>;
  } catch {
    // fall through to the error below
  }
  throw new InputError('page_token is not one Airlock gave out; repeat the call without it.');
}

/** One account's events: every calendar asked in parallel, merged by start. */
export interface EventsPage {
  account: string;
  rows: { e: calendar_v3.Schema$Event; v: ReturnType<typeof eventView>; at: number }[];
  /** Each calendar's own next Google page token. */
  next: Record<string, string>;
  failed: { id: string; error: string }[];
  min: DateTime;
  max: DateTime;
  zones: string[];
}

export async function eventsPage(
  c: CallCtx,
  args: Args,
  pages = decodePages(optString(args, 'page_token')),
): Promise<EventsPage> {
  const outZone = zoneArg(args);
  const ids = pages ? Object.keys(pages) : (optStrings(args, 'calendar_ids') ?? ['primary']);
  const maxResults = optNumber(args, 'max_results', 1, 250) ?? 50;
  const q = optString(args, 'query');
  const settled = await Promise.allSettled(
    ids.map(async (calendarId) => {
      // Times are read and shown in the zone asked for, else the calendar's own (issue 7). The
      // calendar's zone comes from calendars.get/calendarList only: an events.list answer's
      // timeZone echoes the request's timeZone, so it must never stand for the calendar's (issue 18.1).
      const zone = outZone ?? (await zoneOf(c, calendarId));
      const { min, max } = await resolveRange(args, () => Promise.resolve(zone), c.now);
      const res = await c.api.events.list(
        {
          calendarId,
          timeMin: iso(min),
          timeMax: iso(max),
          // Recurring series come back as their occurrences, ordered by start (needs singleEvents).
          singleEvents: true,
          orderBy: 'startTime',
          maxResults,
          ...(q ? { q } : {}),
          ...(pages?.[calendarId] ? { pageToken: pages[calendarId] } : {}),
          ...(outZone ? { timeZone: outZone } : {}),
        },
        c.opts,
      );
      return {
        calendarId,
        zone,
        items: res.data.items ?? [],
        next: res.data.nextPageToken,
        min,
        max,
      };
    }),
  );
  const ok = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.flatMap((s, i) =>
    s.status === 'rejected' ? [{ id: ids[i]!, reason: s.reason as unknown }] : [],
  );
  if (ok.length === 0) throw failed[0]?.reason ?? new InputError('No calendar to list.');
  const rows = ok.flatMap((r) =>
    r.items
      .filter((e) => e.status !== 'cancelled')
      .map((e) => ({
        e,
        v: eventView(e, r.calendarId, r.zone, false),
        at: instantOf(e.start ?? undefined, r.zone)?.toMillis() ?? 0,
      })),
  );
  sortRows(rows);
  const first = ok[0]!;
  return {
    account: c.account,
    rows,
    next: Object.fromEntries(ok.filter((r) => r.next).map((r) => [r.calendarId, r.next as string])),
    failed: failed.map((f) => ({ id: f.id, error: errorText(f.reason, c.account) })),
    min: first.min,
    max: first.max,
    zones: [...new Set(ok.map((r) => r.zone))],
  };
}

/** Merged by start; on the same instant an all-day event first, as calendars show them. */
export function sortRows(rows: EventsPage['rows']): void {
  rows.sort((a, b) => a.at - b.at || Number(b.v.all_day) - Number(a.v.all_day));
}

export async function listEvents(c: CallCtx, args: Args): Promise<CallToolResult> {
  let p: EventsPage;
  try {
    p = await eventsPage(c, args);
  } catch (err) {
    return toErrorResult(err, c.account);
  }
  const next = encodePages(p.next);
  const zone = p.zones[0]!;
  const lines = [
    `${p.rows.length} event(s) for ${c.account} from ${iso(p.min.setZone(zone))} to ${iso(p.max.setZone(zone))} (times in ${p.zones.join(', ')}):`,
    ...p.rows.map((r) => eventLine(r.e, r.v, c.now)),
  ];
  for (const f of p.failed) lines.push(`Calendar ${f.id} could not be read: ${f.error}`);
  if (next) lines.push(`More events: call again with page_token "${next}".`);
  return markEventContent(
    textResult(lines.join('\n'), {
      account: c.account,
      time_min: iso(p.min),
      time_max: iso(p.max),
      events: p.rows.map((r) => r.v),
      ...(next ? { next_page_token: next } : {}),
      ...(p.failed.length ? { failed_calendars: p.failed } : {}),
    }),
    p.rows.map((r) =>
      eventItem(r.e, `${eventLine(r.e, r.v, c.now)}\n${JSON.stringify(r.v)}`, false),
    ),
  );
}

export async function getEvent(c: CallCtx, args: Args): Promise<CallToolResult> {
  const eventId = reqString(args, 'event_id');
  const calendarId = optString(args, 'calendar_id') ?? 'primary';
  const zone = zoneArg(args) ?? (await zoneOf(c, calendarId));
  const res = await c.api.events.get({ calendarId, eventId, timeZone: zone }, c.opts);
  const view = eventView(res.data, calendarId, zone, true);
  const text = eventText(res.data, view, c.now);
  // Described as the agent receives it: the text and the view beside it (structuredContent),
  // which holds what the text leaves out (a guest's display name), as a list's events are.
  return markEventContent(textResult(text, { account: c.account, event: view }), [
    eventItem(res.data, `${text}\n${JSON.stringify(view)}`, true),
  ]);
}

export function errorText(err: unknown, account: string): string {
  const r = toErrorResult(err, account);
  const first = r.content?.[0];
  return first?.type === 'text' ? first.text : 'failed';
}
