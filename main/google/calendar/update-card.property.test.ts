import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, calendarTestbed } from '../../../e2e/fake-google/calendar-testbed.js';

/**
 * The approval card of calendar_update_event states the times the write sends: over generated
 * events (timed, all-day, of several lengths) and time changes (a new start alone, an end alone,
 * a length alone, and their pairs; dates and times; a zone given or not), the card's "time → …"
 * is the write's own, as its result states it (the same words, from the same reading). A card
 * that read the arguments alone showed a moved all-day event as one day where the write kept its
 * three, and a new start alone as "A timed event needs end or duration_minutes." while the write
 * moved the event, keeping its length. Against the fake Calendar API, through the source.
 */

let t: Awaited<ReturnType<typeof calendarTestbed>>;
beforeAll(async () => {
  t = await calendarTestbed();
  await t.source.warmUp();
});
afterAll(() => t.stop());

const signal = new AbortController().signal;
const day = fc.integer({ min: 2, max: 27 }).map((d) => `2026-03-${String(d).padStart(2, '0')}`);
const clock = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

/** The event before the change: timed (New York) or all-day, of several lengths. */
const event = fc.oneof(
  fc
    .tuple(day, fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 48 }))
    .map(([d, h, quarters]) => {
      const start = new Date(`${d}T${String(h).padStart(2, '0')}:00:00-04:00`);
      const end = new Date(start.getTime() + quarters * 15 * 60_000);
      return { start: { dateTime: start.toISOString() }, end: { dateTime: end.toISOString() } };
    }),
  fc.tuple(day, fc.integer({ min: 1, max: 4 })).map(([d, days]) => {
    const end = new Date(`${d}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + days);
    return { start: { date: d }, end: { date: end.toISOString().slice(0, 10) } };
  }),
);

const when = fc.oneof(
  fc.tuple(day, clock).map(([d, c]) => `${d}T${c}`),
  day,
  fc.tuple(day, clock).map(([d, c]) => `${d}T${c}:00+05:30`),
);
/** A time change: a new start, end or length alone, or a start with an end or a length; a zone or not. */
const change = fc
  .tuple(
    fc.oneof(
      when.map((start) => ({ start })),
      when.map((end) => ({ end })),
      fc.integer({ min: 1, max: 600 }).map((duration_minutes) => ({ duration_minutes })),
      fc.tuple(when, when).map(([start, end]) => ({ start, end })),
      fc
        .tuple(when, fc.integer({ min: 1, max: 600 }))
        .map(([start, duration_minutes]) => ({ start, duration_minutes })),
    ),
    fc.option(fc.constantFrom('Europe/Berlin', 'America/New_York'), { nil: undefined }),
  )
  .map(([c, zone]) => (zone ? { ...c, time_zone: zone } : c));

describe("property: calendar_update_event's card states the times the write sends", () => {
  it('the card names the time the write sets, in the same words', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(event, change, async (times, c) => {
        const ev = t.fake.seed(ALICE, 'primary', { summary: 'Planning', ...times });
        const given = { event_id: ev.id, send_updates: 'none', ...c };
        if (t.source.validateArgs('calendar_update_event', given) !== null) return;
        // As the call path does: the read binds the call to the version it read (CallContent.bind).
        const content = await t.source.callContent('calendar_update_event', given, signal);
        const args = { ...content?.bind, ...given };
        const card = await t.source.describeEffectAsync('calendar_update_event', args);
        const r = await t.call('calendar_update_event', args);
        if (r.isError) {
          // Refused (an end before its start, a length for an all-day event): the card said so.
          const why = (r.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
          expect(card).toContain(`this call will FAIL: ${why}`);
          return;
        }
        const changes = (r.structuredContent as { changes: string[] }).changes;
        const written = changes.find((w) => w.startsWith('time → '));
        expect(written, JSON.stringify(changes)).toBeDefined();
        expect(card, `${JSON.stringify(c)} on ${JSON.stringify(times)}`).toContain(written);
        compared++;
      }),
      // A fixed seed: the floor below counts generated cases (house rule).
      { numRuns: 250, seed: 20261204 },
    );
    console.log(`updates whose card and write were compared: ${compared} of 250`);
    expect(compared).toBeGreaterThan(80);
  }, 300_000);

  it('of an occurrence of a series, under every scope, the first occurrence and a resized one too', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom('this_instance', 'this_and_following', 'all'),
        fc.option(fc.integer({ min: 20, max: 90 }), { nil: undefined }),
        fc.oneof(
          clock.map((c) => ({ start: `T${c}` })),
          fc.integer({ min: 5, max: 120 }).map((duration_minutes) => ({ duration_minutes })),
          clock.map((c) => ({ end: `T${c}` })),
        ),
        async (nth, scope, resized, change) => {
          t.fake.seed(ALICE, 'primary', {
            summary: 'Standup',
            start: { dateTime: '2026-03-03T09:00:00-05:00', timeZone: 'America/New_York' },
            end: { dateTime: '2026-03-03T09:15:00-05:00', timeZone: 'America/New_York' },
            recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6'],
          });
          const day = new Date(Date.UTC(2026, 2, 3 + 7 * nth)).toISOString().slice(0, 10);
          const listed = await t.call('calendar_list_events', { time_min: day, time_max: day });
          const occurrence = (
            listed.structuredContent as { events: { id: string; summary: string }[] }
          ).events.filter((e) => e.summary === 'Standup')[0]!;
          // An occurrence moved or resized on its own is not as long as its series.
          if (resized !== undefined)
            await t.call('calendar_update_event', {
              event_id: occurrence.id,
              scope: 'this_instance',
              duration_minutes: resized,
              send_updates: 'none',
            });
          const given: Record<string, unknown> = {
            event_id: occurrence.id,
            scope,
            send_updates: 'none',
            ...('start' in change ? { start: `${day}${change.start}` } : {}),
            ...('end' in change ? { end: `${day}${change.end}` } : {}),
            ...('duration_minutes' in change ? { duration_minutes: change.duration_minutes } : {}),
          };
          if (t.source.validateArgs('calendar_update_event', given) !== null) return;
          const content = await t.source.callContent('calendar_update_event', given, signal);
          const args = { ...content?.bind, ...given };
          const card = await t.source.describeEffectAsync('calendar_update_event', args);
          const r = await t.call('calendar_update_event', args);
          if (r.isError) return;
          const changes = (r.structuredContent as { changes: string[] }).changes;
          const written = changes.find((w) => w.startsWith('time → '))!;
          expect(card, `${JSON.stringify(given)}, resized ${resized}`).toContain(written);
          compared++;
        },
      ),
      { numRuns: 80, seed: 20261204 },
    );
    console.log(`series updates whose card and write were compared: ${compared} of 80`);
    expect(compared).toBeGreaterThan(25);
  }, 300_000);

  it('the card without the event (the synchronous text) says only what the arguments settle', () => {
    const card = (args: Record<string, unknown>) =>
      t.source.describeEffect('calendar_update_event', { event_id: 'e1', ...args });
    expect(card({ start: '2026-03-12T14:00' })).toBe(
      'Change an event: time → starts 2026-03-12T14:00, keeping its length — any guests will be e-mailed. Event id: “e1”',
    );
    expect(card({ end: '2026-03-12T15:00' })).toBe(
      'Change an event: new end time — any guests will be e-mailed. Event id: “e1”',
    );
    expect(card({ start: '2026-03-12T14:00', duration_minutes: 30 })).toMatch(
      /^Change an event: time → Thu 12 Mar 14:00–14:30 \(America\/New_York\).*\. Event id: “e1”$/,
    );
  });
});

describe('the card of a call not bound to a version (no read to find) reads the series too', () => {
  it('"this and following" from a resized occurrence: the series\' length, as the write sets', async () => {
    t.fake.seed(ALICE, 'primary', {
      summary: 'Retro',
      start: { dateTime: '2026-03-05T09:00:00-05:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-05T09:15:00-05:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=6'],
    });
    const day = '2026-03-19';
    const listed = await t.call('calendar_list_events', { time_min: day, time_max: day });
    const occurrence = (
      listed.structuredContent as { events: { id: string; summary: string }[] }
    ).events.find((e) => e.summary === 'Retro')!;
    await t.call('calendar_update_event', {
      event_id: occurrence.id,
      scope: 'this_instance',
      duration_minutes: 60,
      send_updates: 'none',
    });
    // No callContent: the card finds no read and reads the event itself (effects.ts), as the
    // write does when nothing binds it.
    const args = {
      event_id: occurrence.id,
      scope: 'this_and_following',
      start: `${day}T10:00`,
      send_updates: 'none',
    };
    const card = await t.source.describeEffectAsync('calendar_update_event', args);
    const r = await t.call('calendar_update_event', args);
    expect(r.isError).toBeFalsy();
    const changes = (r.structuredContent as { changes: string[] }).changes;
    const written = changes.find((w) => w.startsWith('time → '))!;
    expect(written).toContain('10:00–10:15');
    expect(card).toContain(written);
  });
});
