import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ALICE,
  BOB,
  calendarTestbed,
  events,
  text,
  type CalendarTestbed,
} from '../../../e2e/fake-google/calendar-testbed.js';

let t: CalendarTestbed;
beforeEach(async () => {
  t = await calendarTestbed('2026-03-01T12:00:00Z');
});
afterEach(async () => t.stop());

const BERLIN = 'berlin@group.calendar.google.com';
const inserts = () => t.fake.calls('POST', /\/events$/);
const patches = () => t.fake.calls('PATCH', /\/events\//);

/** A weekly Tuesday 09:00 America/New_York series of six, 3 Mar – 7 Apr 2026 (crosses DST on 8 Mar). */
function seedSeries() {
  return t.fake.seed(ALICE, 'primary', {
    summary: 'Standup',
    start: { dateTime: '2026-03-03T09:00:00-05:00', timeZone: 'America/New_York' },
    end: { dateTime: '2026-03-03T09:15:00-05:00', timeZone: 'America/New_York' },
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6'],
    attendees: [{ email: ALICE }, { email: BOB }],
  });
}

async function listMarch() {
  return events(
    await t.call('calendar_list_events', { time_min: '2026-03-01', time_max: '2026-04-30' }),
  ).map((e) => `${e.start} ${e.summary}`);
}

async function instanceOn(date: string) {
  const r = await t.call('calendar_list_events', { time_min: date, time_max: date });
  return events(r)[0]!;
}

describe('calendar_create_event', () => {
  it('records sendUpdates as asked and says invitations go out; the approval summary reads like a sentence', async () => {
    const args = {
      summary: 'Standup',
      start: '2026-12-01T10:00',
      duration_minutes: 15,
      calendar_id: BERLIN,
      attendees: ['a@example.org', 'b@example.org', 'c@example.org'],
    };
    // Before the calendar's zone is known the sync summary says so; the async one asks Google.
    expect(t.source.describeEffect('calendar_create_event', args)).toBe(
      "Create an event, 2026-12-01T10:00 (in the calendar's time zone), 3 attendees, on calendar berlin@group.calendar.google.com — invitations will be e-mailed. Title: “Standup”",
    );
    expect(await t.source.describeEffectAsync('calendar_create_event', args)).toBe(
      'Create an event, Tue 1 Dec 10:00–10:15 (Europe/Berlin), 3 attendees, on calendar berlin@group.calendar.google.com — invitations will be e-mailed. Title: “Standup”',
    );
    const r = await t.call('calendar_create_event', args);
    expect(r.isError).toBeFalsy();
    expect(text(r)).toMatch(
      /Created "Standup", Tue 1 Dec 10:00–10:15 \(UTC\+01:00\) \(Europe\/Berlin\).*\nInvitations e-mailed to 3 guest\(s\)\./,
    );
    expect(inserts()).toHaveLength(1);
    expect(inserts()[0]!.query.sendUpdates).toBe('all');
    expect(inserts()[0]!.body).toMatchObject({
      start: { dateTime: '2026-12-01T10:00:00+01:00', timeZone: 'Europe/Berlin' },
    });
    // Now the zone is cached, the sync summary is complete too.
    expect(
      t.source.describeEffect('calendar_create_event', { ...args, send_updates: 'none' }),
    ).toBe(
      'Create an event, Tue 1 Dec 10:00–10:15 (Europe/Berlin), 3 attendees, on calendar berlin@group.calendar.google.com — no invitations will be sent. Title: “Standup”',
    );
    await t.call('calendar_create_event', { ...args, send_updates: 'none' });
    expect(inserts()[1]!.query.sendUpdates).toBe('none');
    // The issue's own example, on the primary calendar with an explicit zone.
    const { calendar_id: _c, ...primary } = args;
    expect(
      t.source.describeEffect('calendar_create_event', { ...primary, time_zone: 'Europe/Berlin' }),
    ).toBe(
      'Create an event, Tue 1 Dec 10:00–10:15 (Europe/Berlin), 3 attendees — invitations will be e-mailed. Title: “Standup”',
    );
  });

  it('creates an all-day event as dates (UTC+14), with a Meet link', async () => {
    const r = await t.call('calendar_create_event', {
      summary: 'Offsite',
      start: '2026-03-10',
      end: '2026-03-11',
      calendar_id: 'kiritimati@group.calendar.google.com',
      add_meet_link: true,
    });
    expect(r.isError).toBeFalsy();
    const sent = inserts()[0]!;
    expect(sent.body).toMatchObject({
      start: { date: '2026-03-10' },
      end: { date: '2026-03-12' },
      conferenceData: { createRequest: { conferenceSolutionKey: { type: 'hangoutsMeet' } } },
    });
    expect(sent.query.conferenceDataVersion).toBe('1');
    expect(text(r)).toMatch(/Tue 10 Mar – Wed 11 Mar \(all day\)/);
    expect(text(r)).toMatch(/Meet link: https:\/\/meet\.google\.com\//);
  });

  it('refuses an invalid zone and an end before the start, and nothing reaches Google', async () => {
    const zone = await t.call('calendar_create_event', {
      summary: 'x',
      start: '2026-03-10T10:00',
      duration_minutes: 5,
      time_zone: 'Europe/Berlinn',
    });
    expect(text(zone)).toMatch(/"Europe\/Berlinn" is not an IANA time zone name/);
    const backwards = await t.call('calendar_create_event', {
      summary: 'x',
      start: '2026-03-10T10:00',
      end: '2026-03-10T09:00',
    });
    expect(backwards.isError).toBe(true);
    expect(text(backwards)).toMatch(
      /end \(2026-03-10T09:00:00-04:00\) must be after start \(2026-03-10T10:00:00-04:00\)/,
    );
    const gap = await t.call('calendar_create_event', {
      summary: 'x',
      start: '2026-03-08T02:30',
      duration_minutes: 30,
    });
    expect(text(gap)).toMatch(/does not exist in America\/New_York/);
    expect(inserts()).toHaveLength(0);
  });

  it('warns about an overlap on the same calendar, in the result and in the approval', async () => {
    t.fake.seed(ALICE, 'primary', {
      summary: 'Team sync',
      start: { dateTime: '2026-03-10T10:00:00-04:00' },
      end: { dateTime: '2026-03-10T11:00:00-04:00' },
    });
    t.fake.seed(ALICE, 'primary', {
      summary: 'Shown free',
      transparency: 'transparent',
      start: { dateTime: '2026-03-10T10:00:00-04:00' },
      end: { dateTime: '2026-03-10T11:00:00-04:00' },
    });
    const args = { summary: '1:1', start: '2026-03-10T10:30', end: '2026-03-10T11:30' };
    expect(await t.source.describeEffectAsync('calendar_create_event', args)).toBe(
      'Create an event, Tue 10 Mar 10:30–11:30 (America/New_York). Warning: overlaps an event (Tue 10 Mar 10:00–11:00 (UTC-04:00)). Title: “1:1”. Overlapping: “Team sync”',
    );
    const r = await t.call('calendar_create_event', args);
    expect(text(r)).toMatch(
      /Warning: overlaps "Team sync" \(Tue 10 Mar 10:00–11:00 \(UTC-04:00\)\) on the same calendar\./,
    );
    expect((r.structuredContent as { overlaps: unknown[] }).overlaps).toHaveLength(1);
    const clear = await t.call('calendar_create_event', {
      ...args,
      start: '2026-03-10T12:00',
      end: '2026-03-10T12:30',
    });
    expect(text(clear)).not.toMatch(/overlaps/);
  });
});

describe('calendar_update_event on a single event', () => {
  it('patches only what is given, keeps the length when only start moves, and warns about a new overlap', async () => {
    const e = t.fake.seed(ALICE, 'primary', {
      summary: 'Lunch',
      location: 'Cafe',
      start: { dateTime: '2026-03-10T12:00:00-04:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-10T13:00:00-04:00', timeZone: 'America/New_York' },
    });
    t.fake.seed(ALICE, 'primary', {
      summary: 'Call',
      start: { dateTime: '2026-03-10T14:30:00-04:00' },
      end: { dateTime: '2026-03-10T15:00:00-04:00' },
    });
    const r = await t.call('calendar_update_event', { event_id: e.id, start: '2026-03-10T14:00' });
    expect(r.isError).toBeFalsy();
    expect(patches()[0]!.body).toEqual({
      start: { dateTime: '2026-03-10T14:00:00-04:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-10T15:00:00-04:00', timeZone: 'America/New_York' },
    });
    expect(text(r)).toMatch(/Warning: overlaps "Call"/);
    const end = await t.call('calendar_update_event', { event_id: e.id, end: '2026-03-10T13:00' });
    expect(text(end)).toMatch(
      /end \(2026-03-10T13:00:00-04:00\) must be after start \(2026-03-10T14:00:00-04:00\)/,
    );
    expect(patches()).toHaveLength(1);
  });
});

describe('calendar_update_event on a recurring series', () => {
  it('asks which occurrences are meant when scope is missing', async () => {
    seedSeries();
    const inst = await instanceOn('2026-03-17');
    const r = await t.call('calendar_update_event', { event_id: inst.id, summary: 'x' });
    expect(text(r)).toMatch(
      /part of a recurring series.*"this_instance", "this_and_following", "all"/,
    );
    expect(patches()).toHaveLength(0);
  });

  it('this_instance changes one occurrence only', async () => {
    seedSeries();
    const inst = await instanceOn('2026-03-17');
    const r = await t.call('calendar_update_event', {
      event_id: inst.id,
      scope: 'this_instance',
      start: '2026-03-17T11:00',
      send_updates: 'none',
    });
    expect(r.isError).toBeFalsy();
    expect(patches()[0]!.path).toBe(`/calendars/primary/events/${inst.id}`);
    expect(patches()[0]!.query.sendUpdates).toBe('none');
    expect(await listMarch()).toEqual([
      '2026-03-03T09:00:00-05:00 Standup',
      '2026-03-10T09:00:00-04:00 Standup',
      '2026-03-17T11:00:00-04:00 Standup',
      '2026-03-24T09:00:00-04:00 Standup',
      '2026-03-31T09:00:00-04:00 Standup',
      '2026-04-07T09:00:00-04:00 Standup',
    ]);
  });

  it('all moves the whole series to the new local hour, on both sides of DST', async () => {
    const master = seedSeries();
    const inst = await instanceOn('2026-03-17');
    const r = await t.call('calendar_update_event', {
      event_id: inst.id,
      scope: 'all',
      start: '2026-03-17T10:00',
      summary: 'Daily-ish',
    });
    expect(r.isError).toBeFalsy();
    expect(patches()[0]!.path).toBe(`/calendars/primary/events/${master.id}`);
    expect(patches()[0]!.body).toMatchObject({
      start: { dateTime: '2026-03-03T10:00:00-05:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-03T10:15:00-05:00' },
    });
    const list = await listMarch();
    expect(list).toHaveLength(6);
    expect(list.every((l) => /T10:00:00-0[45]:00 Daily-ish$/.test(l))).toBe(true);
    // Instance ids follow the series' start, so they changed with it (as on Google).
    const moved = await instanceOn('2026-03-17');
    expect(moved.id).not.toBe(inst.id);
    const moveDay = await t.call('calendar_update_event', {
      event_id: moved.id,
      scope: 'all',
      start: '2026-03-18T10:00',
    });
    expect(text(moveDay)).toMatch(/needs its rule changed/);
  });

  it('this_and_following splits the series: the original ends before it, a new series starts at it', async () => {
    const master = seedSeries();
    const inst = await instanceOn('2026-03-17');
    const r = await t.call('calendar_update_event', {
      event_id: inst.id,
      scope: 'this_and_following',
      start: '2026-03-17T10:30',
      summary: 'New standup',
    });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toMatch(
      /original series .* now ends before 2026-03-17T09:00:00-04:00; a new series/,
    );
    expect(patches()[0]!.body).toEqual({
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20260317T125959Z'],
    });
    expect(patches()[0]!.path).toBe(`/calendars/primary/events/${master.id}`);
    expect(inserts()[0]!.body).toMatchObject({
      summary: 'New standup',
      start: { dateTime: '2026-03-17T10:30:00-04:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-17T10:45:00-04:00' },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4'],
      attendees: [{ email: ALICE }, { email: BOB }],
    });
    expect(await listMarch()).toEqual([
      '2026-03-03T09:00:00-05:00 Standup',
      '2026-03-10T09:00:00-04:00 Standup',
      '2026-03-17T10:30:00-04:00 New standup',
      '2026-03-24T10:30:00-04:00 New standup',
      '2026-03-31T10:30:00-04:00 New standup',
      '2026-04-07T10:30:00-04:00 New standup',
    ]);
  });

  it('this_and_following restores the original series when the new one cannot be created', async () => {
    seedSeries();
    const inst = await instanceOn('2026-03-24');
    t.fake.failNext({ method: 'POST', path: /\/events$/, status: 500 });
    const r = await t.call('calendar_update_event', {
      event_id: inst.id,
      scope: 'this_and_following',
      summary: 'Later',
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/could not be created .* original series was restored unchanged/);
    expect(patches().map((p) => p.body)).toEqual([
      { recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20260324T125959Z'] },
      { recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6'] },
    ]);
    expect(await listMarch()).toHaveLength(6);
  });

  it("describes the change for the approval with the event's own title and the scope", async () => {
    seedSeries();
    const inst = await instanceOn('2026-03-17');
    const args = { event_id: inst.id, scope: 'this_and_following', summary: 'New standup' };
    expect(await t.source.describeEffectAsync('calendar_update_event', args)).toBe(
      'Change the event (Tue 17 Mar 09:00–09:15 (UTC-04:00)), this and all following occurrences: new title — updates will be e-mailed. Event: “Standup”. New title: “New standup”',
    );
  });
});

describe('delete and respond', () => {
  it('deletes one occurrence, or this and following by ending the series', async () => {
    const master = seedSeries();
    const third = await instanceOn('2026-03-17');
    expect(
      (await t.call('calendar_delete_event', { event_id: third.id, scope: 'this_instance' }))
        .isError,
    ).toBeFalsy();
    expect(t.fake.calls('DELETE', /\/events\//)[0]!.path).toBe(
      `/calendars/primary/events/${third.id}`,
    );
    const fifth = await instanceOn('2026-03-31');
    const r = await t.call('calendar_delete_event', {
      event_id: fifth.id,
      scope: 'this_and_following',
      send_updates: 'none',
    });
    expect(text(r)).toMatch(/the series now ends before it/);
    expect(patches()[0]).toMatchObject({
      path: `/calendars/primary/events/${master.id}`,
      query: { sendUpdates: 'none' },
    });
    expect(await listMarch()).toEqual([
      '2026-03-03T09:00:00-05:00 Standup',
      '2026-03-10T09:00:00-04:00 Standup',
      '2026-03-24T09:00:00-04:00 Standup',
    ]);
  });

  it('responds as the attendee; the organizer cannot answer their own event', async () => {
    const invite = t.fake.seed(ALICE, 'primary', {
      summary: 'Board',
      start: { dateTime: '2026-03-10T10:00:00-04:00' },
      end: { dateTime: '2026-03-10T11:00:00-04:00' },
      organizer: { email: 'ceo@example.org' },
      attendees: [
        { email: 'ceo@example.org', organizer: true, responseStatus: 'accepted' },
        { email: ALICE },
      ],
    });
    // The fake's insert makes the calendar owner organizer; an invitation is organized by someone else.
    t.fake.store.get(ALICE, 'primary').events.get(invite.id!)!.organizer = {
      email: 'ceo@example.org',
    };
    const r = await t.call('calendar_respond', {
      event_id: invite.id,
      response: 'tentative',
      comment: 'May be late',
    });
    expect(r.isError).toBeFalsy();
    expect(patches()[0]!.query.sendUpdates).toBe('all');
    expect(patches()[0]!.body).toEqual({
      attendees: [
        { email: 'ceo@example.org', organizer: true, responseStatus: 'accepted' },
        { email: ALICE, responseStatus: 'tentative', self: true, comment: 'May be late' },
      ],
    });
    const own = t.fake.seed(ALICE, 'primary', {
      summary: 'Mine',
      start: { date: '2026-03-11' },
      end: { date: '2026-03-12' },
      attendees: [{ email: ALICE }],
    });
    expect(
      text(await t.call('calendar_respond', { event_id: own.id, response: 'decline' })),
    ).toMatch(/You organize "Mine"/);
  });
});
