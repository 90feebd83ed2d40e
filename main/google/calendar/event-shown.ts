import type { CallContent } from '../../tools/types.js';
import type { Args } from './args.js';

/**
 * What a Calendar write puts before other people, who will follow what it names (the taint
 * check's CallContent.shows, docs/provenance.md "Written where others follow it"): an event's
 * title, place and description, its attachments' links and titles — every guest sees them on the
 * event and opens the links as the user's — and, for an out-of-office event, the message its
 * automatic declines send to the organisers. A Meet link Airlock asks Google for
 * (`add_meet_link`) is Google's, named by no one.
 */
export const SHOWN_FIELDS = [
  'summary',
  'location',
  'description',
  'attachments',
  'decline_message',
] as const;

/** The shown fields the call writes, or undefined when it writes none. */
export function shownOf(args: Args): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const k of SHOWN_FIELDS) if (args[k] !== undefined && args[k] !== null) out[k] = args[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A write's shown content for the taint check, when the event reaches anyone besides the user:
 * `others` says whether it does (its guests, existing or named; an out-of-office event's
 * declines reach organisers), as far as the caller could read.
 */
export function shownContent(args: Args, others: boolean): Pick<CallContent, 'shows'> {
  const declines = args.auto_decline !== undefined && args.auto_decline !== 'none';
  const shows = others || declines ? shownOf(args) : undefined;
  return shows ? { shows } : {};
}
