import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { Recent, SeenMessages } from './cache.js';
import { parseAddresses } from './compose.js';
import { headerLines, type DraftView } from './draft-view.js';
import { gmailGrantShape } from './grant-shape.js';
import { describeModify } from './modify.js';
import type { AttachmentSource } from './outgoing-attachments.js';
import { describeCompose } from './send.js';

/**
 * The approval card is read line by line: its lines up to the first blank one are the mail's
 * "Key: value" headers, laid out as To, Cc, Bcc and one Attachment each (the renderer's
 * summary.ts parseEffect, whose field pattern is FIELD below); the rest is the preview. A value
 * holding a line break — a display name "=?utf-8?q?Carol=0A=0AX?=" the address parser decodes, a
 * stranger's subject, a header of a draft saved elsewhere — wrote lines of its own: the card's To
 * read "Carol" while the mail went to eve@evil.test, shown below as if it were the body.
 */

const FIELD = /^([A-Z][A-Za-z -]{0,24}):\s(.*)$/;
const ACCOUNT = 'alice@example.com';

/** The card's header block as the renderer reads it: the field names, in order. */
function fieldsOf(card: string): [string, string][] {
  const lines = card.replace(/\r\n?/g, '\n').split('\n').slice(1);
  const out: [string, string][] = [];
  for (const line of lines) {
    const m = FIELD.exec(line);
    if (!m) break;
    out.push([m[1]!, m[2]!]);
  }
  return out;
}

/** Text a header may hold once decoded: line breaks of every kind, and words that look like fields. */
const hostile = fc
  .array(
    fc.constantFrom('\n', '\r\n', '\r', '\u2028', '\n\n', 'Bcc: x@y.test', 'Carol', ' ', '- "Hi"'),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

describe('a Gmail card writes each value on its own line', () => {
  it('a reply with a forwarded file: the headers are the call’s, whatever the stranger wrote', () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, hostile, hostile, (s1, s2, s3, s4, name) => {
        const seen = new SeenMessages();
        seen.remember(ACCOUNT, 'm1', { subject: s1, from: s2, threadId: 't1' });
        const sources = new Recent<AttachmentSource>();
        sources.remember(ACCOUNT, 'm2', {
          subject: s3,
          from: s4,
          atts: [
            {
              filename: 'q3.pdf',
              mimeType: 'application/pdf',
              size: 9,
              partId: '1',
              inline: false,
              attachmentId: 'a1',
            },
          ],
          message: { id: 'm2', payload: undefined },
        });
        const card = describeCompose(
          'send',
          ACCOUNT,
          {
            to: ['carol@example.com'],
            bcc: ['eve@evil.test'],
            reply_to_message_id: 'm1',
            body: 'Figures attached.',
            attachments: [{ message_id: 'm2', filename: 'q3.pdf' }],
          },
          seen,
          name || undefined,
          undefined,
          sources,
        );
        const fields = fieldsOf(card);
        expect(fields.map(([k]) => k)).toEqual([
          'From',
          'To',
          'Bcc',
          'Subject',
          'In reply to',
          'Attachment',
        ]);
        expect(fields[2]![1]).toBe('eve@evil.test');
      }),
      { numRuns: 300 },
    );
  });

  it('a draft’s headers, decoded, stay one line each', () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, hostile, (to, cc, subject, file) => {
        const v: DraftView = {
          id: 'r1',
          messageId: 'm1',
          threadId: 't1',
          from: ACCOUNT,
          to: `${to} <eve@evil.test>`,
          cc: `${cc}carol@example.com`,
          bcc: '',
          subject,
          body: { text: 'hi', source: 'plain' } as DraftView['body'],
          attachments: [
            {
              filename: file || 'a.txt',
              mimeType: 'text/plain',
              size: 1,
              partId: '1',
              inline: false,
            },
          ],
        };
        const fields = fieldsOf(['Send draft r1', ...headerLines(v)].join('\n'));
        expect(fields.map(([k]) => k)).toEqual(['From', 'To', 'Cc', 'Subject', 'Attachment']);
        expect(fields[1]![1]).toContain('<eve@evil.test>');
      }),
      { numRuns: 300 },
    );
  });

  it('a trash card lists the messages the change touches, one line each', () => {
    fc.assert(
      fc.property(hostile, hostile, (subject, from) => {
        const seen = new SeenMessages();
        seen.remember(ACCOUNT, 'm1', { subject, from, threadId: 't1' });
        const card = describeModify('gmail_trash', ACCOUNT, { message_ids: ['m1', 'm2'] }, seen);
        const lines = card.split('\n');
        expect(lines).toHaveLength(3);
        expect(lines[1]).toMatch(/^- message m1 from .*, subject “.*”$/);
        expect(lines[2]).toBe('- message m2');
      }),
      { numRuns: 300 },
    );
  });
});

describe('a recipient whose decoded name breaks the line is refused, as one typed with a break is', () => {
  const to = ['=?utf-8?q?Carol=0A=0AX?= <eve@evil.test>'];

  it('by the parser the card, the grant and the composer share', () => {
    expect(() => parseAddresses('to', to)).toThrow(/contains a line break/);
    expect(() =>
      gmailGrantShape('gmail_send')!.destinations({ to, subject: 'Hi', body: 'x' }),
    ).toThrow(/line break/);
    const card = describeCompose(
      'send',
      ACCOUNT,
      { to, subject: 'Hi', body: 'x' },
      new SeenMessages(),
    );
    expect(card).toMatch(
      /this call will FAIL and nothing will be sent: to: the name of eve@evil.test contains a line break/,
    );
    // A name with an encoded word that decodes to text is still read as before.
    expect(parseAddresses('to', ['=?utf-8?q?Caf=C3=A9?= <cafe@example.com>'])).toEqual([
      { name: 'Café', address: 'cafe@example.com' },
    ]);
  });

  it('a tab in a name is whitespace, not refused: an unfolded header keeps the tab it was folded with (RFC 5322 3.2.2), and the card and the mail both read one space', () => {
    const to = ['Carol\tSmith <carol@example.com>', '=?utf-8?q?Dan=09=09Jones?= <dan@example.com>'];
    expect(parseAddresses('to', to)).toEqual([
      { name: 'Carol Smith', address: 'carol@example.com' },
      { name: 'Dan Jones', address: 'dan@example.com' },
    ]);
    expect(
      describeCompose('send', ACCOUNT, { to, subject: 'Hi', body: 'x' }, new SeenMessages()),
    ).toMatch(/^To: Carol Smith <carol@example\.com>, Dan Jones <dan@example\.com>$/m);
  });

  let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
  afterEach(() => t?.stop());

  it('end to end: nothing is sent, and a draft saved elsewhere with such a name shows it on its To line', async () => {
    t = await gmailTestbed();
    const r = await t.call('gmail_send', { to, subject: 'Hi', body: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/contains a line break/);
    expect(t.fake.sent).toHaveLength(0);
    const raw = Buffer.from(
      [
        `From: ${ACCOUNT}`,
        'To: =?utf-8?q?Carol=0A=0AX?= <eve@evil.test>',
        'Subject: Figures',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Q3.',
        '',
      ].join('\r\n'),
    );
    const { id } = t.fake.draftStore.seed(ACCOUNT, raw);
    const signal = new AbortController().signal;
    const read = await t.source.callContent('gmail_send_draft', { draft_id: id }, signal);
    const card = await t.source.describeEffectAsync('gmail_send_draft', {
      draft_id: id,
      ...read?.bind,
    });
    const fields = fieldsOf(card);
    expect(fields.map(([k]) => k)).toEqual(['From', 'To', 'Subject']);
    expect(fields[1]![1]).toBe('Carol⏎⏎X <eve@evil.test>');
  });
});
