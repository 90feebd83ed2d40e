import type { calendar_v3 } from '@googleapis/calendar';
import type { CallToolResult } from '../../tools/types.js';
import { optNumber, optString, optStrings, reqString, type Args } from './args.js';
import { resolveRange, zoneArg, zoneOf, type CallCtx } from './context.js';
import { InputError, toErrorResult } from './errors.js';
import { eventLine, eventText, eventView, markEventContent, textResult } from './render.js';
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
function encodePages(pages: Record<string, string>): string | undefined {
  return Object.keys(pages).length
    ? Buffer.from(JSON.stringify(pages)).toString('base64url')
    : undefined;
}

function decodePages(token: string | undefined): Record<string, string> | undefined {
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

export async function listEvents(c: CallCtx, args: Args): Promise<CallToolResult> {
  const outZone = zoneArg(args);
  const pages = decodePages(optString(args, 'page_token'));
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
  if (ok.length === 0) return toErrorResult(failed[0]?.reason, c.account);

  const rows = ok.flatMap((r) =>
    r.items
      .filter((e) => e.status !== 'cancelled')
      .map((e) => ({
        e,
        v: eventView(e, r.calendarId, r.zone, false),
        at: instantOf(e.start ?? undefined, r.zone)?.toMillis() ?? 0,
      })),
  );
  // Merged across calendars by start; on the same instant an all-day event first, as calendars show them.
  rows.sort((a, b) => a.at - b.at || Number(b.v.all_day) - Number(a.v.all_day));
  const next = encodePages(
    Object.fromEntries(ok.filter((r) => r.next).map((r) => [r.calendarId, r.next as string])),
  );
  const first = ok[0]!;
  const zones = [...new Set(ok.map((r) => r.zone))].join(', ');
  const lines = [
    `${rows.length} event(s) for ${c.account} from ${iso(first.min.setZone(first.zone))} to ${iso(first.max.setZone(first.zone))} (times in ${zones}):`,
    ...rows.map((r) => eventLine(r.e, r.v, c.now)),
  ];
  for (const f of failed)
    lines.push(`Calendar ${f.id} could not be read: ${errorText(f.reason, c.account)}`);
  if (next) lines.push(`More events: call again with page_token "${next}".`);
  return markEventContent(
    textResult(lines.join('\n'), {
      account: c.account,
      time_min: iso(first.min),
      time_max: iso(first.max),
      events: rows.map((r) => r.v),
      ...(next ? { next_page_token: next } : {}),
      ...(failed.length
        ? {
            failed_calendars: failed.map((f) => ({
              id: f.id,
              error: errorText(f.reason, c.account),
            })),
          }
        : {}),
    }),
    rows.map((r) => eventItem(r.e, `${eventLine(r.e, r.v, c.now)}\n${JSON.stringify(r.v)}`, false)),
  );
}

export async function getEvent(c: CallCtx, args: Args): Promise<CallToolResult> {
  const eventId = reqString(args, 'event_id');
  const calendarId = optString(args, 'calendar_id') ?? 'primary';
  const zone = zoneArg(args) ?? (await zoneOf(c, calendarId));
  const res = await c.api.events.get({ calendarId, eventId, timeZone: zone }, c.opts);
  const view = eventView(res.data, calendarId, zone, true);
  const text = eventText(res.data, view, c.now);
  return markEventContent(textResult(text, { account: c.account, event: view }), [
    eventItem(res.data, text, true),
  ]);
}

export function errorText(err: unknown, account: string): string {
  const r = toErrorResult(err, account);
  const first = r.content?.[0];
  return first?.type === 'text' ? first.text : 'failed';
}
