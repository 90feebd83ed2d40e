import { cardList } from '../../../common/card-text';
import type { ApprovalView } from '../../../common/contract';

/**
 * The human side of an approval card (issue 8 "a human summary"): the
 * tool's own effect sentence (from the core) as the headline, plus — when
 * the arguments look like one — an e-mail laid out as it will be sent, or an
 * event as what / when / where / who. Pure, so it is unit-tested; anything
 * it does not recognise stays generic and the exact arguments are shown
 * below it anyway.
 */
export interface EmailSummary {
  kind: 'email';
  from?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject?: string;
  body?: string;
  reply: boolean;
  inReplyTo?: string;
  /** One line per attached file, as the core wrote it: name, type, size, where it came from. */
  attachments: string[];
  /** Laid out from the arguments: those it does not show (see unshownArgs). */
  unshown?: string[];
}

export interface EventSummary {
  kind: 'event';
  what?: string;
  when?: string;
  where?: string;
  who: string[];
  removed: string[];
  repeats?: string;
  notify?: string;
  response?: string;
  /** The arguments the preview does not show (see unshownArgs). */
  unshown?: string[];
}

export type Summary = EmailSummary | EventSummary | { kind: 'generic' };

/**
 * The core's effect text, split for display. Sources write one sentence,
 * optionally followed by "Key: value" lines and, after a blank line, a
 * preview (Gmail: "Send an email from … \nFrom: …\nTo: …\nSubject: …\n\nbody").
 */
export interface ParsedEffect {
  headline: string;
  fields: [string, string][];
  rest: string;
}

const FIELD_LINE = /^([A-Z][A-Za-z -]{0,24}):\s(.*)$/;

export function parseEffect(effect: string): ParsedEffect {
  const lines = effect.replace(/\r\n?/g, '\n').split('\n');
  const headline = (lines.shift() ?? '').trim();
  const fields: [string, string][] = [];
  while (lines.length && FIELD_LINE.test(lines[0]!)) {
    const m = FIELD_LINE.exec(lines.shift()!)!;
    fields.push([m[1]!, m[2]!]);
  }
  while (lines.length && lines[0]!.trim() === '') lines.shift();
  return { headline, fields, rest: lines.join('\n').trimEnd() };
}

const field = (p: ParsedEffect, name: string) =>
  p.fields.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

type Args = Record<string, unknown>;

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v : undefined;

/**
 * Whether a preview reads argument `k` whole (red-team R4): absent, text or a list of text, as
 * `str` and `list` read every argument it shows — and a number only for `duration_minutes`, which
 * "When" reads when no end is given. A number or flag elsewhere (`start: 1765000000000`,
 * `send_updates: true`) is dropped by `str` and `list` without a word.
 */
const readWhole = (args: Args, k: string): boolean => {
  const v = args[k];
  return (
    v === undefined ||
    v === null ||
    typeof v === 'string' ||
    (Array.isArray(v) && v.every((x) => typeof x === 'string')) ||
    (k === 'duration_minutes' && typeof v === 'number' && str(args.end) === undefined)
  );
};

const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : typeof v === 'string' ? cardList(v) : [])
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    .map((x) => x.trim());

/** The arguments an e-mail or event preview laid out from the arguments shows (or reads as a flag). */
const MAIL_SHOWN = ['account', 'to', 'cc', 'bcc', 'subject', 'body'] as const;
const EVENT_SHOWN = [
  'summary',
  'start',
  'end',
  'time_zone',
  'duration_minutes',
  'location',
  'attendees',
  'add_attendees',
  'remove_attendees',
  'recurrence',
  'send_updates',
  'response',
] as const;

/** The arguments an event's "When" is read from. */
const WHEN_KEYS: readonly string[] = ['start', 'end', 'time_zone', 'duration_minutes'];

const MAIL_TOOL = /mail|send|draft|reply|message|forward/i;
const EVENT_TOOL = /calendar|event|meeting|invite|respond/i;

export function summarize(
  a: Pick<ApprovalView, 'tool' | 'arguments' | 'effect' | 'thirdParty'>,
): Summary {
  const args: Args = a.arguments ?? {};
  // A third party's text never becomes a preview (issue 17 item 8: a title with "\nTo: …" made
  // an e-mail unrelated to the real arguments); only Airlock's own sources write headers.
  const effect = parseEffect(a.thirdParty === true ? '' : (a.effect ?? ''));
  // The core already wrote the e-mail's headers (resolved sender, reply subject): use them as written.
  if (
    field(effect, 'To') !== undefined &&
    (field(effect, 'Subject') !== undefined || field(effect, 'From') !== undefined)
  ) {
    const f = (k: string) => field(effect, k);
    return {
      kind: 'email',
      ...(f('From') ? { from: f('From') } : {}),
      to: list(f('To')),
      cc: list(f('Cc')),
      bcc: list(f('Bcc')),
      ...(f('Subject') ? { subject: f('Subject') } : {}),
      // The full body as it will be sent (the effect holds only its first lines).
      ...(typeof args.body === 'string'
        ? { body: args.body }
        : effect.rest
          ? { body: effect.rest }
          : {}),
      reply: f('In reply to') !== undefined,
      ...(f('In reply to') ? { inReplyTo: f('In reply to') } : {}),
      attachments: effect.fields.filter(([k]) => k === 'Attachment').map(([, v]) => v),
    };
  }
  // Laid out from the arguments alone, a preview shows the fields it knows; any other argument
  // (a third party's `recipients`, `forward_to`, `reply_all`) may change where the call goes, so
  // the preview names it rather than pass for the whole call (audit; the rows list them all).
  // So does one it shows only in part: a value that is not text (Google's own attendee objects,
  // `[{ email }]`, or a list mixing them with addresses) is dropped by `list` and `str`.
  const unshown = (shown: readonly string[]) => {
    const rest = Object.keys(args).filter((k) => !shown.includes(k) || !readWhole(args, k));
    return rest.length ? { unshown: rest } : {};
  };
  const hasRecipients = list(args.to).length > 0 || list(args.cc).length > 0;
  if (
    MAIL_TOOL.test(a.tool) &&
    !EVENT_TOOL.test(a.tool) &&
    (hasRecipients || str(args.reply_to_message_id) || str(args.message_id)) &&
    (str(args.subject) !== undefined || typeof args.body === 'string')
  ) {
    return {
      kind: 'email',
      ...(str(args.account) ? { from: str(args.account) } : {}),
      to: list(args.to),
      cc: list(args.cc),
      bcc: list(args.bcc),
      ...(str(args.subject) ? { subject: str(args.subject) } : {}),
      ...(typeof args.body === 'string' ? { body: args.body } : {}),
      reply: Boolean(str(args.reply_to_message_id) ?? str(args.in_reply_to) ?? str(args.thread_id)),
      attachments: [],
      ...unshown(MAIL_SHOWN),
    };
  }
  if (EVENT_TOOL.test(a.tool) || (str(args.start) && (str(args.summary) || args.attendees))) {
    const when = formatWhen(args);
    const who = [...list(args.attendees), ...list(args.add_attendees)];
    const e: EventSummary = {
      kind: 'event',
      ...(str(args.summary) ? { what: str(args.summary) } : {}),
      ...(when ? { when } : {}),
      ...(str(args.location) ? { where: str(args.location) } : {}),
      who,
      removed: list(args.remove_attendees),
      ...(list(args.recurrence).length ? { repeats: list(args.recurrence).join('; ') } : {}),
      ...(str(args.send_updates) ? { notify: notifyText(String(args.send_updates)) } : {}),
      ...(str(args.response) ? { response: String(args.response) } : {}),
      // Without a start there is no "When": an end, zone or length given alone is not shown.
      ...unshown(when ? EVENT_SHOWN : EVENT_SHOWN.filter((k) => !WHEN_KEYS.includes(k))),
    };
    const informative = e.what || e.when || e.where || e.who.length || e.response;
    return informative ? e : { kind: 'generic' };
  }
  return { kind: 'generic' };
}

function notifyText(v: string): string {
  if (v === 'none') return 'Nobody is e-mailed';
  if (v === 'externalOnly') return 'Guests outside your domain are e-mailed';
  return 'Guests are e-mailed';
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/;

/** A zone the browser knows (IANA name), else undefined: an unknown name must not throw. */
function knownZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/**
 * One end of an event, as the user will read it; never shifts a date across midnight. A time with
 * an offset is shown in the event's `zone` when one is given — the zone the card labels it with and
 * the effect text uses — else in the viewer's own zone.
 */
export function formatPoint(
  v: string,
  locale?: string,
  zone?: string,
): { date: string; time?: string } {
  if (DATE_ONLY.test(v)) {
    // All-day dates are calendar dates, not instants: format them in UTC so they never move a day.
    const d = new Date(`${v}T00:00:00Z`);
    return {
      date: d.toLocaleDateString(locale, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }),
    };
  }
  if (HAS_OFFSET.test(v) && !Number.isNaN(Date.parse(v))) {
    const d = new Date(v);
    const timeZone = knownZone(zone);
    const inZone = timeZone ? { timeZone } : {};
    return {
      date: d.toLocaleDateString(locale, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        ...inZone,
      }),
      time: d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', ...inZone }),
    };
  }
  const m = LOCAL_TIME.exec(v);
  if (m) {
    const date = formatPoint(m[1]!, locale).date;
    return { date, time: m[2]! };
  }
  return { date: v };
}

function formatWhen(args: Args): string | undefined {
  const start = str(args.start);
  if (!start) return undefined;
  const zone = str(args.time_zone);
  const s = formatPoint(start, undefined, zone);
  const end = str(args.end);
  const tz = zone ? ` (${zone})` : '';
  if (!s.time) {
    if (!end || end === start) return `${s.date}, all day`;
    return `${s.date} – ${formatPoint(end).date}, all day`;
  }
  let text = `${s.date}, ${s.time}`;
  if (end) {
    const e = formatPoint(end, undefined, zone);
    text +=
      e.date === s.date && e.time ? ` – ${e.time}` : ` – ${e.date}${e.time ? `, ${e.time}` : ''}`;
  } else if (typeof args.duration_minutes === 'number') {
    text += ` for ${durationText(args.duration_minutes)}`;
  }
  return text + tz;
}

function durationText(min: number): string {
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  const m = min % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}
