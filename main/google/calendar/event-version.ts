import type { calendar_v3, MethodOptions } from '@googleapis/calendar';
import type { Args } from './args.js';
import type { CallCtx } from './context.js';
import { CHANGED_SINCE_APPROVED, InputError } from './errors.js';

type Event = calendar_v3.Schema$Event;

/**
 * A write bound to a version of the event (`event_etag`, `series_etag`: CallContent.bind,
 * event-guests.ts) first checks what the run reads against it, so a change that landed since the
 * card was shown stops the call before anything is written (a split series writes twice).
 */
export function checkBound(args: Args, ev: Event, series?: Event): void {
  if (typeof args.event_etag === 'string' && ev.etag !== args.event_etag)
    throw new InputError(CHANGED_SINCE_APPROVED);
  if (series && typeof args.series_etag === 'string' && series.etag !== args.series_etag)
    throw new InputError(CHANGED_SINCE_APPROVED);
}

/**
 * The request options of a write to `target` (the event itself or its series): with If-Match set
 * to the etag the call is bound to for it, Google changes that version or nothing — "If the entry
 * (and its etag) has not changed since the last retrieval, the modification succeeds …
 * Otherwise, you will get a 412 (Precondition failed) response code"
 * (developers.google.com/calendar/api/guides/version-resources, "Conditional modification").
 * The check above runs moments before; this closes the gap between that read and the write.
 * A call bound to no version (its checks could not read the event, so it asked) is sent as before.
 */
export function writeOptions(c: CallCtx, args: Args, ev: Event, target: string): MethodOptions {
  const bound = target === ev.id ? args.event_etag : args.series_etag;
  if (typeof bound !== 'string') return c.opts;
  // CalendarApi.options builds the headers as a plain object (api.ts).
  const headers = { ...(c.opts.headers as Record<string, string>), 'If-Match': bound };
  return { ...c.opts, headers };
}
