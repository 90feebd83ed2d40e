import { GoogleToolError } from '../account-access.js';
import type { CalendarApi } from './api.js';
import { classify } from '../failure.js';
import { optEnum, optString, SCOPES, type Args } from './args.js';
import { zoneOf, type CallCtx } from './context.js';
import { InputError } from './errors.js';
import { loadEvent, requireScope } from './write-tools.js';

const BY_EVENT = new Set(['calendar_update_event', 'calendar_delete_event', 'calendar_respond']);

/** Google's answer meant "there is no such thing" (404, or 410 for a deleted event). */
function missing(err: unknown): boolean {
  const kind = classify(err).kind;
  return kind === 'not-found' || kind === 'gone';
}

/**
 * What a read settles before a Calendar write is put to the user (issue 33
 * item 4): the calendar and the event named exist (a deleted event counts as
 * gone), and a recurring target says which occurrences. Resolves to the
 * refusal, or null; anything else Google answers (a rate limit, a network
 * error) leaves the call to the approval and to call(). The calendar's zone
 * it reads is kept, so the approval text that follows has it.
 */
export async function calendarPrecheck(
  cal: CalendarApi,
  write: boolean,
  tool: string,
  args: Args,
  contextFor: (account: string) => Promise<CallCtx>,
): Promise<string | null> {
  // Account problems (unknown, read-only, no Calendar in the grant) are definite without asking Google.
  let account: string;
  try {
    account = cal.account(args.account, write);
  } catch (err) {
    return err instanceof Error ? err.message : null;
  }
  if (!write) return null;
  try {
    return await checkTargets(await contextFor(account), tool, args);
  } catch {
    return null;
  }
}

async function checkTargets(c: CallCtx, tool: string, args: Args): Promise<string | null> {
  const calendarId = optString(args, 'calendar_id') ?? 'primary';
  try {
    await zoneOf(c, calendarId);
  } catch (err) {
    if (missing(err))
      return `There is no calendar ${calendarId} in ${c.account}. calendar_list_calendars lists the calendars.`;
    return null;
  }
  const eventId = optString(args, 'event_id');
  if (!BY_EVENT.has(tool) || !eventId) return null;
  try {
    const ev = await loadEvent(c, calendarId, eventId);
    if (ev.status === 'cancelled')
      return `Event ${eventId} in calendar ${calendarId} of ${c.account} has been deleted.`;
    const allowed = tool === 'calendar_respond' ? (['this_instance', 'all'] as const) : SCOPES;
    requireScope(ev, optEnum(args, 'scope', SCOPES), allowed);
    return null;
  } catch (err) {
    if (err instanceof InputError) return err.message;
    if (err instanceof GoogleToolError) return null;
    if (missing(err))
      return `There is no event with id ${eventId} in calendar ${calendarId} of ${c.account}. Event ids come from calendar_list_events or calendar_get_event.`;
    return null;
  }
}
