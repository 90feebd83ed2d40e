import { optEnum, optString, type Args } from './args.js';
import { autoDeclineMode } from './event-extras.js';

/**
 * What a Calendar call destroys or answers for the user without sending anything anywhere, in
 * words after "This call" (CallContent.effect): the instructed-effect rule flags such a call after
 * a stranger's content addressed the agent (main/provenance/instructed-effects.ts). Read as the
 * tools read their arguments: `response` as respond() does, `auto_decline` as the event body is
 * built (event-extras.ts autoDeclineMode), for the event types that take it.
 */
export function calendarEffect(tool: string, args: Args): string | undefined {
  try {
    if (tool === 'calendar_delete_event') return 'deletes an event from your calendar';
    if (tool === 'calendar_respond')
      return optEnum(args, 'response', RESPONSES) === 'decline'
        ? 'declines an invitation for you'
        : undefined;
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
