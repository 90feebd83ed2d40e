import PostalMime from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';

/**
 * Sending and drafting with attachments (issue 33 item 2, the write side) against the fake Gmail
 * API: messages.send and drafts.create/update take the RFC 822 message base64url-encoded in
 * `raw` (developers.google.com/gmail/api/reference/rest/v1/users.messages/send,
 * …/users.drafts/create), and an attachment of an existing message is read with
 * users.messages.attachments.get (…/users.messages.attachments/get: `{ size, data }`, data
 * base64url). What goes out is parsed back with postal-mime.
 */

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const posts = (tb: NonNullable<typeof t>) => tb.fake.count((r) => r.method !== 'GET');
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const csv = 'item,amount\nTrail Runner 2,89.00\nMerino socks,48.00\n';

describe('gmail_send with attachments', () => {
  it('sends a file from a message (name and type from its part) and one given inline; the card shows both', async () => {
    t = await gmailTestbed();
    const id = t.ids.attachments.id;
    const args = {
      to: ['bob@example.com'],
      subject: 'The totals',
      body: 'Attached.',
      attachments: [
        // The agent's name is only how it picks the part: "TOTALS" finds totals.csv.
        { message_id: id, filename: 'TOTALS' },
        { filename: 'Überblick – 2024.txt', mime_type: 'text/plain', content_base64: b64('hi ☃') },
      ],
    };
    expect(await t.source.precheck('gmail_send', args, new AbortController().signal)).toBeNull();
    const card = await t.source.describeEffectAsync('gmail_send', args);
    expect(card).toContain(
      `Attachment: from message ${id} from “Grace Accounts <accounts@northwind.example>” (“text/csv”, 52 B), subject “Invoice and project plan”, named “totals.csv”`,
    );
    expect(card).toContain(
      'Attachment: given by the agent (“text/plain”, 6 B), named “Überblick – 2024.txt”',
    );
    // The attachment lines sit with the headers, before the body (the card lays them out as fields).
    expect(card.split('\n\n')[0]).toContain('named “totals.csv”');

    const r = await t.call('gmail_send', args);
    expect(r.isError).toBe(false);
    expect(r.text).toContain('with 2 attachments (totals.csv, Überblick – 2024.txt)');
    const mail = await PostalMime.parse(t.fake.sent[0]!.raw);
    expect(mail.text?.trim()).toBe('Attached.');
    expect(
      mail.attachments.map((a) => [a.filename, a.mimeType, Buffer.from(a.content as ArrayBuffer)]),
    ).toEqual([
      ['totals.csv', 'text/csv', Buffer.from(csv)],
      ['Überblick – 2024.txt', 'text/plain', Buffer.from('hi ☃')],
    ]);
  });

  it('drafts with attachments, and an update replaces them; gmail_get_draft lists them', async () => {
    t = await gmailTestbed();
    const id = t.ids.attachments.id;
    const created = await t.call('gmail_create_draft', {
      to: ['bob@example.com'],
      subject: 'Plan',
      body: 'Draft.',
      attachments: [{ message_id: id, filename: 'site-photo.png' }],
    });
    expect(created.isError).toBe(false);
    const draftId = /draft id (\S+),/.exec(created.text)![1]!;
    const got = await t.call('gmail_get_draft', { draft_id: draftId });
    expect(got.text).toContain('Attachment: “site-photo.png” (“image/png”, 1.2 KB)');

    const updated = await t.call('gmail_update_draft', {
      draft_id: draftId,
      to: ['bob@example.com'],
      body: 'Now with the CSV instead.',
      attachments: [{ filename: 'a.csv', mime_type: 'text/csv', content_base64: b64(csv) }],
    });
    expect(updated.isError).toBe(false);
    const again = await t.call('gmail_get_draft', { draft_id: draftId });
    expect(again.text).toContain('Attachment: “a.csv” (“text/csv”, 52 B)');
    expect(again.text).not.toContain('site-photo.png');

    // A draft's own file is kept by naming it again from the draft's current message.
    const message = /\(message (\S+), thread/.exec(again.text)![1]!;
    const kept = await t.call('gmail_update_draft', {
      draft_id: draftId,
      to: ['bob@example.com'],
      body: 'Same file, new text.',
      attachments: [{ message_id: message, filename: 'a.csv' }],
    });
    expect(kept.isError).toBe(false);
    const third = await t.call('gmail_get_draft', { draft_id: draftId });
    expect(third.text).toContain('Attachment: “a.csv” (“text/csv”, 52 B)');
    expect(third.text).toContain('Same file, new text.');
  });

  it('refuses bad attachments before anything is sent, each with a sentence the agent can act on', async () => {
    t = await gmailTestbed();
    const base = { to: ['bob@example.com'], subject: 'x', body: 'x' };
    const refuse = (attachments: unknown) =>
      t!.source.validateArgs('gmail_send', { ...base, attachments });
    const inline = (o: Record<string, unknown>) => [
      { filename: 'a.txt', mime_type: 'text/plain', content_base64: 'aGk=', ...o },
    ];
    expect(refuse(inline({ content_base64: 'aGk' }))).toMatch(/not strict base64/);
    expect(refuse(inline({ content_base64: 'aG k=' }))).toMatch(/not strict base64/);
    expect(refuse(inline({ content_base64: 'aGl=' }))).toMatch(/not canonical base64/);
    expect(refuse(inline({ content_base64: 'aGk_' }))).toMatch(/not strict base64/);
    expect(refuse(inline({ filename: '../etc/passwd' }))).toMatch(/path separator/);
    expect(refuse(inline({ filename: 'C:\\x.txt' }))).toMatch(/path separator/);
    expect(refuse(inline({ filename: 'a\r\nContent-Type: text/html' }))).toMatch(/control/);
    expect(refuse(inline({ filename: 'invoice\u202Efdp.exe' }))).toMatch(/control/);
    expect(refuse(inline({ mime_type: 'text/plain; charset=utf-8' }))).toMatch(/media type/);
    expect(refuse(inline({ mime_type: 'multipart/mixed' }))).toMatch(/media type/);
    expect(refuse(inline({ mime_type: 'nonsense' }))).toMatch(/media type/);
    expect(refuse([{ message_id: t.ids.attachments.id }])).toMatch(/filename/);
    expect(refuse('a.txt')).toMatch(/a list/);
    const huge = 'A'.repeat(Math.ceil((25 * 1024 * 1024) / 3) * 4 + 4);
    expect(refuse(inline({ content_base64: huge }))).toMatch(/Gmail sends messages up to 25\.0 MB/);
    expect(refuse(inline({}))).toBeNull();
    expect(posts(t)).toBe(0);
  });

  it('refuses a message the attachments would push over 25 MB once encoded', async () => {
    t = await gmailTestbed();
    const ten = b64(Buffer.alloc(10 * 1024 * 1024, 1));
    const r = await t.call('gmail_send', {
      to: ['bob@example.com'],
      subject: 'big',
      body: 'x',
      attachments: [
        { filename: 'a.bin', mime_type: 'application/octet-stream', content_base64: ten },
        { filename: 'b.bin', mime_type: 'application/octet-stream', content_base64: ten },
      ],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Gmail sends messages up to 25 MB\. Nothing was sent\./);
    expect(t.fake.sent).toHaveLength(0);
  });

  it('checks before asking that the message and the attachment exist', async () => {
    t = await gmailTestbed();
    const check = (attachments: unknown) =>
      t!.source.precheck(
        'gmail_send',
        { to: ['bob@example.com'], subject: 'x', body: 'x', attachments },
        new AbortController().signal,
      );
    expect(await check([{ message_id: '18f2a4c1b0fffff0', filename: 'a.pdf' }])).toBe(
      'There is no message with id 18f2a4c1b0fffff0 in alice@example.com (the message an attachment is taken from). Use the exact id from gmail_search or gmail_read; nothing was changed.',
    );
    expect(await check([{ message_id: t.ids.attachments.id, filename: 'budget.xlsx' }])).toMatch(
      /^Message \w+ has no attachment named “budget\.xlsx”\. Its attachments: “invoice-2024-0042\.pdf”, /,
    );
    expect(await check([{ message_id: t.ids.receipt.id, filename: 'x.pdf' }])).toMatch(
      /has no attachments\.$/,
    );
    // After the approval, a message that has gone is reported the same way and nothing is sent.
    const r = await t.call('gmail_send', {
      to: ['bob@example.com'],
      subject: 'x',
      body: 'x',
      attachments: [{ message_id: '18f2a4c1b0fffff0', filename: 'a.pdf' }],
    });
    expect(r.text).toMatch(/^There is no message with id 18f2a4c1b0fffff0 in alice@example\.com/);
    expect(posts(t)).toBe(0);
  });
});
