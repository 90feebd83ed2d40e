import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';

const TAG = /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>/i;
let t: Awaited<ReturnType<typeof gmailTestbed>>;
beforeAll(async () => {
  t = await gmailTestbed();
});
afterAll(() => t.stop());

const bodyOf = (text: string) => text.split('\n---\n')[1] ?? '';

describe('gmail_read', () => {
  it('converts an HTML-only receipt to markdown with links and the table, and no tags', async () => {
    const r = await t.call('gmail_read', { message_id: t.ids.receipt.id });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Subject: Your Northwind receipt NW-10482');
    expect(r.text).toContain('From: Northwind Outfitters <orders@shop.example>');
    expect(r.text).toContain('Labels: INBOX, UNREAD, CATEGORY_UPDATES, Receipts');
    expect(r.text).toContain('Body (converted from HTML to markdown');
    const body = bodyOf(r.text);
    expect(body).toContain(
      '[View your order](https://shop.example/orders/NW-10482?utm_source=email&utm_medium=receipt)',
    );
    expect(body).toContain('| Trail Runner 2 – size 42 | 1 | €89.00 |');
    expect(body).not.toMatch(TAG);
  });

  it('falls back to the HTML when the text part is a "view in browser" stub, and pages the 200 KB result', async () => {
    const first = await t.call('gmail_read', { message_id: t.ids.newsletter.id, max_chars: 4000 });
    expect(first.text).toContain('converted from HTML to markdown');
    expect(first.text).not.toContain('You are receiving this email because');
    const total = Number(/markdown, (\d+) characters/.exec(first.text)![1]);
    expect(total).toBeGreaterThan(50_000);
    // Follow the offsets to the end: the pieces rebuild the whole body exactly.
    let text = first.text;
    let joined = '';
    let calls = 0;
    for (;;) {
      calls++;
      joined += bodyOf(text);
      const next = /offset=(\d+)/.exec(text);
      if (!next) break;
      const r = await t.call('gmail_read', {
        message_id: t.ids.newsletter.id,
        max_chars: 18000,
        offset: Number(next[1]),
      });
      expect(r.isError).toBe(false);
      text = r.text;
    }
    expect(calls).toBeGreaterThan(3);
    expect(joined.length).toBe(total);
    expect(joined).toContain(
      '[Read story 101](https://news.example/stories/101?utm_campaign=weekly-42)',
    );
    expect(joined).not.toMatch(TAG);
    expect(text).toMatch(/\[End: characters \d+–\d+ of \d+\.\]/);
  });

  it('rejects an offset past the end with a clear error', async () => {
    const r = await t.call('gmail_read', { message_id: t.ids.alternative.id, offset: 10_000 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/offset 10000 is past the end of this message body \(\d+ characters\)/);
  });

  it('decodes ISO-8859-1 (quoted-printable, encoded-word headers) and 8-bit windows-1252', async () => {
    const latin = await t.call('gmail_read', { message_id: t.ids.latin1.id });
    expect(latin.text).toContain("Subject: Réunion de l'équipe");
    expect(latin.text).toContain('From: Renée Dupré <renee@example.fr>');
    expect(latin.text).toContain('au café « Chez Moïse » à 10h jeudi.');
    // 0x80 in a part labelled ISO-8859-1 is the euro sign, as in windows-1252 (WHATWG).
    expect(latin.text).toContain('Coût du déjeuner : 12 € par personne.');
    const cp = await t.call('gmail_read', { message_id: t.ids.cp1252.id });
    expect(cp.text).toContain('The “full service” costs €250 – parts included.');
    expect(cp.text).not.toContain('\uFFFD');
  });

  it('prefers a real text/plain alternative, and reads nested multipart/related mail with its attachments listed', async () => {
    const alt = await t.call('gmail_read', { message_id: t.ids.alternative.id });
    expect(alt.text).toContain('Body (text/plain');
    expect(alt.text).toContain('PLAIN-VERSION');
    expect(alt.text).not.toContain('HTML-VERSION');
    expect(alt.text).toContain('Cc: Erin <erin@example.com>');
    const related = await t.call('gmail_read', { message_id: t.ids.related.id });
    expect(related.text).toContain('Here is the new logo');
    expect(related.text).toMatch(
      /Attachments \(2\): logo\.png \(image\/png, 1\.2 KB, inline\); notes\.txt \(text\/plain, \d+ B\)/,
    );
  });

  it('lists attachments by file name, type and size', async () => {
    const r = await t.call('gmail_read', { message_id: t.ids.attachments.id });
    expect(r.text).toMatch(
      /Attachments \(4\): invoice-2024-0042\.pdf \(application\/pdf, [\d.]+ (B|KB)\); Project Plan\.docx \(application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.document, [\d.]+ KB\); site-photo\.png \(image\/png, 1\.2 KB\); totals\.csv \(text\/csv, 52 B\)/,
    );
    expect(r.text).not.toMatch(/ANGjdJ/); // attachment ids never reach the agent
  });

  it('turns an unknown or malformed id into a readable error', async () => {
    const r = await t.call('gmail_read', { message_id: '18f2a4c1b0fffff0' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Gmail found no message 18f2a4c1b0fffff0 in alice@example.com \(404\)/);
    const bad = await t.call('gmail_read', { message_id: 'msg-<1234>' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toBe(
      'Gmail rejected the request for message msg-<1234> (400: Invalid id value). [GOOGLE_API]',
    );
  });
});

describe('gmail_read_thread', () => {
  it('gives the conversation oldest first with quoted history trimmed', async () => {
    const r = await t.call('gmail_read_thread', { thread_id: t.ids.thread1.threadId });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/3 messages, oldest first\. Subject: Lunch on Friday\?/);
    const order = [
      'Shall we have lunch on Friday?',
      'Friday works for me. 12:30?',
      '12:30 is perfect, see you there!',
    ].map((s) => r.text.indexOf(s));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Each sentence once: the quoted copies are gone.
    expect(r.text.split('Shall we have lunch').length).toBe(2);
    expect(r.text).toContain('[quoted earlier messages hidden]');
  });

  it('is bounded by max_chars with a continuation offset', async () => {
    const r = await t.call('gmail_read_thread', {
      thread_id: t.ids.thread1.threadId,
      max_chars: 300,
    });
    const m = /offset=(\d+)/.exec(r.text);
    expect(m).not.toBeNull();
    const rest = await t.call('gmail_read_thread', {
      thread_id: t.ids.thread1.threadId,
      offset: Number(m![1]),
    });
    expect(bodyOf(r.text) + bodyOf(rest.text)).toContain('12:30 is perfect');
  });
});

describe('gmail_read_attachment', () => {
  it('resolves the attachment by file name and extracts PDF text', async () => {
    const before = t.fake.count((r) => r.path.includes('/attachments/'));
    const r = await t.call('gmail_read_attachment', {
      message_id: t.ids.attachments.id,
      filename: 'invoice-2024-0042.pdf',
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('2 pages');
    expect(r.text).toContain('Total due: 137.00 EUR');
    expect(r.text).toContain('Payment terms: 30 days');
    expect(t.fake.count((r2) => r2.path.includes('/attachments/'))).toBe(before + 1);
  });

  it('extracts DOCX text, matching the name in any case', async () => {
    const r = await t.call('gmail_read_attachment', {
      message_id: t.ids.attachments.id,
      filename: 'project plan.docx',
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Project Plan.docx');
    expect(r.text).toContain('# Project plan');
    expect(r.text).toContain('| Build | Carol |');
  });

  it('gives metadata and "cannot extract" for other types, without downloading them', async () => {
    const before = t.fake.count((r) => r.path.includes('/attachments/'));
    const r = await t.call('gmail_read_attachment', {
      message_id: t.ids.attachments.id,
      filename: 'site-photo.png',
    });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(
      /site-photo\.png \(image\/png, 1\.2 KB\) from message \w+: Airlock cannot extract text from this type of file/,
    );
    expect(t.fake.count((r2) => r2.path.includes('/attachments/'))).toBe(before);
  });

  it('names the attachments there are when the file name matches none', async () => {
    const r = await t.call('gmail_read_attachment', {
      message_id: t.ids.attachments.id,
      filename: 'invoice.xlsx',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(
      'has no attachment named “invoice.xlsx”. Its attachments: “invoice-2024-0042.pdf”, “Project Plan.docx”, “site-photo.png”, “totals.csv”.',
    );
  });

  it('refuses attachments over the size limit with a clear error, before downloading', async () => {
    const small = await gmailTestbed({ source: { maxAttachmentBytes: 500 } });
    try {
      const r = await small.call('gmail_read_attachment', {
        message_id: small.ids.attachments.id,
        filename: 'invoice-2024-0042.pdf',
      });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(
        /invoice-2024-0042\.pdf is [\d.]+ (B|KB); Airlock reads attachments up to 500 B\. Nothing was downloaded\./,
      );
      expect(small.fake.count((r2) => r2.path.includes('/attachments/'))).toBe(0);
    } finally {
      await small.stop();
    }
  });
});
