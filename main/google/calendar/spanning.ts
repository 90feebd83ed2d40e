import type { CallToolResult } from '../../tools/types.js';
import type { GoogleAccountAccess } from '../account-access.js';
import {
  accountsArg,
  decodeAccountPages,
  encodeAccountPages,
  isAccountPages,
  SpanError,
} from '../spanning.js';
import { hasCalendar, type CalendarApi } from './api.js';
import { optString, optStrings, type Args } from './args.js';
import { resolveRange, zoneArg, zoneOf, type CallCtx } from './context.js';
import {
  errorText,
  eventsPage,
  type EventsPage,
  sortRows,
  encodePages,
  decodePages,
} from './read-tools.js';
import { isoSpan, queryBusy, span } from './free-time.js';
import { eventLine, markEventContent, textResult } from './render.js';
import { eventItem } from './provenance.js';
import { iso } from './time.js';

/**
 * calendar_list_events and calendar_freebusy across accounts (issue 33 item 6):
 * each account's primary calendar, asked in parallel; events merged by start
 * and busy times listed per account, every item naming its account. A failing
 * account is reported beside the others.
 */
export const SPANNING = new Set(['calendar_list_events', 'calendar_freebusy']);

function onlyPrimary(args: Args, key: string): void {
  const ids = optStrings(args, key);
  if (ids && ids.some((id) => id !== 'primary'))
    throw new SpanError(
      `${key} names calendars of one account; with several accounts leave it out (each account's primary calendar is used), or give one account.`,
    );
}

function failure(account: string, err: unknown): string {
  return `${account} could not be read: ${errorText(err, account)}`;
}

/** Each account's call context; one that cannot be had (e.g. needs reconnecting) is that account's failure. */
export type ContextFor = (account: string) => Promise<CallCtx>;

export async function eventsAcross(
  accounts: string[],
  contextFor: ContextFor,
  args: Args,
  connected: string[],
  now: CallCtx['now'],
): Promise<CallToolResult> {
  onlyPrimary(args, 'calendar_ids');
  const pages = decodeAccountPages(optString(args, 'page_token'), connected);
  const targets = pages ? accounts.filter((a) => a in pages) : accounts;
  const settled = await Promise.allSettled(
    targets.map(async (a) =>
      eventsPage(await contextFor(a), args, pages ? decodePages(pages[a]) : undefined),
    ),
  );
  const ok: EventsPage[] = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.flatMap((s, i) =>
    s.status === 'rejected' ? [failure(targets[i]!, s.reason)] : [],
  );
  if (ok.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
  const rows = ok.flatMap((p) => p.rows.map((r) => ({ ...r, v: { ...r.v, account: p.account } })));
  sortRows(rows);
  const next = encodeAccountPages(
    Object.fromEntries(
      ok.flatMap((p) => {
        const token = encodePages(p.next);
        return token ? [[p.account, token]] : [];
      }),
    ),
  );
  const first = ok[0]!;
  const zones = [...new Set(ok.flatMap((p) => p.zones))];
  const lines = [
    `${rows.length} event(s) for ${ok.map((p) => p.account).join(', ')} from ${iso(first.min.setZone(first.zones[0]!))} to ${iso(first.max.setZone(first.zones[0]!))} (times in ${zones.join(', ')}):`,
    ...rows.map((r) => eventLine(r.e, r.v, now).replace(/^- /, `- [${r.v.account}] `)),
    ...ok.flatMap((p) =>
      p.failed.map((f) => `${p.account}: calendar ${f.id} could not be read: ${f.error}`),
    ),
    ...failed,
  ];
  if (next) lines.push(`More events: call again with page_token "${next}".`);
  return markEventContent(
    textResult(lines.join('\n'), {
      accounts: ok.map((p) => p.account),
      time_min: iso(first.min),
      time_max: iso(first.max),
      events: rows.map((r) => r.v),
      ...(next ? { next_page_token: next } : {}),
      ...(failed.length ? { failed_accounts: failed } : {}),
    }),
    // Each event described for the provenance check, as in one account's list (issue 30).
    rows.map((r) => eventItem(r.e, `${eventLine(r.e, r.v, now)}\n${JSON.stringify(r.v)}`, false)),
  );
}

export async function busyAcross(
  accounts: string[],
  contextFor: ContextFor,
  args: Args,
  now: CallCtx['now'],
): Promise<CallToolResult> {
  onlyPrimary(args, 'calendars');
  const contexts = await Promise.allSettled(accounts.map(contextFor));
  const usable = contexts.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []));
  if (usable.length === 0) throw (contexts[0] as PromiseRejectedResult).reason;
  // One zone for every account, so the times compare: time_zone, else the first usable account's.
  const zone = zoneArg(args) ?? (await zoneOf(usable[0]!, 'primary'));
  const { min, max } = await resolveRange(args, () => Promise.resolve(zone), now);
  const settled = await Promise.allSettled(
    contexts.map(async (c) => {
      if (c.status === 'rejected') throw c.reason;
      return queryBusy(c.value, ['primary'], min, max, zone);
    }),
  );
  const lines = [
    `Busy times from ${iso(min.setZone(zone))} to ${iso(max.setZone(zone))} (${zone}):`,
  ];
  const byAccount: Record<string, unknown> = {};
  settled.forEach((s, i) => {
    const account = accounts[i]!;
    if (s.status === 'rejected') {
      lines.push(`- ${failure(account, s.reason)}`);
      byAccount[account] = { error: errorText(s.reason, account) };
      return;
    }
    const busy = s.value.busy.get('primary');
    if (!busy) {
      lines.push(`- ${account}: unknown (${s.value.unknown.get('primary')})`);
      byAccount[account] = { error: s.value.unknown.get('primary') };
      return;
    }
    lines.push(
      `- ${account}: ${busy.length ? busy.map((b) => span(b, zone, now)).join(', ') : 'free the whole time'}`,
    );
    byAccount[account] = { busy: busy.map((b) => isoSpan(b, zone)) };
  });
  return textResult(lines.join('\n'), {
    accounts: byAccount,
    time_zone: zone,
    time_min: iso(min),
    time_max: iso(max),
  });
}

/**
 * The accounts a spanning read names (a list, "all", or a page token from a
 * call across accounts), each checked as usable; null when it names one.
 * "all" means every account whose grant includes Calendar.
 */
export function spannedAccounts(
  access: GoogleAccountAccess,
  cal: CalendarApi,
  args: Args,
): string[] | null {
  const read = access
    .accounts()
    .filter(hasCalendar)
    .map((a) => a.email);
  const named = isAccountPages(args.page_token)
    ? Object.keys(decodeAccountPages(args.page_token as string, read) ?? {})
    : accountsArg(args.account, read);
  return named && named.map((a) => cal.account(a, false));
}
