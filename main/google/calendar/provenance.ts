import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import type { calendar_v3 } from '@googleapis/calendar';
import type { CallToolResult } from '../../tools/types.js';
import {
  PROVENANCE_META_KEY,
  type ProvenanceMetaItem,
} from '../../provenance/provenance-service.js';
import { lowerMailbox } from '../../provenance/identity.js';

/**
 * What a Calendar result holds, for the taint check (issue 30,
 * docs/provenance.md): one entry per event. An event's title, place and
 * description are its organiser's words (the user's own when they organise
 * it); its guests already know of it (audience), so inviting them to a
 * follow-up tells them nothing new.
 */

type Event = calendar_v3.Schema$Event;

export function eventItem(e: Event, text: string, full: boolean): ProvenanceMetaItem {
  // Lower-cased as mail compares them, the domain's ASCII letters only (identity.ts lowerMailbox).
  const organizer = e.organizer?.email && lowerMailbox(e.organizer.email);
  const creator = e.creator?.email && lowerMailbox(e.creator.email);
  const from = [organizer, creator].filter((a, i, all): a is string => !!a && all.indexOf(a) === i);
  const title = textPrefix(e.summary ?? '(no title)', 80, codeUnits);
  const by = organizer ? `, organised by ${organizer}` : '';
  return {
    kind: 'event',
    label: full ? `the description of the event "${title}"${by}` : `the event "${title}"${by}`,
    ...(e.id ? { ref: e.id } : {}),
    from,
    audience: (e.attendees ?? []).flatMap((a) => (a.email ? [lowerMailbox(a.email)] : [])),
    ...(e.organizer?.self ? { own: true } : {}),
    private: true,
    text,
  };
}

export function eventsMeta(items: ProvenanceMetaItem[]): Record<string, unknown> {
  return { [PROVENANCE_META_KEY]: items };
}

/**
 * A write's result described as the event it returns: its guests are its audience, so the event's
 * id or words handed back to them in a later change of the same event are not a leak (the taint
 * check sees every guest a change reaches, event-guests.ts).
 */
export function describedAs(r: CallToolResult, e: Event): CallToolResult {
  const text = (r.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ...r, _meta: { ...(r._meta ?? {}), ...eventsMeta([eventItem(e, text, false)]) } };
}
