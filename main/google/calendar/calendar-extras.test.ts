import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ALICE,
  calendarTestbed,
  text,
  type CalendarTestbed,
} from '../../../e2e/fake-google/calendar-testbed.js';

let t: CalendarTestbed;
beforeEach(async () => {
  t = await calendarTestbed('2026-03-01T12:00:00Z');
});
afterEach(async () => t.stop());

const BERLIN = 'berlin@group.calendar.google.com';
const KIRITIMATI = 'kiritimati@group.calendar.google.com';
const inserts = () => t.fake.calls('POST', /\/events$/);
const stored = (calendar: string, id: string) => t.fake.store.get(ALICE, calendar).events.get(id)!;

describe('reminders, colour and Drive attachments (issue 33 item 5)', () => {
  it('creates them as Google takes them; the approval says when each reminder fires, in the calendar’s zone', async () => {
    const args = {
      summary: 'Board prep',
      start: '2026-12-01T10:00',
      duration_minutes: 60,
      calendar_id: BERLIN,
      reminders: [
        { method: 'popup', minutes: 10 },
        { method: 'email', minutes: 1440 },
      ],
      color: 'tomato',
      attachments: [{ url: 'https://docs.google.com/document/d/1AbC_dEf/edit', title: 'Agenda' }],
    };
    expect(await t.source.describeEffectAsync('calendar_create_event', args)).toBe(
      'Create an event, Tue 1 Dec 10:00–11:00 (Europe/Berlin), reminders: popup 10 min before (Tue 1 Dec 09:50), email 1440 min before (Mon 30 Nov 10:00), colour tomato, attachments: Agenda, on calendar berlin@group.calendar.google.com. Title: “Board prep”',
    );
    const r = await t.call('calendar_create_event', args);
    expect(r.isError).toBeFalsy();
    expect(text(r)).toContain(
      'With reminders: popup 10 min before (Tue 1 Dec 09:50), email 1440 min before (Mon 30 Nov 10:00); colour tomato; attachments: Agenda.',
    );
    const sent = inserts().at(-1)!;
    expect(sent.query.supportsAttachments).toBe('true');
    expect(sent.body).toMatchObject({
      reminders: {
        useDefault: false,
        overrides: [
          { method: 'popup', minutes: 10 },
          { method: 'email', minutes: 1440 },
        ],
      },
      colorId: '11',
      attachments: [
        { fileUrl: 'https://docs.google.com/document/d/1AbC_dEf/edit', title: 'Agenda' },
      ],
    });
    const id = (r.structuredContent as { event: { id: string } }).event.id;
    const got = await t.call('calendar_get_event', { event_id: id, calendar_id: BERLIN });
    expect(got.structuredContent).toMatchObject({
      event: {
        color: 'tomato',
        reminders: [
          { method: 'popup', minutes: 10 },
          { method: 'email', minutes: 1440 },
        ],
        attachments: [{ title: 'Agenda', url: 'https://docs.google.com/document/d/1AbC_dEf/edit' }],
      },
    });
    expect(text(got)).toContain(
      'reminders: popup 10 min before (Tue 1 Dec 09:50), email 1440 min before (Mon 30 Nov 10:00)',
    );
  });

  it('an all-day event’s reminders count back from its first midnight in the calendar’s zone, across DST', async () => {
    // 10 March in UTC+14: "15 h before" is 09:00 on the 9th there, whatever the machine's zone.
    const kiri = await t.source.describeEffectAsync('calendar_create_event', {
      summary: 'Holiday',
      start: '2026-03-10',
      calendar_id: KIRITIMATI,
      reminders: [{ method: 'email', minutes: 900 }],
    });
    expect(kiri).toContain('reminders: email 900 min before (Mon 9 Mar 09:00)');
    // New York springs forward on 8 March 2026: 24 h before midnight of the 9th (EDT) is 23:00 EST on the 7th.
    const ny = await t.source.describeEffectAsync('calendar_create_event', {
      summary: 'Trip',
      start: '2026-03-09',
      reminders: [{ method: 'popup', minutes: 1440 }],
    });
    expect(ny).toContain('reminders: popup 1440 min before (Sat 7 Mar 23:00)');
  });

  it('"default" uses the calendar’s reminders; [] means none; bad ones are refused before asking', async () => {
    const r = await t.call('calendar_create_event', {
      summary: 'x',
      start: '2026-03-05T09:00',
      duration_minutes: 15,
      reminders: 'default',
    });
    expect(inserts().at(-1)!.body).toMatchObject({ reminders: { useDefault: true } });
    const id = (r.structuredContent as { event: { id: string } }).event.id;
    await t.call('calendar_update_event', { event_id: id, reminders: [], color: 'basil' });
    const patch = t.fake.calls('PATCH', /\/events\//).at(-1)!;
    expect(patch.body).toEqual({ reminders: { useDefault: false, overrides: [] }, colorId: '10' });
    expect(
      t.source.validateArgs('calendar_create_event', {
        summary: 'x',
        start: '2026-03-05T09:00',
        duration_minutes: 15,
        attachments: [{ url: 'https://evil.example/d/1' }],
      }),
    ).toMatch(/^attachments\[0\]\.url must be a Google Drive link/);
    expect(
      t.source.validateArgs('calendar_update_event', {
        event_id: 'abc',
        reminders: Array.from({ length: 6 }, () => ({ method: 'popup', minutes: 5 })),
      }),
    ).toBe('reminders: at most 5.');
  });

  it('an update replaces the attachments and says supportsAttachments', async () => {
    const r = await t.call('calendar_create_event', {
      summary: 'x',
      start: '2026-03-05T09:00',
      duration_minutes: 15,
    });
    const id = (r.structuredContent as { event: { id: string } }).event.id;
    await t.call('calendar_update_event', {
      event_id: id,
      attachments: [{ url: 'https://drive.google.com/file/d/9xYz/view', title: 'Slides' }],
    });
    const patch = t.fake.calls('PATCH', /\/events\//).at(-1)!;
    expect(patch.query.supportsAttachments).toBe('true');
    const got = await t.call('calendar_get_event', { event_id: id });
    expect(text(got)).toContain('attachments: Slides <https://drive.google.com/file/d/9xYz/view>');
  });
});

describe('out of office and focus time (issue 33 item 5)', () => {
  it('makes a timed out-of-office event on the primary calendar; the approval says who gets declined', async () => {
    const args = {
      summary: 'Away',
      start: '2026-03-05T09:00',
      end: '2026-03-06T17:00',
      event_type: 'out_of_office',
      auto_decline: 'all_conflicting',
      decline_message: 'Back on Monday',
    };
    expect(t.source.describeEffect('calendar_create_event', args)).toContain(
      'out of office: existing and new invitations in that time are DECLINED (their organizers are told)',
    );
    const r = await t.call('calendar_create_event', args);
    expect(r.isError).toBeFalsy();
    expect(inserts().at(-1)!.body).toMatchObject({
      eventType: 'outOfOffice',
      transparency: 'opaque',
      outOfOfficeProperties: {
        autoDeclineMode: 'declineAllConflictingInvitations',
        declineMessage: 'Back on Monday',
      },
    });
    expect((r.structuredContent as { event: { event_type: string } }).event.event_type).toBe(
      'out_of_office',
    );
  });

  it('makes focus time with a Chat status', async () => {
    await t.call('calendar_create_event', {
      summary: 'Deep work',
      start: '2026-03-05T13:00',
      duration_minutes: 120,
      event_type: 'focus_time',
      chat_status: 'do_not_disturb',
    });
    expect(inserts().at(-1)!.body).toMatchObject({
      eventType: 'focusTime',
      focusTimeProperties: { autoDeclineMode: 'declineNone', chatStatus: 'doNotDisturb' },
    });
  });

  it('refuses before asking what Google would refuse: all-day, another calendar, guests, stray options', async () => {
    const base = { summary: 'Away', event_type: 'out_of_office' };
    const cases: [Record<string, unknown>, string][] = [
      [
        { start: '2026-03-05' },
        'An out-of-office event cannot be all-day: give start and end times.',
      ],
      [
        { start: '2026-03-05T09:00', duration_minutes: 30, calendar_id: BERLIN },
        'An out-of-office event can only be on the primary calendar (leave calendar_id out).',
      ],
      [
        { start: '2026-03-05T09:00', duration_minutes: 30, attendees: ['bob@example.com'] },
        'An out-of-office event has no guests or Meet link.',
      ],
      [
        {
          start: '2026-03-05T09:00',
          duration_minutes: 30,
          event_type: 'default',
          auto_decline: 'all_conflicting',
        },
        'auto_decline, decline_message and chat_status are for out_of_office or focus_time events.',
      ],
    ];
    for (const [args, message] of cases)
      expect(t.source.validateArgs('calendar_create_event', { ...base, ...args })).toBe(message);
    expect(inserts()).toHaveLength(0);
  });

  it('the fake keeps Google’s rules: no type change, attachments only with supportsAttachments', async () => {
    const cal = t.fake.store.get(ALICE, 'primary');
    const timed = {
      start: { dateTime: '2026-03-05T09:00:00-05:00' },
      end: { dateTime: '2026-03-05T10:00:00-05:00' },
    };
    expect(() =>
      t.fake.store.insert(
        cal,
        { eventType: 'focusTime', start: { date: '2026-03-05' }, end: { date: '2026-03-06' } },
        false,
      ),
    ).toThrow('focusTime events cannot be all-day.');
    expect(() =>
      t.fake.store.insert(
        t.fake.store.get(ALICE, BERLIN),
        { eventType: 'outOfOffice', ...timed },
        false,
      ),
    ).toThrow('outOfOffice events can only be created on the primary calendar.');
    const ev = t.fake.store.insert(
      cal,
      {
        summary: 'Plain',
        ...timed,
        attachments: [{ fileUrl: 'https://drive.google.com/file/d/1/view' }],
      },
      false,
    );
    expect(ev.attachments).toBeUndefined();
    expect(() => t.fake.store.patch(cal, ev.id!, { eventType: 'focusTime' }, false)).toThrow(
      'The event type cannot be changed.',
    );
    expect(() =>
      t.fake.store.patch(
        cal,
        ev.id!,
        { reminders: { useDefault: true, overrides: [{ method: 'popup', minutes: 1 }] } },
        false,
      ),
    ).toThrow('Cannot specify both default reminders and overrides at the same time.');
    const r = await t.call('calendar_update_event', { event_id: ev.id, color: 'sage' });
    expect(r.isError).toBeFalsy();
    expect(stored('primary', ev.id!)).toMatchObject({ colorId: '2' });
  });
});
