import { DateTime } from 'luxon';
import type { GoogleAccountAccess } from '../account-access.js';
import {
  type BoundArgs,
  errorResult,
  type CallContent,
  type CallToolResult,
  type GrantShape,
  type SourceState,
  type ToolCallContext,
  type ToolDefinition,
  type ToolSource,
} from '../../tools/types.js';
import { CalendarApi, calendarAccounts, hasCalendar } from './api.js';
import { optStrings, type Args } from './args.js';
import { shownContent } from './event-shown.js';
import { calendarEffect } from './call-effect.js';
import type { CallCtx } from './context.js';
import { calendarReach, isWrite } from './call-reach.js';
import { definitions } from './definitions.js';
import { describeCreate, describeOther, describeWithLookups } from './effects.js';
import { toErrorResult } from './errors.js';
import {
  BOUND_TOOLS,
  EventGuests,
  guestContent,
  TELLS_GUESTS,
  VERSION_ARGS,
} from './event-guests.js';
import { calendarPrecheck } from './precheck.js';
import { findFreeTime, freebusy } from './free-time.js';
import { calendarGrantShape } from './grant-shape.js';
import { busyAcross, eventsAcross } from './spanning.js';
import { SpanError } from '../spanning.js';
import { reachIdentity, unreached } from '../reach-identity.js';
import { getEvent, listCalendars, listEvents } from './read-tools.js';
import { updateEvent } from './update-tool.js';
import { validateCalendarArgs } from './validate-args.js';
import { createEvent, deleteEvent, respond } from './write-tools.js';

export interface CalendarSourceOptions {
  /** Test hook: the clock ("now" for default ranges and for years in summaries). */
  now?: () => Date;
  id?: string;
}

type Handler = (c: CallCtx, args: Args) => Promise<CallToolResult>;

const HANDLERS: Record<string, Handler> = {
  calendar_list_calendars: (c) => listCalendars(c),
  calendar_list_events: listEvents,
  calendar_get_event: getEvent,
  calendar_freebusy: freebusy,
  calendar_find_free_time: findFreeTime,
  calendar_create_event: createEvent,
  calendar_update_event: updateEvent,
  calendar_delete_event: deleteEvent,
  calendar_respond: respond,
};

/**
 * Google Calendar tools (issue 7) over the accounts layer's
 * GoogleAccountAccess. The tool set follows the connected accounts: the
 * `account` enum lists them, and read-only accounts get no write tools.
 */
export class CalendarSource implements ToolSource {
  readonly id: string;
  readonly kind = 'google' as const;
  readonly label = 'Google Calendar';
  readonly prefix = '';
  private readonly cal: CalendarApi;
  private readonly clock: () => Date;
  private readonly listeners = new Set<() => void>();
  private defs: ToolDefinition[] | null = null;
  private readonly offAccess: () => void;
  private warming: Promise<void> | null = null;
  /** Each write's read of the event's guests, for its own checks (event-guests.ts). */
  private readonly guests = new EventGuests();

  constructor(
    private readonly access: GoogleAccountAccess,
    options: CalendarSourceOptions = {},
  ) {
    this.id = options.id ?? 'google-calendar';
    this.clock = options.now ?? (() => new Date());
    this.cal = new CalendarApi(access, () => this.clock().getTime());
    this.offAccess = access.onChange(() => {
      // Recomputed lazily; schemas stay the same objects between changes (the validator caches by object).
      this.defs = null;
      this.warming = null;
      void this.warmUp();
      for (const l of this.listeners) l();
    });
  }

  /**
   * Ready at once; meanwhile the primary calendars' zones are fetched so the
   * synchronous approval text can already say "10:00–10:15 (Europe/Berlin)".
   */
  ready(): Promise<void> {
    void this.warmUp();
    return Promise.resolve();
  }

  /** Fetches each account's primary calendar zone (errors ignored: the calls report them). */
  warmUp(): Promise<void> {
    this.warming ??= Promise.all(
      this.access
        .accounts()
        .filter((a) => a.state === 'connected' && hasCalendar(a))
        .map(async ({ email: account }) => {
          try {
            await this.cal.zoneOf(
              account,
              'primary',
              await this.cal.options(account, AbortSignal.timeout(10_000)),
            );
          } catch {
            // The account's next call says what is wrong.
          }
        }),
    ).then(() => undefined);
    return this.warming;
  }

  status(): SourceState {
    return { state: 'ready' };
  }

  tools(): readonly ToolDefinition[] {
    if (!this.defs) {
      const { read, write } = calendarAccounts(this.access.accounts());
      this.defs = definitions(read, write);
    }
    return this.defs;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  grantShape(tool: string): GrantShape | undefined {
    return calendarGrantShape(tool, {
      guests: (args) => this.guests.guests(tool, this.cal.account(args.account, true), args),
      self: (args) => this.cal.account(args.account, true),
    });
  }

  /**
   * Whom an update or delete reaches beyond its arguments: the event's guests, read from Google
   * before the taint check and a grant decide (event-guests.ts). Null (the checks see the
   * arguments only, and a grant holding to guests finds none, so the call asks) when it fails.
   */
  async callContent(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallContent | null> {
    if (tool === 'calendar_create_event') return this.argsReach(tool, args);
    if (!TELLS_GUESTS.has(tool)) return null;
    const account = this.cal.account(args.account, true);
    // Before anything that waits: a read that is late or fails must leave no earlier one behind.
    this.guests.forget(tool, account, args);
    const read = await this.guests.read(await this.context(account, signal), tool, args);
    // The call is bound to the version read (its etags): its grant and card find this read, and
    // the write goes to this version or fails (event-guests.ts).
    const effect = calendarEffect(tool, args, read);
    return { ...guestContent(tool, args, read), ...(effect ? { effect } : {}) };
  }

  /**
   * What a new event shows its guests (event-shown.ts), from its arguments alone; for an update
   * whose event could not be read, as if it had guests: whom it reaches is unknown.
   */
  argsReach(tool: string, args: Record<string, unknown>): CallContent | null {
    const effect = calendarEffect(tool, args);
    const reach = this.reachOfArgs(tool, args);
    return effect ? { ...reach, effect } : reach;
  }

  /** What a write shows others, from its arguments alone (argsReach). */
  private reachOfArgs(tool: string, args: Record<string, unknown>): CallContent | null {
    if (tool === 'calendar_update_event') return nonEmpty(shownContent(args, true));
    if (tool !== 'calendar_create_event') return null;
    let others = true;
    try {
      const self = this.cal.account(args.account, true).toLowerCase();
      others = (optStrings(args, 'attendees') ?? []).some((a) => a.trim().toLowerCase() !== self);
    } catch {
      // Refused by validateArgs before it runs; read as reaching others meanwhile.
    }
    return nonEmpty(shownContent(args, others));
  }

  /**
   * The event's version (its etags) is the checks' to fill in, and the account, calendar, event
   * and scope name what they read: an approval's edit keeps them (main/approvals/edit-binding.ts).
   */
  boundArgs(tool: string): BoundArgs | undefined {
    return BOUND_TOOLS.has(tool)
      ? { bound: [...VERSION_ARGS], named: ['account', 'calendar_id', 'event_id', 'scope'] }
      : undefined;
  }

  /** The accounts, in order (the first that may write is the default): a grant's server. */
  identity(): string {
    return JSON.stringify(this.access.accounts().map((a) => [a.email.toLowerCase(), a.readOnly]));
  }

  /** The account(s) this call goes to, as call() resolves them (call-reach.ts). */
  identityFor(tool: string, args: Record<string, unknown>): string {
    try {
      const reach = calendarReach(this.access, this.cal, tool, args);
      return reachIdentity(this.access, reach.across ?? [reach.account]);
    } catch (err) {
      return unreached(err);
    }
  }

  async stop(): Promise<void> {
    this.offAccess();
    this.listeners.clear();
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ): Promise<CallToolResult> {
    const handler = HANDLERS[tool];
    if (!handler) return errorResult(`Unknown calendar tool: ${tool}`);
    let account: string | undefined;
    try {
      // The same resolution the approval's binding reads (identityFor): the card's account is this one.
      const reach = calendarReach(this.access, this.cal, tool, args);
      if (reach.across) {
        const contextFor = (a: string) => this.context(a, ctx.signal);
        return tool === 'calendar_freebusy'
          ? await busyAcross(reach.across, contextFor, args, this.now())
          : await eventsAcross(
              reach.across,
              contextFor,
              args,
              calendarAccounts(this.access.accounts()).read,
              this.now(),
            );
      }
      account = reach.account;
      return await handler(await this.context(account, ctx.signal), reach.args);
    } catch (err) {
      // Never throws out of call(): every failure is a readable isError result.
      if (err instanceof SpanError) return errorResult(err.message);
      return toErrorResult(err, account);
    }
  }

  /**
   * An update or delete whose event the checks could not read (callContent found no guests and
   * bound no version: the read failed or was late) asks, whatever the policy: the taint check saw
   * only the guests its arguments name, yet the write reaches every guest of the event
   * (event-guests.ts).
   */
  alwaysAsk(tool: string, args: Record<string, unknown>): string | null {
    if (!TELLS_GUESTS.has(tool)) return null;
    try {
      this.guests.guests(tool, this.cal.account(args.account, true), args);
      return null;
    } catch {
      return "Airlock could not read the event's guests before its checks, so it asks.";
    }
  }

  /** Catches bad times, zones, addresses and rules before the user is asked to approve a write. */
  validateArgs(tool: string, args: Record<string, unknown>): string | null {
    return validateCalendarArgs(this.cal, tool, args);
  }

  /**
   * The account, calendar and event a write names, checked with a read before
   * the user is asked (precheck.ts). Account problems (unknown, read-only, no
   * Calendar in the grant) are definite without asking Google.
   */
  async precheck(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<string | null> {
    return calendarPrecheck(this.cal, isWrite(tool), tool, args, (account) =>
      this.context(account, signal),
    );
  }

  describeEffect(tool: string, args: Record<string, unknown>): string {
    const now = this.now();
    try {
      const account = this.cal.account(args.account, true);
      const zone = this.cal.knownZone(
        account,
        typeof args.calendar_id === 'string' ? args.calendar_id : 'primary',
      );
      const text =
        tool === 'calendar_create_event'
          ? describeCreate(args, zone, now)
          : describeOther(tool, args, zone, now);
      return this.withAccount(text, account);
    } catch (err) {
      return `${tool}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  /** describeEffect plus what only Google knows: the event's title and time, and overlaps for a new event. */
  async describeEffectAsync(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<string> {
    if (!isWrite(tool)) return this.describeEffect(tool, args);
    try {
      const account = this.cal.account(args.account, true);
      // The approval's bound for the lookup ends its requests (main/calls/effect-text.ts); it is
      // the only bound, so a test that asks here directly is never decided by a clock.
      const c = await this.context(account, signal);
      // The card shows the version the call is bound to, as its checks read it (event-guests.ts).
      let read = BOUND_TOOLS.has(tool) ? this.guests.find(tool, account, args) : undefined;
      if (!read && BOUND_TOOLS.has(tool) && typeof args.event_etag === 'string') {
        // That read is gone (500 later reads pushed it out): read again, with the same reader.
        // It is kept under its own version, so the call finds it only when that is the version
        // it is bound to; otherwise the card says the call will fail (effects.ts).
        const again = await this.guests.read(c, tool, args);
        if (this.guests.find(tool, account, args)) read = again;
      }
      return this.withAccount(await describeWithLookups(c, tool, args, read), account);
    } catch {
      return this.describeEffect(tool, args);
    }
  }

  private withAccount(text: string, account: string): string {
    return calendarAccounts(this.access.accounts()).write.length > 1
      ? `${text} (as ${account})`
      : text;
  }

  private now(): DateTime {
    return DateTime.fromJSDate(this.clock(), { zone: 'UTC' });
  }

  private async context(account: string, signal: AbortSignal): Promise<CallCtx> {
    return {
      api: await this.cal.api(),
      opts: await this.cal.options(account, signal),
      account,
      now: this.now(),
      cal: this.cal,
    };
  }
}

export function createCalendarSource(
  access: GoogleAccountAccess,
  options: CalendarSourceOptions = {},
): CalendarSource {
  return new CalendarSource(access, options);
}

/** A read that found nothing to add is none. */
function nonEmpty(c: CallContent): CallContent | null {
  return Object.keys(c).length > 0 ? c : null;
}
