import { createHash, randomBytes } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import PostalMime from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { JSON_PAYLOAD_LIMIT } from '../../../e2e/fake-google/gmail-upload.js';
import { GmailSource } from './source.js';

/**
 * Messages bigger than a JSON body may be (issue 33 item 2). Google refuses a JSON request past its
 * payload limit (400 "Request payload size exceeds the limit: 5242880 bytes"); messages.send and
 * drafts.create/update also take the whole message at their media upload URI
 * (/upload/gmail/v1/users/{userId}/…, uploadType=media or multipart, message/*, up to 35 MB;
 * developers.google.com/gmail/api/guides/uploads). The fake follows both; what it received is
 * parsed back with postal-mime and compared byte for byte.
 */

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const bytesOf = (a: { content: unknown }) => Buffer.from(a.content as ArrayBuffer);

/** A message in Alice's inbox carrying `bytes` as big.bin; its id. */
async function withFile(tb: NonNullable<typeof t>, bytes: Buffer): Promise<string> {
  const raw = await new MailComposer({
    from: 'Grace <grace@northwind.example>',
    to: ALICE.email,
    subject: 'The archive',
    text: 'Here it is.',
    attachments: [{ filename: 'big.bin', content: bytes, contentType: 'application/zip' }],
  })
    .compile()
    .build();
  return tb.fake.add(ALICE.email, { raw, labelIds: ['INBOX'] }).id;
}

const writes = (tb: NonNullable<typeof t>) =>
  tb.fake.requests.filter((r) => r.method !== 'GET' && !r.batched);

describe('a message over the JSON limit goes by upload', () => {
  it('a 10 MB file from a message is sent, drafted and updated byte-exact', async () => {
    t = await gmailTestbed();
    const bytes = randomBytes(10 * 1024 * 1024);
    const id = await withFile(t, bytes);
    const attachments = [{ message_id: id, filename: 'big.bin' }];

    const sent = await t.call('gmail_send', {
      to: ['bob@example.com'],
      subject: 'The archive',
      body: 'Attached.',
      attachments,
    });
    expect(sent.isError, sent.text).toBe(false);
    const [send] = writes(t);
    expect(send).toMatchObject({ path: '/gmail/v1/users/me/messages/send', upload: 'media' });
    const mail = await PostalMime.parse(t.fake.sent[0]!.raw);
    expect(mail.text?.trim()).toBe('Attached.');
    expect(mail.attachments.map((a) => [a.filename, a.mimeType])).toEqual([
      ['big.bin', 'application/zip'],
    ]);
    expect(digest(bytesOf(mail.attachments[0]!))).toBe(digest(bytes));

    // A draft carries its metadata (and, in a thread, the thread id) with the message: multipart.
    const made = await t.call('gmail_create_draft', {
      to: ['bob@example.com'],
      subject: 'Draft archive',
      body: 'Draft.',
      attachments,
    });
    expect(made.isError, made.text).toBe(false);
    const draftId = /draft id (\S+),/.exec(made.text)![1]!;
    expect(writes(t)[1]).toMatchObject({ path: '/gmail/v1/users/me/drafts', upload: 'multipart' });
    const drafted = await PostalMime.parse(t.fake.drafts.at(-1)!.raw);
    expect(digest(bytesOf(drafted.attachments[0]!))).toBe(digest(bytes));

    const updated = await t.call('gmail_update_draft', {
      draft_id: draftId,
      to: ['carol@example.com'],
      body: 'Draft, again.',
      attachments,
    });
    expect(updated.isError, updated.text).toBe(false);
    expect(writes(t)[2]).toMatchObject({
      method: 'PUT',
      path: `/gmail/v1/users/me/drafts/${draftId}`,
      upload: 'multipart',
    });
    const again = await PostalMime.parse(t.fake.drafts.at(-1)!.raw);
    expect(again.to?.map((a) => a.address)).toEqual(['carol@example.com']);
    expect(digest(bytesOf(again.attachments[0]!))).toBe(digest(bytes));
  });

  it('a reply over the limit keeps its thread (multipart metadata)', async () => {
    t = await gmailTestbed();
    const bytes = randomBytes(2 * 1024 * 1024);
    const id = await withFile(t, bytes);
    const r = await t.call('gmail_send', {
      to: ['grace@northwind.example'],
      reply_to_message_id: id,
      body: 'Back to you.',
      attachments: [{ message_id: id, filename: 'big.bin' }],
    });
    expect(r.isError, r.text).toBe(false);
    expect(writes(t)[0]).toMatchObject({ upload: 'multipart' });
    const thread = t.fake.message(id)!.threadId;
    expect(t.fake.sent[0]!.threadId).toBe(thread);
    expect(digest(bytesOf((await PostalMime.parse(t.fake.sent[0]!.raw)).attachments[0]!))).toBe(
      digest(bytes),
    );
  });

  it('an upload answered 401 goes once more with a fresh token, carrying the whole message again', async () => {
    t = await gmailTestbed();
    const bytes = randomBytes(2 * 1024 * 1024);
    const id = await withFile(t, bytes);
    // The accounts layer drops a token Google refused and hands out a fresh one (reauth.ts).
    let token = ALICE.token;
    t.fake.addToken(ALICE.email, 'refreshed-token');
    const access = Object.assign(Object.create(t.access) as typeof t.access, {
      accessToken: () => Promise.resolve(token),
      tokenRejected: () => {
        token = 'refreshed-token';
      },
    });
    t.fake.fail({ match: (r) => r.upload !== undefined, status: 401 });
    const source = new GmailSource(access, { retry: { baseMs: 1 } });
    const r = await source.call(
      'gmail_send',
      {
        to: ['bob@example.com'],
        subject: 'Again',
        body: 'Attached.',
        attachments: [{ message_id: id, filename: 'big.bin' }],
      },
      { agent: 'test', signal: new AbortController().signal },
    );
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const uploads = t.fake.requests.filter((q) => q.upload !== undefined);
    expect(uploads).toHaveLength(2);
    expect(uploads[1]!.bodyBytes).toBe(uploads[0]!.bodyBytes);
    const mail = await PostalMime.parse(t.fake.sent[0]!.raw);
    expect(digest(bytesOf(mail.attachments[0]!))).toBe(digest(bytes));
  });

  it('a small message keeps the JSON body', async () => {
    t = await gmailTestbed();
    const r = await t.call('gmail_send', {
      to: ['bob@example.com'],
      subject: 'Hi',
      body: 'Short.',
    });
    expect(r.isError).toBe(false);
    const [send] = writes(t);
    expect(send?.upload).toBeUndefined();
    expect(send?.path).toBe('/gmail/v1/users/me/messages/send');
  });

  it('the fake answers a JSON body over the limit as Google does', async () => {
    t = await gmailTestbed();
    const res = await fetch(`${t.fake.root}gmail/v1/users/me/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ALICE.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ raw: 'A'.repeat(JSON_PAYLOAD_LIMIT) }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'Request payload size exceeds the limit: 5242880 bytes.',
    );
    expect(t.fake.sent).toHaveLength(0);
  });
});
