import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  calendarTestbed,
  events,
  text,
  type CalendarTestbed,
} from '../../../e2e/fake-google/calendar-testbed.js';

/**
 * Issue 18.1: a time zone passed once must not stick. The fake answers an
 * events list with the zone the request asked for (as Google does), so a
 * client that took that answer for the calendar's own zone would fail here.
 * Alice's primary calendar is in America/New_York.
 */

let t: CalendarTestbed;
beforeEach(async () => {
  t = await calendarTestbed('2026-03-01T12:00:00Z');
});
afterEach(async () => t.stop());

describe("the calendar's own zone, whatever a previous call asked for", () => {
  it('an events list in Asia/Tokyo does not change the zone of later calls without time_zone', async () => {
    t.fake.seed('alice@example.com', 'primary', {
      summary: 'Standup',
      start: { dateTime: '2026-03-10T09:00:00-04:00' },
      end: { dateTime: '2026-03-10T09:15:00-04:00' },
    });
    const tokyo = await t.call('calendar_list_events', {
      time_min: '2026-03-10',
      time_max: '2026-03-10',
      time_zone: 'Asia/Tokyo',
    });
    expect(tokyo.isError).toBeFalsy();
    // The request asked for Tokyo, and the answer echoed it: the fake is as Google is.
    const listed = t.fake.calls('GET', /^\/calendars\/[^/]+\/events$/);
    expect(listed.at(-1)!.query).toMatchObject({ timeZone: 'Asia/Tokyo' });
    expect(events(tokyo)[0]!.start).toBe('2026-03-10T22:00:00+09:00');

    // freebusy without time_zone: the calendar's zone.
    const busy = await t.call('calendar_freebusy', {
      time_min: '2026-03-10',
      time_max: '2026-03-10',
    });
    expect(busy.isError).toBeFalsy();
    expect(text(busy)).toContain('(America/New_York)');
    expect(busy.structuredContent).toMatchObject({ time_zone: 'America/New_York' });

    // An event created without time_zone lands at 09:30 in New York (13:30Z after the DST change), not in Tokyo.
    const created = await t.call('calendar_create_event', {
      summary: 'Planning',
      start: '2026-03-11T09:30',
      duration_minutes: 30,
    });
    expect(created.isError).toBeFalsy();
    const insert = t.fake.calls('POST', /\/events$/).at(-1)!.body as {
      start: { dateTime: string; timeZone?: string };
    };
    expect(new Date(insert.start.dateTime).toISOString()).toBe('2026-03-11T13:30:00.000Z');
    expect(text(created)).toContain('(America/New_York)');

    // A later list without time_zone reads and shows times in New York again.
    const plain = await t.call('calendar_list_events', {
      time_min: '2026-03-10',
      time_max: '2026-03-10',
    });
    expect(events(plain)[0]!.start).toBe('2026-03-10T09:00:00-04:00');
    expect(text(plain)).toContain(
      'from 2026-03-10T00:00:00-04:00 to 2026-03-11T00:00:00-04:00 (times in America/New_York)',
    );
    expect(
      t.fake.calls('GET', /^\/calendars\/[^/]+\/events$/).at(-1)!.query.timeZone,
    ).toBeUndefined();
  });

  it('a per-call time_zone applies to that call only, for a create as well', async () => {
    const inTokyo = await t.call('calendar_create_event', {
      summary: 'Call with Tokyo',
      start: '2026-03-11T09:30',
      duration_minutes: 30,
      time_zone: 'Asia/Tokyo',
    });
    expect(inTokyo.isError).toBeFalsy();
    const first = t.fake.calls('POST', /\/events$/).at(-1)!.body as { start: { dateTime: string } };
    expect(new Date(first.start.dateTime).toISOString()).toBe('2026-03-11T00:30:00.000Z');

    const plain = await t.call('calendar_create_event', {
      summary: 'Local',
      start: '2026-03-11T09:30',
      duration_minutes: 30,
    });
    expect(plain.isError).toBeFalsy();
    const second = t.fake.calls('POST', /\/events$/).at(-1)!.body as {
      start: { dateTime: string };
    };
    expect(new Date(second.start.dateTime).toISOString()).toBe('2026-03-11T13:30:00.000Z');
  });
});

describe("the approval's text before the calendar's zone is known", () => {
  it('reads no time in a zone the write does not: an end without an offset stays as written', async () => {
    // A calendar Airlock has not read yet (its zone, Europe/Berlin, is not cached): the write reads
    // an end without an offset in that zone, so the synchronous text must not read it in UTC.
    const args = {
      summary: 'Sync',
      calendar_id: 'berlin@group.calendar.google.com',
      start: '2026-03-10T10:00:00+01:00',
      end: '2026-03-10T12:00',
    };
    expect(t.source.describeEffect('calendar_create_event', args)).toBe(
      "Create an event, 2026-03-10T10:00:00+01:00 – 2026-03-10T12:00 (in the calendar's time zone), on calendar berlin@group.calendar.google.com. Title: “Sync”",
    );
    // With an offset on every time there is nothing to read in a zone: the text says the times.
    expect(
      t.source.describeEffect('calendar_create_event', {
        ...args,
        summary: 'Other',
        end: '2026-03-10T12:00:00+01:00',
      }),
    ).toMatch(/^Create an event, Tue 10 Mar 09:00–11:00 \(UTC\).*Title: “Other”$/);
    // The write: two hours in Berlin.
    const r = await t.call('calendar_create_event', args);
    expect(text(r)).toContain('Tue 10 Mar 10:00–12:00');
  });
});
