import PostalMime from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const posts = (tb: NonNullable<typeof t>) => tb.fake.count((r) => r.method !== 'GET');

describe('gmail_send', () => {
  it('the approval text of a reply looks up the real subject of a message Airlock has not read', async () => {
    t = await gmailTestbed();
    const args = { to: ['bob@example.com'], body: 'Yes!', reply_to_message_id: t.ids.thread1.id };
    expect(t.source.describeEffect('gmail_send', args)).not.toContain('Re: Lunch on Friday?');
    expect(await t.source.describeEffectAsync('gmail_send', args)).toContain(
      'Re: Lunch on Friday?',
    );
    expect(posts(t)).toBe(0);
  });

  it('builds valid MIME: UTF-8 subject and names, To/Cc/Bcc, a text part and an HTML alternative', async () => {
    t = await gmailTestbed();
    const body =
      'Hallo Jürgen,\n\nthe <script> tag & "quotes" stay text.\nDetails: https://example.com/plan?a=1&b=2\n\nGrüße ☃';
    const r = await t.call('gmail_send', {
      to: ['Jürgen Müller <juergen@example.de>'],
      cc: ['erin@example.com', 'Ōno Yōko <yoko@example.jp>'],
      bcc: ['audit@example.com'],
      subject: 'Grüße aus Zürich — ☃ 会議',
      body,
    });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(
      /^Sent "Grüße aus Zürich — ☃ 会議" from alice@example.com to juergen@example.de, erin@example.com, yoko@example.jp, audit@example.com\. Message id [0-9a-f]{16}, thread [0-9a-f]{16}\.$/,
    );
    expect(t.fake.sent).toHaveLength(1);
    const raw = t.fake.sent[0]!.raw;
    // Headers on the wire are 7-bit: non-ASCII travels as RFC 2047 encoded words.
    const head = raw.toString('latin1').split(/\r?\n\r?\n/)[0]!;
    expect(head).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    expect(head).toMatch(/Content-Type: multipart\/alternative/);
    const mail = await PostalMime.parse(raw);
    expect(mail.subject).toBe('Grüße aus Zürich — ☃ 会議');
    // The display name comes from Gmail's send-as settings (issue 18.6).
    expect(mail.from).toMatchObject({ name: 'Alice Example', address: 'alice@example.com' });
    expect(mail.to).toEqual([{ name: 'Jürgen Müller', address: 'juergen@example.de' }]);
    expect(mail.cc).toEqual([
      { name: '', address: 'erin@example.com' },
      { name: 'Ōno Yōko', address: 'yoko@example.jp' },
    ]);
    // Gmail reads Bcc from the raw message to deliver it, then drops the header.
    expect(mail.bcc).toEqual([{ name: '', address: 'audit@example.com' }]);
    expect(mail.text?.trim()).toBe(body);
    expect(mail.html).toContain('the &lt;script&gt; tag &amp; &quot;quotes&quot; stay text.');
    expect(mail.html).toContain('<a href="https://example.com/plan?a=1&amp;b=2">');
    expect(mail.html).not.toContain('<script>');
    expect(t.fake.sent[0]!.threadId).toBeUndefined();
  });

  it('threads a reply: threadId, In-Reply-To, References and "Re:"', async () => {
    t = await gmailTestbed();
    const r = await t.call('gmail_send', {
      to: ['Carol Baker <carol@example.org>'],
      body: 'See you at 12:30!',
      reply_to_message_id: t.ids.thread1.id,
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain(`thread ${t.ids.thread1.threadId} (a reply in the existing thread)`);
    const sent = t.fake.sent[0]!;
    expect(sent.threadId).toBe(t.ids.thread1.threadId);
    const mail = await PostalMime.parse(sent.raw);
    expect(mail.subject).toBe('Re: Lunch on Friday?');
    expect(mail.inReplyTo).toBe('<t1.lunch@mail.example.org>');
    expect(mail.references).toBe('<t1.lunch@mail.example.org>');

    // Replying to the third message: References carries the whole chain; "Re: Re:" never happens.
    await t.call('gmail_send', {
      to: ['carol@example.org'],
      body: 'Booked.',
      reply_to_message_id: t.ids.thread3.id,
    });
    const second = await PostalMime.parse(t.fake.sent[1]!.raw);
    expect(second.subject).toBe('Re: Lunch on Friday?');
    expect(second.inReplyTo).toBe('<t3.lunch@mail.example.org>');
    expect(second.references?.split(/\s+/)).toEqual([
      '<t1.lunch@mail.example.org>',
      '<t2.lunch@mail.example.com>',
      '<t3.lunch@mail.example.org>',
    ]);
    expect(t.fake.sent[1]!.threadId).toBe(t.ids.thread1.threadId);

    // A given subject gets "Re:" too.
    await t.call('gmail_send', {
      to: ['carol@example.org'],
      subject: 'Lunch',
      body: 'x',
      reply_to_message_id: t.ids.thread1.id,
    });
    expect((await PostalMime.parse(t.fake.sent[2]!.raw)).subject).toBe('Re: Lunch');
  });

  it('rejects a bad address with a clear error, and sends nothing', async () => {
    t = await gmailTestbed();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ to: ['bob@'] }, /^to: "bob@" is not a valid e-mail address/],
      [{ to: ['not an address'] }, /^to: "not an address" is not a valid e-mail address/],
      [
        { to: ['ok@example.com'], cc: ['carol@example.org, eve'] },
        /^cc: "eve" is not a valid e-mail address/,
      ],
      [{ to: ['a@b'] }, /^to: "a@b" is not a valid e-mail address/],
      [{ to: [] }, /^to: at least one recipient is needed/],
      [{ to: ['Bob <bob@example.com>\r\nBcc: evil@example.com'] }, /contains a line break/],
    ];
    for (const [args, message] of cases) {
      const r = await t.call('gmail_send', { subject: 'Hi', body: 'Hello', ...args });
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(message);
      expect(
        t.source.describeEffect('gmail_send', { subject: 'Hi', body: 'Hello', ...args }),
      ).toMatch(/this call will FAIL and nothing will be sent/);
    }
    const noSubject = await t.call('gmail_send', { to: ['ok@example.com'], body: 'Hello' });
    expect(noSubject.text).toMatch(/^subject: a subject is needed/);
    expect(posts(t)).toBe(0);
    expect(t.fake.sent).toHaveLength(0);
  });

  it('keeps a line break in the subject from adding headers', async () => {
    t = await gmailTestbed();
    await t.call('gmail_send', {
      to: ['ok@example.com'],
      subject: 'Hi\r\nBcc: evil@example.com',
      body: 'x',
    });
    const mail = await PostalMime.parse(t.fake.sent[0]!.raw);
    expect(mail.bcc).toBeUndefined();
    expect(mail.subject).toBe('Hi Bcc: evil@example.com');
  });

  it('never retries a send, and says a server error may have sent it', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: (r) => r.path.endsWith('/messages/send'), status: 500 });
    const r = await t.call('gmail_send', { to: ['ok@example.com'], subject: 'Hi', body: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /server error.*may or may not have been sent: check with gmail_search "in:sent"/,
    );
    t.fake.fail({ match: (r2) => r2.path.endsWith('/messages/send'), status: 429, retryAfter: 5 });
    const limited = await t.call('gmail_send', {
      to: ['ok@example.com'],
      subject: 'Hi',
      body: 'x',
    });
    expect(limited.text).toMatch(/Try again in 5 seconds\. \[RATE_LIMITED\]/);
    expect(t.fake.count((r2) => r2.path.endsWith('/messages/send'))).toBe(2);
    expect(t.fake.sent).toHaveLength(0);
  });
});

describe('gmail_create_draft', () => {
  it('saves a threaded draft and sends nothing', async () => {
    t = await gmailTestbed();
    const r = await t.call('gmail_create_draft', {
      to: ['carol@example.org'],
      body: 'Draft reply',
      reply_to_message_id: t.ids.thread1.id,
    });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(
      /^Draft "Re: Lunch on Friday\?" to carol@example.org saved in alice@example.com \(draft id r\d+, message [0-9a-f]{16}\)\. Nothing was sent/,
    );
    expect(t.fake.sent).toHaveLength(0);
    expect(t.fake.drafts).toHaveLength(1);
    expect(t.fake.drafts[0]!.threadId).toBe(t.ids.thread1.threadId);
    expect((await PostalMime.parse(t.fake.drafts[0]!.raw)).inReplyTo).toBe(
      '<t1.lunch@mail.example.org>',
    );
  });
});

describe('approval text (describeEffect)', () => {
  it('shows the message as it will be sent', async () => {
    t = await gmailTestbed();
    const body = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const effect = t.source.describeEffect('gmail_send', {
      to: ['Carol <carol@example.org>'],
      cc: ['erin@example.com'],
      bcc: ['audit@example.com'],
      subject: 'Plan',
      body,
    });
    expect(effect).toBe(
      [
        'Send an email from alice@example.com — the recipient sees it immediately.',
        'From: alice@example.com',
        'To: Carol <carol@example.org>',
        'Cc: erin@example.com',
        'Bcc: audit@example.com',
        'Subject: Plan',
        '',
        ...Array.from({ length: 15 }, (_, i) => `line ${i + 1}`),
        '[… 5 more lines]',
      ].join('\n'),
    );
  });

  it("shows a reply's real subject once Airlock has seen the original, and says when it has not", async () => {
    t = await gmailTestbed();
    const args = { to: ['carol@example.org'], body: 'Yes', reply_to_message_id: t.ids.thread1.id };
    expect(t.source.describeEffect('gmail_send', args)).toContain(
      `Subject: Re: <the subject of message ${t.ids.thread1.id}>`,
    );
    await t.call('gmail_search', { query: 'lunch' });
    const effect = t.source.describeEffect('gmail_send', args);
    expect(effect).toContain('Subject: Re: Lunch on Friday?');
    expect(effect).toContain(
      `In reply to: message ${t.ids.thread1.id} (same thread) from “Carol Baker <carol@example.org>”, subject “Lunch on Friday?”`,
    );
    expect(t.source.describeEffect('gmail_create_draft', args)).toMatch(
      /^Create a draft in alice@example.com \(not sent\)\./,
    );
  });

  it('names what a trash or label change touches', async () => {
    t = await gmailTestbed();
    await t.call('gmail_search', { query: 'receipt' });
    expect(t.source.describeEffect('gmail_trash', { message_ids: [t.ids.receipt.id] })).toBe(
      `Move 1 message in alice@example.com to the Trash (recoverable for 30 days):\n- message ${t.ids.receipt.id} from “Northwind Outfitters <orders@shop.example>”, subject “Your Northwind receipt NW-10482”`,
    );
    // The ids as the action reads them (trimmed, each once): one message, named by its subject.
    const padded = { message_ids: [` ${t.ids.receipt.id}`, `${t.ids.receipt.id}\t`] };
    expect(t.source.describeEffect('gmail_trash', padded)).toBe(
      t.source.describeEffect('gmail_trash', { message_ids: [t.ids.receipt.id] }),
    );
    expect(t.source.describeEffect('gmail_archive', { message_ids: [' '] })).toMatch(
      /this call will FAIL and change nothing: message_ids: give at least one message id/,
    );
    expect(
      t.source.describeEffect('gmail_modify_labels', {
        message_ids: ['18f2a4c1b0fffff0'],
        add_labels: ['STARRED'],
        remove_labels: ['UNREAD'],
      }),
    ).toBe(
      'Change labels on 1 message in alice@example.com: add “STARRED”; remove “UNREAD”\n- message 18f2a4c1b0fffff0',
    );
  });
});
