import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ALICE,
  BOB,
  calendarTestbed,
  text,
  type CalendarTestbed,
} from '../../../e2e/fake-google/calendar-testbed.js';

let t: CalendarTestbed;
beforeEach(async () => {
  t = await calendarTestbed('2026-03-01T12:00:00Z');
  // Alice (America/New_York) and Bob (Europe/Berlin), interleaved in time.
  t.fake.seed(ALICE, 'primary', {
    summary: 'Alice standup',
    start: { dateTime: '2026-03-02T09:00:00-05:00' },
    end: { dateTime: '2026-03-02T09:15:00-05:00' },
  });
  t.fake.seed(BOB, 'primary', {
    summary: 'Bob breakfast',
    start: { dateTime: '2026-03-02T08:00:00+01:00' },
    end: { dateTime: '2026-03-02T09:00:00+01:00' },
  });
  t.fake.seed(BOB, 'primary', {
    summary: 'Bob review',
    start: { dateTime: '2026-03-03T18:00:00+01:00' },
    end: { dateTime: '2026-03-03T19:00:00+01:00' },
  });
});
afterEach(async () => t.stop());

const listed = (s: string) =>
  [...s.matchAll(/^- \[([^\]]+)\] .*?"([^"]+)"/gm)].map((m) => `${m[1]}: ${m[2]}`);

describe('calendar reads across accounts (issue 33 item 6)', () => {
  it('lists every account’s primary calendar merged by start, each event naming its account', async () => {
    const r = await t.call('calendar_list_events', {
      account: 'all',
      time_min: '2026-03-02T00:00:00Z',
      time_max: '2026-03-05T00:00:00Z',
    });
    expect(r.isError).toBeFalsy();
    expect(listed(text(r))).toEqual([
      `${BOB}: Bob breakfast`,
      `${ALICE}: Alice standup`,
      `${BOB}: Bob review`,
    ]);
    const sc = r.structuredContent as {
      accounts: string[];
      events: { account: string; summary: string }[];
    };
    expect(sc.accounts).toEqual([ALICE, BOB]);
    expect(sc.events.map((e) => e.account)).toEqual([BOB, ALICE, BOB]);
    // Each account read in its own zone (Bob's events in Berlin time).
    expect(text(r)).toContain('times in America/New_York, Europe/Berlin');
  });

  it('pages each account with its own tokens, carried in one', async () => {
    const args = {
      account: [ALICE, BOB],
      time_min: '2026-03-02T00:00:00Z',
      time_max: '2026-03-05T00:00:00Z',
      max_results: 1,
    };
    const first = await t.call('calendar_list_events', args);
    const token = (first.structuredContent as { next_page_token?: string }).next_page_token!;
    expect(token).toMatch(/^acc\./);
    const second = await t.call('calendar_list_events', {
      ...args,
      account: undefined,
      page_token: token,
    });
    expect([...listed(text(first)), ...listed(text(second))].sort()).toEqual(
      [`${ALICE}: Alice standup`, `${BOB}: Bob breakfast`, `${BOB}: Bob review`].sort(),
    );
  });

  it('free/busy of every account in one zone; explicit calendars need one account', async () => {
    const r = await t.call('calendar_freebusy', {
      account: 'all',
      time_min: '2026-03-02T00:00:00Z',
      time_max: '2026-03-03T00:00:00Z',
    });
    expect(text(r)).toMatch(/^Busy times from .* \(America\/New_York\):/);
    expect(text(r)).toContain(`- ${ALICE}: Mon 2 Mar 09:00–09:15`);
    expect(text(r)).toContain(`- ${BOB}: Mon 2 Mar 02:00–03:00`);
    const refused = await t.call('calendar_freebusy', {
      account: 'all',
      calendars: ['berlin@group.calendar.google.com'],
    });
    expect(text(refused)).toMatch(/^calendars names calendars of one account/);
    const write = await t.call('calendar_delete_event', { event_id: 'x', account: [ALICE] });
    expect(text(write)).toMatch(/^calendar_delete_event works in one account at a time/);
  });

  it('an account that fails is reported beside the others', async () => {
    t.access.setAccounts(
      t.access
        .accounts()
        .map((a) => (a.email === BOB ? { ...a, state: 'needs_reconnect' as const } : a)),
    );
    const r = await t.call('calendar_list_events', {
      account: 'all',
      time_min: '2026-03-02T00:00:00Z',
      time_max: '2026-03-05T00:00:00Z',
    });
    expect(listed(text(r))).toEqual([`${ALICE}: Alice standup`]);
    expect(text(r)).toContain(
      `${BOB} could not be read: Google access for ${BOB} has ended; reconnect it in Airlock.`,
    );
    const busy = await t.call('calendar_freebusy', {
      account: 'all',
      time_min: '2026-03-02T00:00:00Z',
      time_max: '2026-03-03T00:00:00Z',
    });
    expect(text(busy)).toContain(`- ${BOB} could not be read: Google access for ${BOB} has ended`);
    expect(text(busy)).toContain(`- ${ALICE}: Mon 2 Mar 09:00–09:15`);
  });
});
