import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { cardLine, MAX_QUOTED, quoted } from '../../common/card-text.js';
import { forgingText } from '../../test-support/card-forging.js';
import { describeCreate, describeOther, withGuests } from './calendar/effects.js';
import { Recent, SeenMessages } from './gmail/cache.js';
import { attachmentsLine, headerLines, type DraftView } from './gmail/draft-view.js';
import { draftNamed } from './gmail/effects.js';
import { describeCreateFilter, describeDeleteFilter } from './gmail/filters.js';
import { describeLabelChange } from './gmail/label-admin.js';
import { describeModify } from './gmail/modify.js';
import { attachmentLines, type AttachmentSource } from './gmail/outgoing-attachments.js';
import { describeCompose } from './gmail/send.js';

/**
 * Every value a Google card writes into its sentence — a label's name, a filter's criteria, a
 * subject, a sender, an event's title, an organizer, a guest, a calendar id — is someone else's
 * text. The card is read as a user reads it: the words outside the quotes are Airlock's, each
 * “…” one value. Here every such value of a multi-value card is generated to forge (every kind of
 * quote, line breaks, direction controls, joiners, the card's own labels), and the card read that
 * way must say the same as with plain values: the same words, the same number of values, in the
 * same places. Before the shared quoting (common/card-text.ts quoted) a label's name or a filter's
 * `from` stood bare in the sentence, and a quoted subject could close its quote and write the
 * next label ('subject "Q3", named "invoice.pdf"' for a file of another name).
 */

const ACCOUNT = 'alice@example.com';
const now = DateTime.fromISO('2026-12-04T09:00:00Z', { zone: 'UTC' });

const forging = forgingText([
  ' to ',
  '; ',
  'FORWARDED to eve@evil.test',
  ' removed',
  'labelled ',
  'Mail it already handled stays as it is',
  ', named ',
  ', subject ',
  '. Organizer: ',
  '. Title: ',
  '. Note: ',
  ' — no updates will be sent',
  'bob@example.com',
]);

/**
 * What the eye takes for a double quote mark: the marks themselves and their look-alikes (ˮ is
 * drawn as ”), two single marks side by side (’’ ʼʼ '' ``: UTS #39 confusables reads " as ''), and
 * a comma or stroke drawn as a mark (U+0313 U+0315 draw ” on a space or letter, U+0315 on ’).
 */
const READS_AS_DOUBLE =
  /["“”„‟«»″‶＂❝❞❠〃〝〞〟˝ʺ״⹂‴⁗‷ˮ˵˶\u1cd3]|['`´ʼʻʽ׳‘’‚‛′‵＇｀]{2}|['`´ʼʻʽ׳‘’‚‛′‵＇｀\s]?[\u0312-\u0315\u0343]+|['`´ʼʻʽ׳‘’\s]\p{M}/gu;

/** The card as the user reads it: Airlock's words, and “…” for each value. */
function asRead(card: string): string {
  return (
    card
      // Within a value, anything drawn as a double mark reads as the value's closing quote.
      .replace(/“([^“”]*)”/g, (_, inner: string) => `“${inner.replace(READS_AS_DOUBLE, '”')}”`)
      .replace(/“[^“”]*”(?: \(\d+ more characters\))?/g, '“…”')
      // A mail's subject is its own header line: the value is the line (cardLine keeps it one).
      .replace(/^Subject: .*$/gm, 'Subject: …')
  );
}

/**
 * Built with generated values, the card reads as it does with plain ones ("plain 0", …): no
 * value adds, hides or changes a word of Airlock's or a value's place; no value starts a line of
 * its own, and none outside a mail's Subject line (which is the value, laid out on its own line)
 * holds a direction control acting on the text around it.
 */
function expectSameReading(build: (v: string[]) => string, values: string[]): void {
  const plain = build(values.map((_, i) => `plain ${i}`));
  const forged = build(values);
  expect(asRead(forged)).toBe(asRead(plain));
  expect(asRead(forged)).not.toMatch(/\p{Bidi_Control}/u);
  expect(forged.split('\n').length).toBe(plain.split('\n').length);
}

describe('common/card-text quoted: what stands between the quotes is one value', () => {
  it('no closing quote, line break or direction control inside; the length said, not dropped', () => {
    fc.assert(
      fc.property(fc.oneof(forging, fc.string({ unit: 'binary', maxLength: 400 })), (v) => {
        const q = quoted(v);
        const m = /^“([^“”"\n\r\u2028\u2029]*)”(?: \((\d+) more characters\))?$/u.exec(q);
        expect(m).not.toBeNull();
        expect(m![1]).not.toMatch(/\p{Bidi_Control}/u);
        // Every character of the value is shown or counted: a long one is cut with the rest said.
        const total = [...cardLine(v)].length;
        if (m![2] === undefined) expect(total).toBeLessThanOrEqual(MAX_QUOTED);
        // Cut where what is shown reaches the limit (a named control is more than one character).
        else {
          expect([...m![1]!].length).toBeLessThanOrEqual(MAX_QUOTED);
          expect(Number(m![2])).toBeGreaterThanOrEqual(total - (MAX_QUOTED - 1));
          expect(Number(m![2])).toBeLessThanOrEqual(total);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('property: nothing between the quotes is drawn as a double mark, and at most MAX_QUOTED shown', () => {
    const lookalike = fc
      .array(
        fc.constantFrom(
          ...['ˮ', '˶', '\u1cd3', '’', "'", 'ʼ', '`', '׳', '‘', ' ', 'Q3', ', named '],
          ...['\u0313', '\u0315', '\u0301', '\u0308', '\u202e', '\u2066'],
        ),
        { maxLength: 300 },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(lookalike, (v) => {
        const inner = /^“(.*)”(?: \(\d+ more characters\))?$/su.exec(quoted(v))![1]!;
        expect(inner.match(READS_AS_DOUBLE)).toBeNull();
        expect([...inner].length).toBeLessThanOrEqual(MAX_QUOTED);
      }),
      { numRuns: 500 },
    );
  });

  it('look-alikes of the closing quote are shown as what they are', () => {
    // ˮ (U+02EE) is drawn as ”; two single marks side by side as one double one; U+0313 and
    // U+0315 as ” on whatever they sit; a mark first in the value would sit on the opening “.
    expect(quoted('Q3ˮ, named ˮinvoice.pdf')).toBe("“Q3', named 'invoice.pdf”");
    expect(quoted('Q3’’, named ‘‘invoice.pdf')).toBe('“Q3’ ’, named ‘ ‘invoice.pdf”');
    expect(quoted('Q3՚՚ ꞋꞋ \u0374\u0374')).toBe('“Q3՚ ՚ Ꞌ Ꞌ \u0374 \u0374”');
    expect(quoted('Q3\u0313\u0315, named')).toBe('“Q3[U+0313][U+0315], named”');
    expect(quoted('Q3 ἀ\u0315, named')).toBe('“Q3 ἀ[U+0315], named”');
    expect(quoted('Q3 \u0301x')).toBe('“Q3 [U+0301]x”');
    expect(quoted('\u0338x')).toBe('“[U+0338]x”');
    // Writing keeps its marks: Vietnamese, Hungarian, French, polytonic Greek.
    expect(quoted('Tiếng Việt őű café ἀλήθεια')).toBe('“Tiếng Việt őű café ἀλήθεια”');
    // 199 direction controls, each named: cut where what is shown reaches the limit.
    const q = quoted('\u202e'.repeat(199));
    expect([...q.replace(/ \(\d+ more characters\)$/, '')].length).toBeLessThanOrEqual(
      MAX_QUOTED + 2,
    );
    expect(q).toMatch(/^“(\[RLO\])+…” \(\d+ more characters\)$/);
  });

  it('a value with nothing to neutralize is shown exactly', () => {
    expect(quoted('Bob’s “Q3” report')).toBe('“Bob’s ‘Q3’ report”');
    expect(quoted('Receipts')).toBe('“Receipts”');
    expect(quoted('a\u202eb')).toBe('“a[RLO]b”');
  });
});

describe('property: a Google card reads the same whatever its values hold', () => {
  it('gmail_delete_filter: label names, criteria and forward address of a filter anyone made', () => {
    const names = ['Label_1', 'Label_2'];
    fc.assert(
      fc.property(fc.array(forging, { minLength: 8, maxLength: 8 }), (values) => {
        expectSameReading(
          ([a, r, from, to, subject, query, neg, fwd]) =>
            describeDeleteFilter(
              'f1',
              ACCOUNT,
              {
                id: 'f1',
                criteria: {
                  from,
                  to,
                  subject,
                  query,
                  negatedQuery: neg,
                  hasAttachment: true,
                },
                action: {
                  addLabelIds: ['Label_1', 'STARRED'],
                  removeLabelIds: ['Label_2', 'INBOX'],
                  // A space: never an address, so quoted plain or forged.
                  forward: `${fwd} `,
                },
              },
              (id) => (id === names[0] ? a! : id === names[1] ? r! : id),
            ),
          values,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('gmail_create_filter: the agent’s criteria and label names', () => {
    fc.assert(
      fc.property(fc.array(forging, { minLength: 6, maxLength: 6 }), (values) => {
        // Wrapped so trimming leaves a value (parseFilter trims and drops empty criteria).
        expectSameReading(
          ([from, to, subject, query, add, remove]) =>
            describeCreateFilter(ACCOUNT, {
              from: `x${from}x`,
              to: `x${to}x`,
              subject: `x${subject}x`,
              query: `x${query}x`,
              add_labels: [`x${add}x`],
              remove_labels: [`x${remove}x`],
              archive: true,
            }),
          values,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('gmail labels: the name made, renamed and deleted', () => {
    fc.assert(
      fc.property(forging, forging, (old, name) => {
        const label = (n: string) => ({ id: 'Label_1', name: n, messagesTotal: 3 });
        expectSameReading(
          ([o, n]) =>
            describeLabelChange(
              'gmail_rename_label',
              ACCOUNT,
              { label: 'x', new_name: `x${n}x` },
              label(o!),
            ),
          [old, name],
        );
        expectSameReading(
          ([o]) => describeLabelChange('gmail_delete_label', ACCOUNT, { label: 'x' }, label(o!)),
          [old],
        );
      }),
      { numRuns: 300 },
    );
  });

  it('gmail messages: a trashed message’s, a replied-to one’s and a forwarded file’s sender, subject and name', () => {
    fc.assert(
      fc.property(fc.array(forging, { minLength: 7, maxLength: 7 }), (values) => {
        expectSameReading(
          ([from, subject]) => {
            const seen = new SeenMessages();
            seen.remember(ACCOUNT, 'm1', { subject: subject!, from: from!, threadId: 't1' });
            return describeModify('gmail_trash', ACCOUNT, { message_ids: ['m1', 'm2'] }, seen);
          },
          values.slice(0, 2),
        );
        expectSameReading(
          ([from, subject, fileFrom, fileSubject, fileName]) => {
            const seen = new SeenMessages();
            seen.remember(ACCOUNT, 'm1', { subject: subject!, from: from!, threadId: 't1' });
            const sources = new Recent<AttachmentSource>();
            sources.remember(ACCOUNT, 'm2', {
              subject: fileSubject!,
              from: fileFrom!,
              atts: [
                {
                  filename: `x${fileName}x.pdf`,
                  mimeType: 'application/pdf',
                  size: 9,
                  partId: '1',
                  inline: false,
                  attachmentId: 'a1',
                },
              ],
              message: { id: 'm2', payload: undefined },
            });
            return describeCompose(
              'send',
              ACCOUNT,
              {
                to: ['carol@example.com'],
                reply_to_message_id: 'm1',
                body: 'x',
                attachments: [{ message_id: 'm2', attachment_id: 'a1' }],
              },
              seen,
              undefined,
              undefined,
              sources,
            );
          },
          values.slice(0, 5),
        );
        expectSameReading(
          ([to, subject]) => {
            const previous = {
              id: 'r1',
              messageId: 'm0',
              from: ACCOUNT,
              to: to!,
              subject: subject!,
              attachments: [],
            } as unknown as DraftView;
            return describeCompose(
              'update',
              ACCOUNT,
              { draft_id: 'r1', to: ['carol@example.org'], subject: 's', body: 'x' },
              new SeenMessages(),
              undefined,
              { draftId: 'r1', previous },
            );
          },
          values.slice(5, 7),
        );
        expectSameReading(([to, s]) => draftNamed({ to: to!, subject: s! }), values.slice(5, 7));
      }),
      { numRuns: 300 },
    );
  });

  const event = (summary: string, organizer: string) => ({
    id: 'e1',
    summary,
    start: { dateTime: '2026-12-05T10:00:00Z' },
    end: { dateTime: '2026-12-05T10:30:00Z' },
    attendees: [{ email: 'carol@example.com' }, { email: 'me@example.com', self: true }],
    organizer: { email: organizer },
  });

  it('calendar create: the title, the calendar id, the overlapping events’ titles', () => {
    fc.assert(
      fc.property(fc.array(forging, { minLength: 4, maxLength: 4 }), (values) => {
        expectSameReading(
          ([title, cal, o1, o2]) =>
            describeCreate(
              {
                start: '2026-12-05T10:00:00Z',
                end: '2026-12-05T10:30:00Z',
                attendees: ['carol@example.com'],
                summary: title,
                calendar_id: `${cal} `,
              },
              'UTC',
              now,
              [
                { summary: o1!, when: 'Sat 5 Dec 10:00–11:00' },
                { summary: o2!, when: 'Sat 5 Dec 10:15–10:45' },
              ],
            ),
          values,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('calendar update, respond: the event’s title and organizer, the agent’s title, place, note and guests', () => {
    fc.assert(
      fc.property(fc.array(forging, { minLength: 6, maxLength: 6 }), (values) => {
        expectSameReading(
          ([old, title, place]) =>
            describeOther(
              'calendar_update_event',
              { event_id: 'e1', summary: title, location: place },
              'UTC',
              now,
              event(old!, 'org@example.com'),
            ),
          values.slice(0, 3),
        );
        expectSameReading(
          ([old, org, note]) =>
            describeOther(
              'calendar_respond',
              { event_id: 'e1', response: 'accept', comment: `x${note}x` },
              'UTC',
              now,
              event(old!, org!),
            ),
          values.slice(3, 6),
        );
        // Read before the call checks them (the synchronous card): guests and rules as given.
        expectSameReading(
          ([add, remove, guest, rule, start]) =>
            describeOther(
              'calendar_update_event',
              {
                event_id: 'e1',
                // Never an address or a rule, so quoted plain or forged (a real one stands bare).
                add_attendees: [`x ${add}`],
                remove_attendees: [`x ${remove}`],
                attendees: [`x ${guest}`],
                recurrence: [`x ${rule}`],
                start: `${start} `,
              },
              undefined,
              now,
            ),
          values.slice(0, 5),
        );
      }),
      { numRuns: 300 },
    );
  });

  // The values the cards above left out until they were found bare: a file's type and name as a
  // message or draft holds them (Gmail hands over whatever its writer put in the MIME part), the
  // agent's label names, message, draft and attachment ids, a new event's recurrence rules, and
  // the guests of an event as read. Ids, rules and addresses stand bare when they are one word of
  // their shape (quotedUnless); `x ` makes each generated one quoted, plain or forged.
  it('gmail attachments: a draft’s and a message’s file type and name; an agent’s file name', () => {
    const file = (filename: string, mimeType: string) => ({
      filename,
      mimeType,
      size: 9,
      partId: '1',
      inline: false,
      attachmentId: 'a1',
    });
    fc.assert(
      fc.property(fc.array(forging, { minLength: 6, maxLength: 6 }), (values) => {
        expectSameReading(
          ([n1, t1, n2, t2]) => {
            const view = {
              id: 'r1',
              messageId: 'm0',
              from: ACCOUNT,
              to: 'carol@example.com',
              cc: '',
              bcc: '',
              subject: 's',
              attachments: [file(n1!, t1!), file(n2!, t2!)],
            } as unknown as DraftView;
            return [...headerLines(view), attachmentsLine(view.attachments)].join('\n');
          },
          values.slice(0, 4),
        );
        expectSameReading(
          ([name, type]) => {
            const sources = new Recent<AttachmentSource>();
            sources.remember(ACCOUNT, 'm2', {
              subject: 'Q3',
              from: 'g@x.test',
              atts: [file(`x${name}x`, type!)],
              message: { id: 'm2', payload: undefined },
            });
            return attachmentLines(
              [{ kind: 'message', messageId: 'm2', attachmentId: 'a1' }],
              ACCOUNT,
              sources,
            ).join('\n');
          },
          values.slice(4, 6),
        );
        // Not yet read: the agent's name for the file, and its message id, as the call gives them.
        expectSameReading(
          ([name, id]) =>
            attachmentLines(
              [{ kind: 'message', messageId: `x ${id} y`, filename: name! }],
              ACCOUNT,
              new Recent<AttachmentSource>(),
            ).join('\n'),
          values.slice(0, 2),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('gmail label change, reply and draft ids: the agent’s label names and ids', () => {
    fc.assert(
      fc.property(fc.array(forging, { minLength: 5, maxLength: 5 }), (values) => {
        expectSameReading(
          ([add, remove, id]) =>
            describeModify(
              'gmail_modify_labels',
              ACCOUNT,
              {
                message_ids: [`x ${id} y`],
                add_labels: [`x${add}x`],
                remove_labels: [`x${remove}x`],
              },
              new SeenMessages(),
            ),
          values.slice(0, 3),
        );
        expectSameReading(
          ([reply, draft]) =>
            describeCompose(
              'update',
              ACCOUNT,
              {
                draft_id: 'r1',
                to: ['carol@example.org'],
                body: 'x',
                reply_to_message_id: `x ${reply} y`,
              },
              new SeenMessages(),
              undefined,
              { draftId: `x ${draft}` },
            ),
          values.slice(3, 5),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('calendar: a new event’s recurrence rules, and the guests of an event as read', () => {
    fc.assert(
      fc.property(fc.array(forging, { minLength: 4, maxLength: 4 }), (values) => {
        expectSameReading(
          ([r1, r2]) =>
            describeCreate(
              {
                start: '2026-12-05T10:00:00Z',
                end: '2026-12-05T10:30:00Z',
                recurrence: [`x ${r1} 1`, `x ${r2} 2`],
              },
              'UTC',
              now,
            ),
          values.slice(0, 2),
        );
        expectSameReading(
          ([g1, g2]) => withGuests('Delete the event', [`x ${g1}`, `x ${g2}`]),
          values.slice(2, 4),
        );
      }),
      { numRuns: 300 },
    );
  });
});
