import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account } from '../../../e2e/fake-google/calendar-access.js';
import {
  ALICE,
  BOB,
  calendarTestbed,
  type CalendarTestbed,
} from '../../../e2e/fake-google/calendar-testbed.js';

let t: CalendarTestbed;
beforeEach(async () => {
  t = await calendarTestbed('2026-03-01T12:00:00Z');
});
afterEach(async () => t.stop());

const check = (tool: string, args: Record<string, unknown>) =>
  t.source.precheck(tool, args, new AbortController().signal);
const writes = () => t.fake.requests.filter((r) => r.method !== 'GET');

function seedOne(summary = 'Dentist') {
  return t.fake.seed(ALICE, 'primary', {
    summary,
    start: { dateTime: '2026-03-05T09:00:00-05:00' },
    end: { dateTime: '2026-03-05T10:00:00-05:00' },
  });
}

describe('Calendar checks before the user is asked (issue 33 item 4)', () => {
  it('names an event id that does not exist, or an event already deleted', async () => {
    expect(await check('calendar_delete_event', { event_id: 'nosuchevent0' })).toBe(
      `There is no event with id nosuchevent0 in calendar primary of ${ALICE}. Event ids come from calendar_list_events or calendar_get_event.`,
    );
    const ev = seedOne();
    expect(
      await check('calendar_update_event', { event_id: ev.id, summary: 'Dentist!' }),
    ).toBeNull();
    expect((await t.call('calendar_delete_event', { event_id: ev.id })).isError).toBeFalsy();
    expect(await check('calendar_respond', { event_id: ev.id, response: 'accept' })).toMatch(
      new RegExp(
        `^(There is no event with id ${ev.id}|Event ${ev.id} in calendar primary of ${ALICE} has been deleted)`,
      ),
    );
    expect(writes()).toHaveLength(1);
  });

  it('names a calendar that does not exist, and keeps the zone it read for the approval', async () => {
    expect(
      await check('calendar_create_event', {
        summary: 'x',
        start: '2026-03-05T09:00',
        duration_minutes: 30,
        calendar_id: 'nope@group.calendar.google.com',
      }),
    ).toBe(
      `There is no calendar nope@group.calendar.google.com in ${ALICE}. calendar_list_calendars lists the calendars.`,
    );
    const args = {
      summary: 'Standup',
      start: '2026-12-01T10:00',
      duration_minutes: 15,
      calendar_id: 'berlin@group.calendar.google.com',
    };
    expect(await check('calendar_create_event', args)).toBeNull();
    expect(t.source.describeEffect('calendar_create_event', args)).toContain(
      'Tue 1 Dec 10:00–10:15 (Europe/Berlin)',
    );
  });

  it('asks which occurrences before the approval when the target is a series', async () => {
    const series = t.fake.seed(ALICE, 'primary', {
      summary: 'Standup',
      start: { dateTime: '2026-03-03T09:00:00-05:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-03T09:15:00-05:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6'],
    });
    expect(await check('calendar_delete_event', { event_id: series.id })).toBe(
      '"Standup" is part of a recurring series. Say which occurrences you mean with scope: "this_instance", "this_and_following", "all".',
    );
    expect(await check('calendar_delete_event', { event_id: series.id, scope: 'all' })).toBeNull();
  });

  it('refuses an account that cannot write, or whose grant lacks Calendar, without asking Google', async () => {
    expect(await check('calendar_create_event', { summary: 'x', account: BOB })).toBe(
      `The Google account ${BOB} is connected read-only. Usable accounts: ${ALICE}.`,
    );
    t.access.setAccounts([
      { ...account(ALICE), scopes: ['https://www.googleapis.com/auth/gmail.modify'] },
    ]);
    expect(await check('calendar_delete_event', { event_id: 'x' })).toMatch(
      new RegExp(`^${ALICE} did not allow Airlock to use Google Calendar when it was connected\\.`),
    );
    expect(t.fake.requests).toHaveLength(0);
  });

  it('leaves the call to the approval when Google cannot answer', async () => {
    const ev = seedOne();
    t.fake.failNext({ status: 503, path: /\/events\// });
    expect(await check('calendar_delete_event', { event_id: ev.id })).toBeNull();
  });
});
