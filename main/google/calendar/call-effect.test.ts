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
});
