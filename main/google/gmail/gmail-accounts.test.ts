import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, BOB, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

/** Bob's mailbox: two messages about lunch, one newer than all of Alice's, one older. */
async function withBobsMail() {
  t = await gmailTestbed({ withBob: true });
  for (const [subject, date] of [
    ['Lunch with Bob', 'Mon, 01 Jan 2035 12:00:00 +0000'],
    ['Old lunch note', 'Mon, 01 Jan 2001 12:00:00 +0000'],
  ] as const) {
    const raw = await new MailComposer({
      from: 'Dana <dana@example.org>',
      to: BOB.email,
      subject,
      date,
      text: 'lunch?',
    })
      .compile()
      .build();
    t.fake.add(BOB.email, { raw, labelIds: ['INBOX'] });
  }
  return t;
}

const items = (text: string) =>
  [...text.matchAll(/^\d+\. \[([^\]]+)\] (.+)$/gm)].map((m) => `${m[1]}: ${m[2]}`);

describe('reads across accounts (issue 33 item 6)', () => {
  it('searches every account in parallel, merged newest first, each item naming its account', async () => {
    const tb = await withBobsMail();
    tb.fake.resetCounters();
    const r = await tb.call('gmail_search', { query: 'lunch', account: 'all' });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(
      /^Gmail search "lunch" in alice@example\.com, bob@example\.net: \d+ messages, newest first\./,
    );
    const listed = items(r.text);
    expect(listed[0]).toBe('bob@example.net: Lunch with Bob');
    expect(listed.at(-1)).toBe('bob@example.net: Old lunch note');
    expect(listed.filter((l) => l.startsWith('alice@example.com: '))).not.toHaveLength(0);
    // Each account: its list and one batch (the accounts are asked side by side).
    for (const who of [ALICE.email, BOB.email])
      expect(tb.fake.count((q) => !q.batched && q.account === who)).toBe(2);
    // A list of accounts, in any case, is the same as "all" here.
    const listedToo = await tb.call('gmail_search', {
      query: 'lunch',
      account: ['BOB@example.net', ALICE.email],
    });
    expect(items(listedToo.text)).toEqual(listed);
  });

  it('pages each account with its own token, carried in one', async () => {
    const tb = await withBobsMail();
    const first = await tb.call('gmail_search', { query: 'lunch', account: 'all', max_results: 1 });
    expect(items(first.text)).toHaveLength(2);
    const token = /page_token="([^"]+)"/.exec(first.text)![1]!;
    const second = await tb.call('gmail_search', {
      query: 'lunch',
      max_results: 1,
      page_token: token,
    });
    expect(items(second.text)).toHaveLength(2);
    const ids = (text: string) => [...text.matchAll(/ · id ([0-9a-f]{16}) · /g)].map((m) => m[1]);
    expect(new Set([...ids(first.text), ...ids(second.text)]).size).toBe(4);
    const bad = await tb.call('gmail_search', { account: 'all', page_token: 'acc.bm90IGpzb24' });
    expect(bad.text).toMatch(/^page_token is not one a call across accounts gave out/);
  });

  it('an account that fails is reported beside the others’ results; unknown accounts are refused', async () => {
    const tb = await withBobsMail();
    tb.fake.fail({
      match: (q) => q.account === BOB.email && q.path.endsWith('/messages'),
      status: 503,
      times: 10,
    });
    const r = await tb.call('gmail_search', { query: 'lunch', account: 'all' });
    expect(r.isError).toBe(false);
    expect(items(r.text).every((l) => l.startsWith('alice@example.com: '))).toBe(true);
    expect(r.text).toMatch(
      /\nbob@example\.net could not be read: Gmail had a server error on the search "lunch" \(503/,
    );
    const unknown = await tb.call('gmail_search', { account: [ALICE.email, 'eve@example.com'] });
    expect(unknown.text).toMatch(
      /^No connected Google account eve@example\.com\. Connected: alice@example\.com, bob@example\.net\. \[NO_ACCOUNT\]/,
    );
    const write = await tb.call('gmail_trash', {
      message_ids: [tb.ids.receipt.id],
      account: [ALICE.email],
    });
    expect(write.text).toMatch(/^gmail_trash works in one account at a time/);
  });

  it('lists drafts across accounts', async () => {
    t = await gmailTestbed({ withBob: true });
    await t.call('gmail_create_draft', {
      to: ['a@example.org'],
      subject: 'Alice draft',
      body: 'x',
    });
    const r = await t.call('gmail_list_drafts', { account: 'all' });
    expect(r.text).toMatch(/^Drafts in alice@example\.com, bob@example\.net: 1, newest first\./);
    expect(r.text).toMatch(/1\. \[alice@example\.com\] Alice draft — draft r\d+/);
  });
});
