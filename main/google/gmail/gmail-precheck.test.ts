import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, BOB, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const check = (tool: string, args: Record<string, unknown>) =>
  t!.source.precheck(tool, args, new AbortController().signal);

describe('checks before the user is asked (issue 33 item 4)', () => {
  it('names message ids the account does not have, read in one batch round trip', async () => {
    t = await gmailTestbed();
    const known = t.ids.receipt.id;
    t.fake.resetCounters();
    expect(
      await check('gmail_trash', { message_ids: [known, '18f2a4c1b0fffff0', 'not-an-id'] }),
    ).toBe(
      'There is no message with id 18f2a4c1b0fffff0, not-an-id in alice@example.com. Use the exact id from gmail_search or gmail_read; nothing was changed.',
    );
    expect(t.fake.httpRequests()).toBe(1);
    expect(t.fake.count((r) => r.method !== 'GET' && !r.path.startsWith('/batch'))).toBe(0);
    // What it read is kept for the approval text: the subject, without another request.
    expect(t.source.describeEffect('gmail_archive', { message_ids: [known] })).toContain(
      '“Your Northwind receipt NW-10482”',
    );
    expect(await check('gmail_archive', { message_ids: [known] })).toBeNull();
  });

  it('names an unknown label, and a message being replied to that does not exist', async () => {
    t = await gmailTestbed();
    const id = t.ids.thread1.id;
    expect(
      await check('gmail_modify_labels', { message_ids: [id], add_labels: ['Invoices'] }),
    ).toMatch(/^There is no label "Invoices" in alice@example\.com\. Labels: INBOX, /);
    expect(
      await check('gmail_modify_labels', { message_ids: [id], add_labels: ['receipts'] }),
    ).toBeNull();
    expect(
      await check('gmail_send', {
        to: ['carol@example.org'],
        body: 'x',
        reply_to_message_id: '18f2a4c1b0fffff0',
      }),
    ).toBe(
      'There is no message with id 18f2a4c1b0fffff0 in alice@example.com (the message being replied to). Use the exact id from gmail_search or gmail_read; nothing was changed.',
    );
    expect(
      await check('gmail_create_draft', {
        to: ['c@example.org'],
        body: 'x',
        reply_to_message_id: id,
      }),
    ).toBeNull();
  });

  it('names a draft that does not exist, and one with no recipient to send to', async () => {
    t = await gmailTestbed();
    for (const tool of ['gmail_send_draft', 'gmail_delete_draft'])
      expect(await check(tool, { draft_id: 'r77' })).toBe(
        'There is no draft with id r77 in alice@example.com (it may have been sent or deleted). gmail_list_drafts lists the drafts.',
      );
    const raw = await new MailComposer({ from: ALICE.email, subject: 'Idea', text: 'x' })
      .compile()
      .build();
    const { id } = t.fake.draftStore.seed(ALICE.email, raw);
    expect(await check('gmail_send_draft', { draft_id: id })).toBe(
      `Draft ${id} has no recipient; nothing would be sent. Add one with gmail_update_draft.`,
    );
    expect(await check('gmail_delete_draft', { draft_id: id })).toBeNull();
  });

  it('names an account that is unknown or read-only', async () => {
    t = await gmailTestbed({ withBob: true });
    expect(await check('gmail_trash', { message_ids: ['x'], account: BOB.email })).toBe(
      'bob@example.net is connected read-only: Airlock cannot send or change mail in it.',
    );
    expect(await check('gmail_send_draft', { draft_id: 'r1', account: 'eve@example.com' })).toBe(
      'No connected Google account eve@example.com. Connected: alice@example.com, bob@example.net.',
    );
    expect(t.fake.requests).toHaveLength(0);
  });

  it('leaves the call to the approval when Gmail cannot answer (rate limit, server error)', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: () => true, status: 503, times: 50 });
    expect(await check('gmail_trash', { message_ids: ['18f2a4c1b0fffff0'] })).toBeNull();
    expect(await check('gmail_send_draft', { draft_id: 'r1' })).toBeNull();
    t.fake.fail({ match: () => true, status: 429, times: 50, retryAfter: 60 });
    expect(await check('gmail_delete_draft', { draft_id: 'r1' })).toBeNull();
  });

  it('after an approval, a missing message is worded the same way', async () => {
    t = await gmailTestbed();
    const r = await t.call('gmail_archive', { message_ids: ['18f2a4c1b0fffff0'] });
    expect(r.text).toMatch(
      /^Gmail found no message with id 18f2a4c1b0fffff0 in alice@example\.com \(404\)\./,
    );
    const trash = await t.call('gmail_trash', { message_ids: ['18f2a4c1b0fffff0'] });
    expect(trash.text).toContain(
      '- 18f2a4c1b0fffff0: Gmail found no message with id 18f2a4c1b0fffff0 in alice@example.com (404).',
    );
  });
});
