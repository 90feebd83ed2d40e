import { describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../common/contract/index.js';
import { calendarGrantShape } from '../google/calendar/grant-shape.js';
import { gmailGrantShape } from '../google/gmail/grant-shape.js';
import type { GrantShape } from '../tools/types.js';
import { hostsIn, inDomain } from './addresses.js';
import { checkConstraint } from './constraint.js';
import { grantOptions } from './grant-options.js';
import { constraintHolds, fitsScope, grantRecord } from './grant-scope.js';

// Issue 27 item 1: what a scoped grant checks — the constraint read the way the tool reads it,
// and every argument it does not mention as approved.

/** Whether each call runs under a grant made from `approved` (false: it asks). */
function fits(
  approved: Record<string, unknown>,
  c: GrantConstraint,
  shape: GrantShape | undefined,
  calls: Record<string, unknown>[],
): boolean[] {
  const constraint = checkConstraint(c, approved, shape);
  const g = { constraint, fixed: grantRecord(approved, constraint, shape) };
  return calls.map((args) => fitsScope(g, args, shape));
}

const DOMAIN: GrantConstraint = { path: 'to', op: 'domain', value: 'example.com' };

describe('third-party tools (no shape): the strictest reading', () => {
  const approved = { to: 'ann@example.com', body: 'hi' };
  it('the constrained argument may change, within the domain, as bare addresses or plain links', () => {
    expect(
      fits(approved, DOMAIN, undefined, [
        { to: 'bob@example.com', body: 'hi' },
        { to: 'bob@example.com, dan@sub.example.com', body: 'hi' },
        { to: ['bob@EXAMPLE.com'], body: 'hi' },
        { to: 'https://example.com/inbox', body: 'hi' },
      ]),
    ).toEqual([true, true, true, true]);
  });

  it('anything a server could read two ways, or another domain, asks', () => {
    expect(
      fits(
        approved,
        DOMAIN,
        undefined,
        [
          'evil@evil.test carol@example.com',
          '<evil@evil.test> carol@example.com',
          'Carol <carol@example.com>',
          '"evil@evil.test" <carol@example.com>',
          'carol@example.com (evil@evil.test)',
          'bob@example.com;evil@evil.test',
          'bob@example.com\tevil@evil.test',
          'x%evil.test@example.com',
          'evil!evil.test@example.com',
          'eve@example.com.evil.test',
          'eve@evilexample.com',
          'https://example.com@evil.test/',
          'https://evil.test\\@example.com',
          'https://evil.test#@example.com',
          'https://evil.test/?example.com',
          '=?utf-8?B?ZXZpbEBldmlsLnRlc3Q=?= <carol@example.com>',
          '',
        ].map((to) => ({ to, body: 'hi' })),
      ),
    ).toEqual(new Array(17).fill(false));
  });

  it('every other argument must be absent or as approved', () => {
    expect(
      fits(approved, DOMAIN, undefined, [
        { to: 'bob@example.com', body: 'other text' },
        { to: 'bob@example.com', body: 'hi', cc: 'dan@example.com' },
        { to: 'bob@example.com' },
        JSON.parse('{"to":"bob@example.com","body":"hi","__proto__":"x"}') as Record<
          string,
          unknown
        >,
      ]),
    ).toEqual([false, false, false, false]);
  });

  it('a domain must cover every address and link anywhere in the arguments', () => {
    expect(() =>
      checkConstraint(DOMAIN, { to: 'ann@example.com', body: 'see http://evil.test/x' }),
    ).toThrow(/does not hold/);
    for (const hidden of [
      'mail evil%40evil.test',
      'mail evil＠evil.test',
      'mail evil&#64;evil.test',
      'see //evil.test/x',
      'mailto:evil@evil.test',
      // A domain under evil.test: a host read up to the "_" would be example.com.
      'cc a@example.com_x.evil.test',
    ])
      expect(hostsIn({ note: hidden })?.every((h) => inDomain(h, 'example.com')) ?? false).toBe(
        false,
      );
    expect(hostsIn({ 'evil@evil.test': 1 })).toEqual(['evil.test']); // keys too
    expect(hostsIn({ n: 'a@my_team.example.com' })).toEqual(['my_team.example.com']);
    expect(
      constraintHolds(
        DOMAIN,
        { to: 'ann@example.com', cc: 'a@example.com_x.evil.test' },
        undefined,
      ),
    ).toBe(false);
    expect(hostsIn({ n: 'user@ nowhere' })).toBeNull(); // an "@" with no host to place
  });

  it('an equals grant holds for the value, or a list of it alone — not of it several times', () => {
    const c: GrantConstraint = { path: 'to', op: 'equals', value: '+15550100' };
    expect(
      fits({ to: '+15550100', text: 'Hi' }, c, undefined, [
        { to: '+15550100', text: 'Hi' },
        { to: ['+15550100'], text: 'Hi' },
        { to: ['+15550100', '+15550100', '+15550100'], text: 'Hi' },
        { to: [], text: 'Hi' },
      ]),
    ).toEqual([true, true, false, false]);
  });

  it('an equals grant holds everything else as approved, nested values included', () => {
    const c: GrantConstraint = { path: 'event.organizer', op: 'equals', value: 'ann@example.com' };
    const base = { event: { organizer: 'ann@example.com', room: 'A' }, notify: true };
    expect(
      fits(base, c, undefined, [
        { event: { organizer: 'ann@example.com', room: 'A' }, notify: true },
        { event: { organizer: 'ann@example.com', room: 'B' }, notify: true },
        { event: { organizer: 'ann@example.com', room: 'A' } },
        { event: { organizer: 'eve@example.com', room: 'A' }, notify: true },
      ]),
    ).toEqual([true, false, false, false]);
  });
});

describe('Gmail: recipients as the composer reads them, in to, cc and bcc', () => {
  const shape = gmailGrantShape('gmail_send')!;
  const approved = { to: ['carol@example.com'], subject: 'Plan', body: 'See it.' };
  it('a domain grant covers all three fields; subject and body are content', () => {
    expect(
      fits(approved, DOMAIN, shape, [
        { to: ['Dave <dave@example.com>'], cc: ['erin@example.com'], subject: 'X', body: 'Y' },
        { to: ['carol@example.com'], bcc: ['evil@evil.test'], subject: 'Plan', body: 'See it.' },
        { to: ['carol@example.com'], cc: ['evil@evil.test'], subject: 'Plan', body: 'See it.' },
        { to: ['evil@evil.test carol@example.com'], subject: 'Plan', body: 'See it.' },
        { ...approved, account: 'other@example.com' },
        { ...approved, reply_to_message_id: 'm1' },
      ]),
    ).toEqual([true, false, false, false, false, false]);
  });

  it('a domain applies to recipients only', () => {
    expect(() =>
      checkConstraint({ path: 'subject', op: 'domain', value: 'example.com' }, approved, shape),
    ).toThrow(/recipients \(to, cc, bcc\)/);
  });

  it('offers one domain for all recipients when the parser puts them in one, and says what else holds', () => {
    const opts = grantOptions(
      { to: ['Ann <ann@example.com>'], cc: ['bob@Example.com'], subject: 'Hi', body: 'x' },
      shape,
    );
    expect(opts[0]).toEqual({
      label: 'Only when every recipient (to, cc, bcc) is in @example.com',
      note: 'subject, body and attachments may differ, everything else as in the call you approved',
      constraint: { path: 'to', op: 'domain', value: 'example.com' },
    });
    expect(opts.map((o) => o.constraint.op)).toEqual(['domain', 'equals', 'equals']);
    // The domain offered is where the composer sends, not what the text seems to say.
    const hidden = grantOptions(
      { to: ['evil@evil.test carol@example.com'], subject: 'Hi', body: 'x' },
      shape,
    );
    expect(hidden.filter((o) => o.constraint.op === 'domain').map((o) => o.label)).toEqual([
      'Only when every recipient (to, cc, bcc) is in @evil.test',
    ]);
    const mixed = grantOptions(
      { to: ['carol@example.com'], bcc: ['evil@evil.test'], subject: 'Hi', body: 'x' },
      shape,
    );
    expect(mixed.some((o) => o.constraint.op === 'domain')).toBe(false);
  });
});

describe('Calendar: guests as the write tools read them', () => {
  // The event's guests as the call's own read found them (event-guests.ts); unread throws.
  const onEvent = new Map<string, string[]>();
  const existing = {
    guests: (args: Record<string, unknown>) => {
      const g = onEvent.get(String(args.event_id));
      if (!g) throw new Error('not read');
      return g;
    },
    self: () => 'me@mine.test',
  };

  it('a new event: attendees in the domain; title, times and text may change; the calendar may not', () => {
    const shape = calendarGrantShape('calendar_create_event', existing)!;
    const c: GrantConstraint = { path: 'attendees', op: 'domain', value: 'example.com' };
    const approved = { summary: 'Sync', start: '2026-03-10T10:00', attendees: ['bob@example.com'] };
    expect(
      fits(approved, c, shape, [
        {
          summary: 'Other',
          start: '2026-04-01',
          attendees: ['Bob@Example.com', 'dan@example.com'],
        },
        { ...approved, attendees: ['bob@example.com', 'evil@evil.test'] },
        { ...approved, attendees: ['Bob <bob@example.com>'] },
        { ...approved, attendees: [] },
        { ...approved, calendar_id: 'team@group.calendar.google.com' },
        { ...approved, send_updates: 'none' },
      ]),
    ).toEqual([true, false, false, false, false, false]);
  });

  it('an update: guests added and removed in the domain, on the same event with the same changes', () => {
    const shape = calendarGrantShape('calendar_update_event', existing)!;
    const c: GrantConstraint = { path: 'add_attendees', op: 'domain', value: 'example.com' };
    const approved = { event_id: 'e1', add_attendees: ['bob@example.com'] };
    onEvent.set('e1', ['carol@example.com']);
    onEvent.set('e2', ['carol@example.com']);
    expect(
      fits(approved, c, shape, [
        { event_id: 'e1', add_attendees: ['dan@example.com'], remove_attendees: ['x@example.com'] },
        { event_id: 'e1', add_attendees: ['dan@example.com'], attendees: ['evil@evil.test'] },
        { event_id: 'e1', add_attendees: ['dan@example.com'], remove_attendees: ['e@evil.test'] },
        { event_id: 'e2', add_attendees: ['dan@example.com'] },
        { event_id: 'e1', add_attendees: ['dan@example.com'], description: 'new text' },
      ]),
    ).toEqual([true, false, false, false, false]);
  });

  it("an update or delete also reaches the event's existing guests, read before the check", () => {
    const update = calendarGrantShape('calendar_update_event', existing)!;
    const DOMAIN: GrantConstraint = { path: 'add_attendees', op: 'domain', value: 'example.com' };
    onEvent.set('e1', ['carol@example.com']);
    const approved = { event_id: 'e1', add_attendees: ['bob@example.com'], send_updates: 'none' };
    const g = { constraint: DOMAIN, fixed: grantRecord(approved, DOMAIN, update) };
    const later = { ...approved, add_attendees: ['dan@example.com'] };
    const now = (
      guests: string[] | undefined,
      shape = update,
      grant = g,
      args: Record<string, unknown> = later,
    ) => {
      if (guests) onEvent.set('e1', guests);
      else onEvent.delete('e1');
      return fitsScope(grant, args, shape);
    };
    expect(now(['carol@example.com'])).toBe(true);
    // "none" stops the e-mail, not the change on the outside guest's calendar.
    expect(now(['carol@example.com', 'eve@evil.test'])).toBe(false);
    expect(now(undefined)).toBe(false); // not read: asks

    const EXACT: GrantConstraint = { path: 'event_id', op: 'equals', value: 'e1' };
    onEvent.set('e1', ['carol@example.com', 'dave@example.com']);
    const ge = { constraint: EXACT, fixed: grantRecord(approved, EXACT, update) };
    expect(now(['dave@example.com'], update, ge, approved)).toBe(true);
    expect(now(['dave@example.com', 'bob@example.com'], update, ge, approved)).toBe(true);
    expect(now(['carol@example.com', 'erin@example.com'], update, ge, approved)).toBe(false);

    const del = calendarGrantShape('calendar_delete_event', existing)!;
    onEvent.set('e1', ['carol@example.com']);
    const gd = { constraint: EXACT, fixed: grantRecord({ event_id: 'e1' }, EXACT, del) };
    expect(now(['carol@example.com'], del, gd, { event_id: 'e1' })).toBe(true);
    expect(now(['carol@example.com', 'eve@evil.test'], del, gd, { event_id: 'e1' })).toBe(false);
    expect(now(undefined, del, gd, { event_id: 'e1' })).toBe(false);

    // An event without guests reaches the user alone: a grant holds to that, and asks once a
    // guest is on it.
    onEvent.set('e1', []);
    const gu = { constraint: EXACT, fixed: grantRecord({ event_id: 'e1' }, EXACT, del) };
    expect(now([], del, gu, { event_id: 'e1' })).toBe(true);
    expect(now(['carol@example.com'], del, gu, { event_id: 'e1' })).toBe(false);
  });
});

describe('recipients from state (recipientsFromState): the grant holds to whom the approved call sent', () => {
  // A tool whose arguments name a thing (a draft) whose recipients live elsewhere and can change.
  const state = new Map<string, string[]>([['d1', ['ann@example.com', 'bob@example.com']]]);
  const shape: GrantShape = {
    recipientArgs: ['draft_id'],
    contentArgs: [],
    recipientsFromState: true,
    destinations: (args) => {
      const to = state.get(String(args.draft_id));
      if (!to) throw new Error('not read');
      return to;
    },
  };
  const EXACT: GrantConstraint = { path: 'draft_id', op: 'equals', value: 'd1' };
  const g = { constraint: EXACT, fixed: grantRecord({ draft_id: 'd1' }, EXACT, shape) };
  const now = (to: string[] | undefined) => {
    if (to) state.set('d1', to);
    else state.delete('d1');
    return fitsScope(g, { draft_id: 'd1' }, shape);
  };

  it('an equals grant covers the same thing only while it goes to the approved recipients or some of them', () => {
    expect(now(['bob@example.com', 'ann@example.com'])).toBe(true);
    expect(now(['ann@example.com'])).toBe(true);
    expect(now(['ann@example.com', 'eve@evil.test'])).toBe(false);
    expect(now(['carl@example.com'])).toBe(false);
    expect(now([])).toBe(false);
    expect(now(undefined)).toBe(false); // could not be read: asks
  });

  it('a record made the old way (the fixed part alone) never matches; nothing readable, no grant', () => {
    state.set('d1', ['ann@example.com']);
    expect(fitsScope({ constraint: EXACT, fixed: '{}' }, { draft_id: 'd1' }, shape)).toBe(false);
    expect(() => grantRecord({ draft_id: 'd9' }, EXACT, shape)).toThrow();
    expect(grantOptions({ draft_id: 'd9' }, shape)).toEqual([]);
    const exact = grantOptions({ draft_id: 'd1' }, shape).find((o) => o.constraint.op === 'equals');
    expect(exact?.note).toMatch(/^only while it goes to ann@example\.com \(or some of them\)/);
  });
});

describe('domains', () => {
  it('compares in IDNA ASCII form; look-alikes and invalid names never match', () => {
    expect(inDomain('ｅxample.com', 'example.com')).toBe(true);
    expect(inDomain('Sub.EXAMPLE.com', '@example.com')).toBe(true);
    expect(inDomain('exämple.com', 'example.com')).toBe(false);
    expect(inDomain('example.com.evil.test', 'example.com')).toBe(false);
    expect(inDomain('evilexample.com', 'example.com')).toBe(false);
    expect(inDomain('', 'example.com')).toBe(false);
    expect(constraintHolds(DOMAIN, { to: 'a@example.com' }, undefined)).toBe(true);
  });

  it('a name domainToASCII would read only the head of (it ends a URL host at / ? # \\) never matches', () => {
    // domainToASCII("example.com/.evil.test") is "example.com"; the address names a domain under
    // evil.test, and Calendar sends the attendee to Google as written.
    for (const end of ['/', '?', '#', '\\']) {
      expect(inDomain(`example.com${end}.evil.test`, 'example.com'), end).toBe(false);
      expect(inDomain('example.com', `example.com${end}.evil.test`), end).toBe(false);
    }
    // Nor is such a domain offered: the grant dialog proposes the domain the call's guests share.
    const shape = calendarGrantShape('calendar_create_event', {
      guests: () => [],
      self: () => 'me@mine.test',
    })!;
    const call = { summary: 'Sync', start: '2026-03-10', attendees: ['x@example.com/.evil.test'] };
    expect(grantOptions(call, shape).filter((o) => o.constraint.op === 'domain')).toEqual([]);
  });
});
