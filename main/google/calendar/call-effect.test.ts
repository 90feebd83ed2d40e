import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALICE,
  calendarTestbed,
  type CalendarTestbed,
} from '../../../e2e/fake-google/calendar-testbed.js';

/**
 * The effect a Calendar call declares (CallContent.effect, call-effect.ts) is what the tool does:
 * read through the source's own callContent (and argsReach, its fallback), then the call run
 * against the fake Calendar API and what it stored looked at.
 */

let t: CalendarTestbed;
const signal = new AbortController().signal;

beforeAll(async () => {
  t = await calendarTestbed();
});
afterAll(async () => {
  await t.stop();
});

async function effectOf(tool: string, args: Record<string, unknown>) {
  const declared = (await t.source.callContent(tool, args, signal))?.effect;
  expect(t.source.argsReach(tool, args)?.effect).toBe(declared);
  return declared;
}

function stored(id: string) {
  return t.fake.store.get(ALICE, ALICE).events.get(id);
}

function invitation(): string {
  const e = t.fake.seed(ALICE, ALICE, {
    summary: 'Board',
    start: { dateTime: '2026-03-10T10:00:00-04:00' },
    end: { dateTime: '2026-03-10T11:00:00-04:00' },
    attendees: [
      { email: 'ceo@example.org', organizer: true, responseStatus: 'accepted' },
      { email: ALICE },
    ],
  });
  stored(e.id!)!.organizer = { email: 'ceo@example.org' };
  return e.id!;
}

describe('Calendar calls declare what they destroy or answer for the user', () => {
  it('calendar_delete_event declares it, and deletes', async () => {
    const e = t.fake.seed(ALICE, ALICE, {
      summary: 'Dentist',
      start: { dateTime: '2026-03-09T10:00:00-04:00' },
      end: { dateTime: '2026-03-09T11:00:00-04:00' },
    });
    expect(await effectOf('calendar_delete_event', { event_id: e.id })).toBe(
      'deletes an event from your calendar',
    );
    expect((await t.call('calendar_delete_event', { event_id: e.id })).isError).toBeFalsy();
    const left = stored(e.id!);
    expect(left === undefined || left.status === 'cancelled').toBe(true);
  });

  it('calendar_respond declares every answer it sends for the user, and a decline as one', async () => {
    const status = { accept: 'accepted', tentative: 'tentative', decline: 'declined' };
    for (const response of ['accept', 'tentative', 'decline'] as const) {
      const id = invitation();
      const declared = await effectOf('calendar_respond', { event_id: id, response });
      expect((await t.call('calendar_respond', { event_id: id, response })).isError).toBeFalsy();
      const mine = stored(id)!.attendees!.find((a) => a.email === ALICE)!;
      expect(mine.responseStatus).toBe(status[response]);
      expect(declared).toBeDefined();
      expect(declared!.startsWith('declines')).toBe(response === 'decline');
    }
  });

  it('an update declares removing guests exactly when a guest it read is gone after it runs', async () => {
    const pool = ['bob@example.org', 'carol@example.org', 'dave@example.org'];
    const some = fc.subarray(pool);
    await fc.assert(
      fc.asyncProperty(
        some,
        fc.oneof(
          some.map((a) => ({ attendees: a })),
          fc.record({ add_attendees: some, remove_attendees: some }),
        ),
        async (guests, change) => {
          const e = t.fake.seed(ALICE, ALICE, {
            summary: 'Sync',
            start: { dateTime: '2026-03-11T10:00:00-04:00' },
            end: { dateTime: '2026-03-11T11:00:00-04:00' },
            attendees: [{ email: ALICE, organizer: true }, ...guests.map((email) => ({ email }))],
          });
          const args = { event_id: e.id!, send_updates: 'none', ...change };
          const declared = (await t.source.callContent('calendar_update_event', args, signal))
            ?.effect;
          // From the arguments alone (the read failed), a new guest list may drop anyone.
          if (t.source.argsReach('calendar_update_event', args)?.effect === undefined)
            expect(declared).toBeUndefined();
          const r = await t.call('calendar_update_event', args);
          if (r.isError) return; // Refused (nothing to change): nothing done.
          const after = new Set((stored(e.id!)!.attendees ?? []).map((a) => a.email));
          expect(declared !== undefined).toBe(guests.some((g) => !after.has(g)));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("an update that changes a series' rule declares it can end the series, and it does", async () => {
    const e = t.fake.seed(ALICE, ALICE, {
      summary: 'Weekly',
      start: { dateTime: '2026-03-02T10:00:00-05:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-02T11:00:00-05:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=10'],
    });
    const args = { event_id: e.id!, scope: 'all', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=1'] };
    expect(await effectOf('calendar_update_event', args)).toMatch(/can end the series/);
    const r = await t.call('calendar_update_event', args);
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(stored(e.id!)!.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=1']);
  });

  it('"this and following" declares the split it makes, and only when it splits', async () => {
    // splitSeries ends the original series before the occurrence and inserts the rest as a new
    // event: its guests are invited afresh. From the first occurrence it changes the whole series.
    const series = () => {
      const e = t.fake.seed(ALICE, ALICE, {
        summary: 'Weekly',
        start: { dateTime: '2026-03-02T10:00:00-05:00', timeZone: 'America/New_York' },
        end: { dateTime: '2026-03-02T11:00:00-05:00', timeZone: 'America/New_York' },
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
        attendees: [
          { email: ALICE, organizer: true, responseStatus: 'accepted' },
          { email: 'bob@example.org', responseStatus: 'accepted' },
        ],
      });
      const cal = t.fake.store.get(ALICE, ALICE);
      const ids = t.fake.store.instances(cal, stored(e.id!)!, Infinity, false).map((i) => i.id!);
      return { id: e.id!, ids };
    };
    const events = () => t.fake.store.get(ALICE, ALICE).events;
    // Bob's entries on the series and on any event the call made.
    const bobs = (id: string, before: Set<string>) =>
      [...events().values()]
        .filter((ev) => ev.id === id || !before.has(ev.id!))
        .flatMap((ev) => (ev.attendees ?? []).filter((a) => a.email === 'bob@example.org'));
    for (const [nth, splitting] of [
      [2, true],
      [0, false],
    ] as const) {
      const { id, ids } = series();
      const args = {
        event_id: ids[nth],
        scope: 'this_and_following',
        color: 'sage',
        send_updates: 'none',
      };
      const declared = (await t.source.callContent('calendar_update_event', args, signal))?.effect;
      const before = new Set(events().keys());
      const r = await t.call('calendar_update_event', args);
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      // Stated apart: the original series' rule changed, and a guest's answer is gone.
      const ended = JSON.stringify(stored(id)!.recurrence) !== '["RRULE:FREQ=WEEKLY;COUNT=6"]';
      const asked = bobs(id, before).some((a) => a.responseStatus !== 'accepted');
      expect([ended, asked]).toEqual([splitting, splitting]);
      expect(declared === undefined ? undefined : /^ends a recurring series/.test(declared)).toBe(
        splitting ? true : undefined,
      );
    }
    // From the arguments alone (the read failed), it may split.
    expect(
      t.source.argsReach('calendar_update_event', {
        event_id: 'e',
        scope: 'this_and_following',
        color: 'sage',
      })?.effect,
    ).toMatch(/^ends a recurring series/);
  });

  it('a new event declares declining exactly when Google stores one that auto-declines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('default', 'out_of_office', 'focus_time'),
        fc.option(fc.constantFrom('none', 'all_conflicting', 'new_conflicting'), {
          nil: undefined,
        }),
        async (type, decline) => {
          const args: Record<string, unknown> = {
            summary: 'Away',
            start: '2026-03-05T09:00',
            end: '2026-03-05T17:00',
            event_type: type,
            ...(decline ? { auto_decline: decline } : {}),
          };
          const declared = await effectOf('calendar_create_event', args);
          const before = t.fake.calls('POST', /\/events$/).length;
          const r = await t.call('calendar_create_event', args);
          if (r.isError) {
            expect(t.fake.calls('POST', /\/events$/).length).toBe(before);
            return;
          }
          const body = t.fake.calls('POST', /\/events$/).at(-1)!.body as Record<
            string,
            { autoDeclineMode?: string } | undefined
          >;
          const mode = (body.outOfOfficeProperties ?? body.focusTimeProperties)?.autoDeclineMode;
          expect(declared !== undefined).toBe(mode !== undefined && mode !== 'declineNone');
        },
      ),
      { numRuns: 30 },
    );
  });

  it('an update declares what it overwrites exactly when the stored event lost it', async () => {
    type Ev = NonNullable<ReturnType<typeof stored>>;
    const text = (old: string) =>
      fc.constantFrom(
        undefined,
        '',
        ' ',
        old,
        `${old} (room 4)`,
        `(${old}).`,
        old.toLowerCase(),
        'Cancelled',
        // The old text run on into a longer number or word: no longer what the event said.
        `${old}5`,
        `x${old}`,
      );
    const A = 'https://drive.google.com/file/d/agenda';
    const B = 'https://docs.google.com/document/d/minutes';
    const C = 'https://drive.google.com/file/d/other';
    const before = fc.record({
      summary: fc.constantFrom(undefined, '', 'Board review'),
      description: fc.constantFrom(undefined, '', 'Dial-in 555 0100', '  Dial-in 555 0100  '),
      location: fc.constantFrom(undefined, 'Room 4'),
      reminders: fc.constantFrom(
        undefined,
        { useDefault: true },
        { useDefault: false, overrides: [] },
        { useDefault: false, overrides: [{ method: 'popup', minutes: 10 }] },
      ),
      attachments: fc.constantFrom(undefined, [], [A], [A, B]),
    });
    const change = fc.record(
      {
        summary: text('Board review'),
        description: text('Dial-in 555 0100'),
        location: text('Room 4'),
        reminders: fc.constantFrom('default', [], [{ method: 'email', minutes: 30 }]),
        attachments: fc.constantFrom([], [A], [B], [A, B], [C]),
        color: fc.constantFrom('sage', 'tomato'),
      },
      { requiredKeys: [] },
    );
    let [ran, lost] = [0, 0];
    await fc.assert(
      fc.asyncProperty(before, change, async (b, c) => {
        const seeded: Record<string, unknown> = {
          start: { dateTime: '2026-03-12T10:00:00-04:00' },
          end: { dateTime: '2026-03-12T11:00:00-04:00' },
        };
        const { attachments, ...fields } = b;
        for (const [k, v] of Object.entries(fields)) if (v !== undefined) seeded[k] = v;
        const e = t.fake.seed(ALICE, ALICE, seeded);
        // Seeding drops attachments (an insert without supportsAttachments): set on the store.
        if (attachments) stored(e.id!)!.attachments = attachments.map((fileUrl) => ({ fileUrl }));
        const args: Record<string, unknown> = { event_id: e.id!, send_updates: 'none' };
        for (const [k, v] of Object.entries(c))
          if (v !== undefined)
            args[k] = k === 'attachments' ? (v as string[]).map((url) => ({ url })) : v;
        const old: Ev = structuredClone(stored(e.id!)!);
        const declared = (await t.source.callContent('calendar_update_event', args, signal))
          ?.effect;
        // From the arguments alone (the read failed), whatever the patch names may replace
        // something: never less than with the read.
        if (declared !== undefined)
          expect(t.source.argsReach('calendar_update_event', args)?.effect).toBeDefined();
        const r = await t.call('calendar_update_event', args);
        if (r.isError) {
          expect(stored(e.id!)!.etag).toBe(old.etag); // Refused: nothing changed.
          return;
        }
        const now = stored(e.id!)!;
        // Stated apart from call-effect.ts: text the event held is no longer in it; reminders
        // it had (its own, or the calendar's: useDefault or absent) are off; a file it had is
        // no longer attached.
        // "No longer in it": not there whole, as a word or number not run on into a longer one.
        const gone = (k: 'summary' | 'description' | 'location') => {
          const was = (old[k] ?? '').trim();
          const esc = was.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
          const whole = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${esc}(?![\\p{L}\\p{N}\\p{M}])`, 'u');
          return was !== '' && !whole.test(now[k] ?? '');
        };
        const had = (e: Ev) =>
          !e.reminders ||
          e.reminders.useDefault !== false ||
          (e.reminders.overrides ?? []).length > 0;
        // Its own reminders given up for the calendar's defaults, which may be none.
        const ownGone =
          (old.reminders?.overrides ?? []).length > 0 && now.reminders?.useDefault === true;
        const files = (e: Ev) => (e.attachments ?? []).map((a) => a.fileUrl);
        const lostNow =
          gone('summary') ||
          gone('description') ||
          gone('location') ||
          (had(old) && !had(now)) ||
          ownGone ||
          files(old).some((f) => !files(now).includes(f));
        expect(declared !== undefined, JSON.stringify({ b, c, declared })).toBe(lostNow);
        ran++;
        if (lostNow) lost++;
      }),
      { numRuns: 80 },
    );
    expect(lost).toBeGreaterThan(5);
    expect(ran - lost).toBeGreaterThan(5);
  });

  it('each overwrite an update declares, in its words; and what it does not declare', async () => {
    const e = t.fake.seed(ALICE, ALICE, {
      summary: 'Board review',
      description: 'Dial-in 555 0100',
      location: 'Room 4',
      start: { dateTime: '2026-03-13T10:00:00-04:00' },
      end: { dateTime: '2026-03-13T11:00:00-04:00' },
      reminders: { useDefault: true },
    });
    const id = e.id!;
    stored(id)!.attachments = [{ fileUrl: 'https://drive.google.com/file/d/agenda' }];
    const cases: [Record<string, unknown>, string | undefined][] = [
      [{ description: '' }, "empties an event's description"],
      [{ location: '' }, "empties an event's location"],
      [{ summary: 'Cancelled' }, "replaces an event's title"],
      [{ description: 'Call me instead' }, "replaces an event's description"],
      [{ reminders: [] }, "turns off an event's reminders"],
      [{ attachments: [] }, 'removes files attached to an event'],
      // The old text run on into another number or word: replaced, though a substring.
      [{ location: 'Room 45' }, "replaces an event's location"],
      [{ summary: 'Board reviews' }, "replaces an event's title"],
      [{ description: 'Dial-in 555 01009' }, "replaces an event's description"],
      // A letter outside the BMP (a surrogate pair) run on to it counts as one.
      [{ location: '\u{1d400}Room 4' }, "replaces an event's location"],
      // Kept: the old text is in the new, reminders stay on, the file stays attached.
      [{ summary: 'Board review (moved)' }, undefined],
      [{ location: 'Room 4.' }, undefined],
      [{ location: 'Not Room 40: Room 4' }, undefined],
      // Its reminders are the calendar's already: "default" changes nothing.
      [{ reminders: 'default' }, undefined],
      [{ description: 'Dial-in 555 0100\nAgenda attached.' }, undefined],
      [{ reminders: [{ method: 'popup', minutes: 5 }] }, undefined],
      [
        {
          attachments: [
            { url: 'https://drive.google.com/file/d/agenda' },
            { url: 'https://drive.google.com/file/d/more' },
          ],
        },
        undefined,
      ],
      // A new time, a colour, a Meet link, a guest added: nothing destroyed, hidden or answered.
      [{ start: '2026-04-20T15:00', duration_minutes: 30 }, undefined],
      [{ color: 'tomato', add_meet_link: true }, undefined],
      [{ add_attendees: ['bob@example.org'] }, undefined],
    ];
    for (const [change, words] of cases) {
      const args = { event_id: id, send_updates: 'none', ...change };
      expect((await t.source.callContent('calendar_update_event', args, signal))?.effect).toBe(
        words,
      );
    }
    // The one that empties the description does.
    const args = { event_id: id, send_updates: 'none', description: '' };
    await t.source.callContent('calendar_update_event', args, signal);
    expect((await t.call('calendar_update_event', args)).isError).toBeFalsy();
    expect(stored(id)!.description ?? '').toBe('');
  });

  it("a change to the whole series is judged against the series' text, not the occurrence's", async () => {
    const e = t.fake.seed(ALICE, ALICE, {
      summary: 'Weekly sync',
      description: 'Series notes',
      start: { dateTime: '2026-03-02T10:00:00-05:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-02T11:00:00-05:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'],
    });
    const cal = t.fake.store.get(ALICE, ALICE);
    const second = t.fake.store.instances(cal, stored(e.id!)!, Infinity, false)[1]!.id!;
    // This occurrence alone says something else (an exception).
    cal.exceptions.set(second, { description: 'Occurrence notes' });
    const args = { event_id: second, scope: 'all', description: 'Occurrence notes' };
    expect((await t.source.callContent('calendar_update_event', args, signal))?.effect).toBe(
      "replaces an event's description",
    );
    const r = await t.call('calendar_update_event', args);
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(stored(e.id!)!.description).toBe('Occurrence notes');
    // The occurrence alone: its own text is what the patch replaces, and it keeps it.
    const own = {
      event_id: second,
      scope: 'this_instance',
      description: 'Occurrence notes, room 4',
    };
    expect(
      (await t.source.callContent('calendar_update_event', own, signal))?.effect,
    ).toBeUndefined();
  });

  it('every Calendar tool is accounted for: which declare an effect, and which never do', async () => {
    // Each tool Airlock offers, from its arguments (argsReach); an update or a new event declares
    // one only for some arguments (the tests above), shown here both ways. A new tool fails here
    // until it is placed.
    const cases: [tool: string, args: Record<string, unknown>, declares: boolean][] = [
      ['calendar_list_calendars', {}, false],
      ['calendar_list_events', {}, false],
      ['calendar_get_event', { event_id: 'e' }, false],
      ['calendar_freebusy', {}, false],
      ['calendar_find_free_time', { duration_minutes: 30 }, false],
      ['calendar_create_event', { summary: 'x', start: '2026-03-05T09:00' }, false],
      [
        'calendar_create_event',
        {
          summary: 'Away',
          start: '2026-03-05T09:00',
          end: '2026-03-05T17:00',
          event_type: 'out_of_office',
          auto_decline: 'all_conflicting',
        },
        true,
      ],
      ['calendar_update_event', { event_id: 'e', color: 'sage' }, false],
      ['calendar_update_event', { event_id: 'e', description: '' }, true],
      ['calendar_delete_event', { event_id: 'e' }, true],
      ['calendar_respond', { event_id: 'e', response: 'accept' }, true],
    ];
    const offered = t.source.tools().map((d) => d.name);
    expect([...new Set(cases.map((c) => c[0]))].sort()).toEqual([...offered].sort());
    for (const [tool, args, declares] of cases)
      expect(t.source.argsReach(tool, args)?.effect !== undefined, tool).toBe(declares);
  });

  it("an update that gives up an event's own reminders for the calendar's defaults declares it", async () => {
    // The calendar's defaults (CalendarList defaultReminders) may be none: the event would then
    // remind of nothing, and neither the check nor the write reads them.
    const e = t.fake.seed(ALICE, ALICE, {
      summary: 'Dentist',
      start: { dateTime: '2026-03-16T10:00:00-04:00' },
      end: { dateTime: '2026-03-16T11:00:00-04:00' },
      reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 60 }] },
    });
    const args = { event_id: e.id!, reminders: 'default' };
    expect(await effectOf('calendar_update_event', args)).toBe(
      "replaces an event's own reminders with the calendar's defaults (maybe none)",
    );
    expect((await t.call('calendar_update_event', args)).isError).toBeFalsy();
    expect(stored(e.id!)!.reminders).toEqual({ useDefault: true });
  });

  it('an update whose event could not be read declares whatever its patch may replace', () => {
    // From the arguments alone (argsReach, the fallback when the read fails): each field the
    // patch names may overwrite something the event held.
    const cases: [Record<string, unknown>, string][] = [
      [{ summary: 'Board review (moved)' }, "replaces an event's title"],
      [{ location: '' }, "empties an event's location"],
      [{ reminders: [] }, "turns off an event's reminders"],
      [
        { reminders: 'default' },
        "replaces an event's own reminders with the calendar's defaults (maybe none)",
      ],
      [
        { attachments: [{ url: 'https://drive.google.com/file/d/x' }] },
        'removes files attached to an event',
      ],
    ];
    for (const [change, words] of cases)
      expect(
        t.source.argsReach('calendar_update_event', { event_id: 'e', ...change })?.effect,
      ).toBe(words);
    expect(
      t.source.argsReach('calendar_update_event', { event_id: 'e', color: 'sage' })?.effect,
    ).toBeUndefined();
  });
});
