/* Shapes shared by the fake Calendar API's routes: paging, zones in answers, busy merging. */
import type { IncomingMessage } from 'node:http';
import { DateTime } from 'luxon';
import type { Event } from './calendar-store.js';

export interface FreeBusyBody {
  timeMin: string;
  timeMax: string;
  timeZone?: string;
  items?: { id: string }[];
}

export function page(
  items: Event[],
  q: Record<string, string>,
): { items: Event[]; nextPageToken?: string } {
  const size = Number(q.maxResults ?? 250);
  const from = Number(q.pageToken ?? 0);
  const slice = items.slice(from, from + size);
  return from + size < items.length
    ? { items: slice, nextPageToken: String(from + size) }
    : { items: slice };
}

/** Google answers dateTimes in the request's timeZone (else the calendar's); dates stay dates. */
export function inZone(e: Event, zone: string): Event {
  const conv = (w: Event['start']) =>
    w?.dateTime
      ? {
          ...w,
          dateTime: DateTime.fromISO(w.dateTime, { setZone: true })
            .setZone(zone)
            .toISO({ suppressMilliseconds: true }),
        }
      : w;
  return {
    ...e,
    start: conv(e.start),
    end: conv(e.end),
    ...(e.originalStartTime ? { originalStartTime: conv(e.originalStartTime) } : {}),
  };
}

export function merge(list: { start: number; end: number }[]): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const b of [...list].sort((a, z) => a.start - z.start)) {
    const last = out[out.length - 1];
    if (last && b.start <= last.end) last.end = Math.max(last.end, b.end);
    else out.push({ ...b });
  }
  return out;
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
