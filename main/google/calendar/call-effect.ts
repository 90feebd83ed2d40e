import { emails, optEnum, optString, optStrings, type Args } from './args.js';
import { autoDeclineMode } from './event-extras.js';

/**
 * What a Calendar call destroys or answers for the user without sending anything anywhere, in
 * words after "This call" (CallContent.effect): the instructed-effect rule flags such a call after
 * a stranger's content addressed the agent (main/provenance/instructed-effects.ts). Read as the
 * tools read their arguments: `response` as respond() does, `auto_decline` as the event body is
 * built (event-extras.ts autoDeclineMode), for the event types that take it, an update's guests
 * by `emails` as event-input.ts reads them. `guests` are the event's guests as the read before
 * the call found them (event-guests.ts); without them a new guest list counts as removing some.
 */
export function calendarEffect(
  tool: string,
  args: Args,
  guests?: readonly string[],
): string | undefined {
  try {
    if (tool === 'calendar_delete_event') return 'deletes an event from your calendar';
    // Any answer is the user's word to the organiser: an accept commits her time and tells a
    // stranger the address is read, as a decline turns a meeting down.
    if (tool === 'calendar_respond') return ANSWERS[optEnum(args, 'response', RESPONSES) ?? ''];
    if (tool === 'calendar_update_event') return updateEffect(args, guests);
    if (tool !== 'calendar_create_event') return undefined;
    // Only an out-of-office or focus-time event declines (createEvent refuses it on others).
    if ((optString(args, 'event_type') ?? 'default') === 'default') return undefined;
    const mode = autoDeclineMode(args);
    return mode !== undefined && mode !== 'declineNone'
      ? 'declines meetings for you automatically'
      : undefined;
  } catch {
    return undefined; // Arguments the tool refuses (validateArgs) before it runs.
  }
}

const RESPONSES = ['accept', 'decline', 'tentative'] as const;
const ANSWERS: Record<string, string> = {
  accept: 'accepts an invitation for you',
  decline: 'declines an invitation for you',
  tentative: 'answers an invitation for you (maybe)',
};

/**
 * What an update takes away: guests removed (each is told, per send_updates), or a series' rule
 * changed, which can end it and drop its later occurrences (recurrence.ts).
 */
function updateEffect(args: Args, guests: readonly string[] | undefined): string | undefined {
  const replace = emails(optStrings(args, 'attendees'), 'attendees');
  const remove = emails(optStrings(args, 'remove_attendees'), 'remove_attendees') ?? [];
  const parts: string[] = [];
  if (
    remove.length > 0 ||
    (replace !== undefined && (guests === undefined || guests.some((g) => !replace.includes(g))))
  )
    parts.push('removes guests from an event (they are told)');
  if (args.recurrence !== undefined)
    parts.push("changes a recurring event's rule, which can end the series");
  return parts.length ? parts.join(' and ') : undefined;
}
