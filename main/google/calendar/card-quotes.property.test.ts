import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { quoted } from '../card-text.js';
import { describeCreate, describeOther } from './effects.js';
import { forgingText } from '../../../test-support/card-forging.js';

/**
 * Every Calendar card sentence says its facts first and its quoted values last, each after its
 * own label. A value — an event's title, which anyone who invites the user writes, or a title,
 * location, note or event id the agent gives — may hold any quote character and so close the
 * quote around it: quoted mid-sentence ("Change 'Sync' (Tue 10:00): title → 'X' — …") it wrote
 * the rest of the statement. Here each card is built twice, with plain values and with generated
 * ones, and must be the same statement followed by the same labels, the values only in their
 * slots: no value changes a word before it.
 */

const now = DateTime.fromISO('2026-12-04T09:00:00Z', { zone: 'UTC' });

/** Quote characters, line breaks, direction controls, and the words this card uses. */
const forging = forgingText([
  ': ',
  ' — no updates will be sent',
  ') — the organizer will be told',
  'this occurrence only',
  'Sat 5 Dec 10:00',
  'Event: ',
  'New title: ',
  'Sync',
]);

/** ". Label: 'value'" as the card writes each value after its statement. */
const tail = (pairs: [string, string][]) =>
  pairs.map(([label, v]) => `. ${label}: ${quoted(v)}`).join('');

/**
 * The card with plain values ends in their tail; the card with generated ones is the same
 * statement followed by their tail.
 */
function expectFactsFixed(
  build: (values: string[]) => string,
  labels: string[],
  values: string[],
  shown: (values: string[]) => string[] = (v) => v,
): void {
  const plainValues = labels.map((_, i) => `v${i}`);
  const plain = build(plainValues);
  const plainTail = tail(labels.map((l, i) => [l, plainValues[i]!]));
  expect(plain.endsWith(plainTail)).toBe(true);
  const facts = plain.slice(0, plain.length - plainTail.length);
  const seen = shown(values);
  expect(build(values)).toBe(facts + tail(labels.map((l, i) => [l, seen[i]!])));
}

function event(summary: string, organizer = 'org@example.com') {
  return {
    id: 'e1',
    summary,
    recurringEventId: 'series',
    start: { dateTime: '2026-12-05T10:00:00Z' },
    end: { dateTime: '2026-12-05T10:30:00Z' },
    attendees: [{ email: 'carol@example.com' }, { email: 'me@example.com', self: true }],
    organizer: { email: organizer },
  };
}

const scope = fc.constantFrom(undefined, 'this_instance', 'all');
const send = fc.constantFrom(undefined, 'none', 'externalOnly');

describe('property: a Calendar card’s quoted values change nothing before them', () => {
  it('create: the agent’s title, then the overlapping events’ titles, after the statement', () => {
    fc.assert(
      fc.property(forging, forging, forging, fc.boolean(), (title, o1, o2, guests) => {
        const args = {
          start: '2026-12-05T10:00:00Z',
          end: '2026-12-05T10:30:00Z',
          ...(guests ? { attendees: ['carol@example.com'] } : {}),
        };
        const build = ([t, a, b]: string[]) => {
          const card = describeCreate({ ...args, summary: t }, 'UTC', now, [
            { summary: a!, when: 'Sat 5 Dec 10:00–11:00' },
            { summary: b!, when: 'Sat 5 Dec 10:15–10:45' },
          ]);
          // The overlapping titles are one labelled list, last: written as the test's tail.
          const list = `. Overlapping: ${quoted(a!)}, ${quoted(b!)}`;
          expect(card.endsWith(list)).toBe(true);
          const o = tail([
            ['O1', a!],
            ['O2', b!],
          ]);
          return card.slice(0, card.length - list.length) + o;
        };
        expectFactsFixed(build, ['Title', 'O1', 'O2'], [title, o1, o2]);
        expect(build([title, o1, o2])).toMatch(
          /^Create an event, Sat 5 Dec 10:00–10:30 \(UTC\).*\. Warning: overlaps 2 events \(Sat 5 Dec 10:00–11:00; Sat 5 Dec 10:15–10:45\)\. Title: “/su,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('update: the event’s title, the new title and the new location after the statement', () => {
    fc.assert(
      fc.property(
        forging,
        forging,
        forging,
        scope,
        send,
        fc.boolean(),
        (old, title, location, sc, su, retime) => {
          const extra = {
            ...(sc ? { scope: sc } : {}),
            ...(su ? { send_updates: su } : {}),
            ...(retime ? { start: '2026-12-05T11:00:00Z' } : {}),
          };
          const build = ([o, t, l]: string[]) =>
            describeOther(
              'calendar_update_event',
              { event_id: 'e1', summary: t, location: l, ...extra },
              'UTC',
              now,
              event(o!),
            );
          expectFactsFixed(build, ['Event', 'New title', 'New location'], [old, title, location]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('update, delete and respond without the event read: the id the agent gave last', () => {
    fc.assert(
      fc.property(forging, forging, (id, title) => {
        expectFactsFixed(
          ([i, t]) =>
            describeOther('calendar_update_event', { event_id: i, summary: t }, 'UTC', now),
          ['Event id', 'New title'],
          [id, title],
        );
        expectFactsFixed(
          ([i]) => describeOther('calendar_delete_event', { event_id: i }, 'UTC', now),
          ['Event id'],
          [id],
        );
        expectFactsFixed(
          ([i]) =>
            describeOther('calendar_respond', { event_id: i, response: 'accept' }, 'UTC', now),
          ['Event id'],
          [id],
        );
      }),
      { numRuns: 300 },
    );
  });

  it('delete: the event’s title after the statement', () => {
    fc.assert(
      fc.property(forging, scope, send, (old, sc, su) => {
        const extra = { ...(sc ? { scope: sc } : {}), ...(su ? { send_updates: su } : {}) };
        expectFactsFixed(
          ([o]) =>
            describeOther(
              'calendar_delete_event',
              { event_id: 'e1', ...extra },
              'UTC',
              now,
              event(o!),
            ),
          ['Event'],
          [old],
        );
      }),
      { numRuns: 300 },
    );
  });

  it('respond: the event’s title, its organizer, then the note, after the statement', () => {
    fc.assert(
      fc.property(
        forging,
        forging,
        forging,
        fc.constantFrom('accept', 'decline', 'tentative'),
        send,
        (old, org, note, response, su) => {
          // A note with a word in it: a note of spaces alone is no note (the card says none).
          const comment = `${note} ok`;
          const extra = su ? { send_updates: su } : {};
          expectFactsFixed(
            ([o, g, c]) =>
              describeOther(
                'calendar_respond',
                { event_id: 'e1', response, comment: c, ...extra },
                'UTC',
                now,
                event(o!, g!),
              ),
            ['Event', 'Organizer', 'Note'],
            [old, org, comment],
            // The note is sent on one line, its spaces run together: the card shows it so.
            ([o, g, c]) => [o!, g!, c!.replace(/\s+/g, ' ').trim()],
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
