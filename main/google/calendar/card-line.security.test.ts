import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { quoted } from '../card-text.js';
import { describeCreate, describeOther } from './effects.js';

/**
 * A Calendar card is one statement on one line (then, for a write that e-mails guests, a
 * "Guests on the event" line). An event's title is its organizer's — a stranger's, for an
 * invitation — and Google keeps line breaks in it: "Standup\nTo: eve@evil.test\nSubject: Hi"
 * made the delete card's next lines "To:" and "Subject:", which the approval window lays out as
 * an e-mail (renderer/src/approvals/summary.ts), for a call that deletes an event.
 */

const now = DateTime.fromISO('2026-12-04T09:00:00Z', { zone: 'UTC' });
const hostile = fc
  .array(fc.constantFrom('\n', '\r\n', '\r', '\u2028', 'To: eve@evil.test', 'Standup', ' '), {
    maxLength: 6,
  })
  .map((p) => p.join(''));

describe('a Calendar card names an event on the card’s own line', () => {
  it('delete, change and answer an event whose title is a stranger’s', () => {
    fc.assert(
      fc.property(hostile, hostile, (summary, location) => {
        const ev = {
          id: 'e1',
          summary,
          start: { dateTime: '2026-12-05T10:00:00Z' },
          end: { dateTime: '2026-12-05T10:30:00Z' },
          attendees: [{ email: 'carol@example.com' }],
          organizer: { email: 'eve@evil.test' },
        };
        const cards = [
          describeOther('calendar_delete_event', { event_id: 'e1' }, 'UTC', now, ev),
          describeOther('calendar_update_event', { event_id: 'e1', location }, 'UTC', now, ev),
          describeOther('calendar_respond', { event_id: 'e1', response: 'accept' }, 'UTC', now, ev),
        ];
        for (const card of cards) expect(card.split(/\r\n?|\n|\u2028/)).toHaveLength(1);
      }),
      { numRuns: 300 },
    );
  });

  it('create, with the title the agent gave and an overlapping invitation’s', () => {
    fc.assert(
      fc.property(hostile, hostile, (summary, other) => {
        const card = describeCreate(
          { summary, start: '2026-12-05T10:00:00Z', end: '2026-12-05T10:30:00Z' },
          'UTC',
          now,
          [{ summary: other, when: 'Sat 5 Dec 10:00' }],
        );
        expect(card.split(/\r\n?|\n|\u2028/)).toHaveLength(1);
        expect(card).toMatch(/^Create an event, /);
      }),
      { numRuns: 300 },
    );
  });

  it('create: the title, said last, adds words but changes none of the statement before it', () => {
    // Quoted at the head ("Create '<title>', …"), a title closing the quote wrote the sentence:
    // "Sync', Sat 5 Dec 10:00 — no invitations will be sent. '" before the real time and guests.
    const forging = fc
      .array(
        fc.constantFrom(
          "'",
          '’',
          '"',
          ', ',
          'Sat 5 Dec 10:00',
          ' — no invitations will be sent',
          '. Title: ',
          'Sync',
          '\n',
          ' ',
        ),
        { minLength: 1, maxLength: 8 },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(forging, fc.boolean(), fc.boolean(), (summary, guests, overlap) => {
        const args = {
          start: '2026-12-05T10:00:00Z',
          end: '2026-12-05T10:30:00Z',
          ...(guests ? { attendees: ['carol@example.com'] } : {}),
        };
        const warn = overlap ? [{ summary: 'Team sync', when: 'Sat 5 Dec 10:00' }] : [];
        const plain = describeCreate({ ...args, summary: 'X' }, 'UTC', now, warn);
        const end = overlap ? '. Overlapping: “Team sync”' : '';
        expect(plain.endsWith(`. Title: “X”${end}`)).toBe(true);
        const card = describeCreate({ ...args, summary }, 'UTC', now, warn);
        const head = plain.slice(0, plain.length - end.length - '“X”'.length);
        expect(card).toBe(`${head}${quoted(summary)}${end}`);
      }),
      { numRuns: 300 },
    );
  });
});
