import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import PostalMime from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { PROVENANCE_META_KEY } from '../../provenance/provenance-service.js';

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const draftIdIn = (text: string) => /draft id (r\d+)/.exec(text)![1]!;

async function draft(tb: NonNullable<typeof t>, args: Record<string, unknown>): Promise<string> {
  const r = await tb.call('gmail_create_draft', args);
  expect(r.isError, r.text).toBe(false);
  return draftIdIn(r.text);
}

/** A draft saved as if in Gmail itself: any raw message (no recipient, an attachment). */
async function seedDraft(
  tb: NonNullable<typeof t>,
  opts: ConstructorParameters<typeof MailComposer>[0],
) {
  const node = new MailComposer({ from: ALICE.email, ...opts }).compile();
  node.keepBcc = true; // Gmail keeps a draft's Bcc
  const raw = await node.build();
  return tb.fake.draftStore.seed(ALICE.email, raw).id;
}

describe('gmail_list_drafts', () => {
  it('lists drafts newest first in two round trips, pages, and filters with a query', async () => {
    t = await gmailTestbed();
    for (const n of [1, 2, 3])
      await draft(t, { to: [`p${n}@example.com`], subject: `Plan ${n}`, body: `Draft ${n}` });
    t.fake.resetCounters();
    const first = await t.call('gmail_list_drafts', { max_results: 2 });
    expect(first.isError).toBe(false);
    expect(first.text).toMatch(/^Drafts: 2, newest first\./);
    expect(first.text).toMatch(/1\. Plan \d — draft r\d+\n {3}To: p\d@example\.com/);
    // The list and one batch for the two messages: the same round trips as gmail_search.
    expect(t.fake.httpRequests()).toBe(2);
    expect(t.fake.roundTrips()).toBe(2);
    const token = /page_token="([^"]+)"/.exec(first.text)![1]!;
    const second = await t.call('gmail_list_drafts', { max_results: 2, page_token: token });
    expect(second.text).toMatch(/^Drafts: 1, newest first\./);
    expect(second.text).not.toContain('page_token');
    const shown = [first.text, second.text]
      .join('\n')
      .match(/Plan \d/g)!
      .sort();
    expect(shown).toEqual(['Plan 1', 'Plan 2', 'Plan 3']);

    const filtered = await t.call('gmail_list_drafts', { query: 'to:p2@example.com' });
    expect(filtered.text).toMatch(/^Drafts matching "to:p2@example.com": 1, newest first\./);
    expect(filtered.text).toContain('Plan 2');
    const none = await t.call('gmail_list_drafts', { query: 'subject:nothing-like-this' });
    expect(none.text).toMatch(/: none\.$/);
  });
});

describe('gmail_get_draft', () => {
  it('shows the draft as it would go out, with its thread, and describes it as the user’s own', async () => {
    t = await gmailTestbed();
    const id = await draft(t, {
      to: ['Carol Baker <carol@example.org>'],
      bcc: ['audit@example.com'],
      body: 'Friday works.\nSee you',
      reply_to_message_id: t.ids.thread1.id,
    });
    const r = await t.call('gmail_get_draft', { draft_id: id });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(
      new RegExp(
        `^Draft ${id} in alice@example\\.com \\(message [0-9a-f]{16}, thread ${t.ids.thread1.threadId}\\)\\. Not sent\\.`,
      ),
    );
    expect(r.text).toContain('To: Carol Baker <carol@example.org>');
    expect(r.text).toContain('Bcc: audit@example.com');
    expect(r.text).toContain('Subject: Re: Lunch on Friday?');
    expect(r.text).toContain('In reply to: <t1.lunch@mail.example.org>');
    expect(r.text).toContain('---\nFriday works.\nSee you\n---');
    const meta = r.result._meta?.[PROVENANCE_META_KEY] as { from: string[]; private: boolean }[];
    expect(meta).toEqual([
      expect.objectContaining({ kind: 'mail', ref: id, from: [ALICE.email], private: true }),
    ]);
  });

  it('answers an unknown draft id with the account, as Gmail’s 404 says', async () => {
    t = await gmailTestbed();
    const r = await t.call('gmail_get_draft', { draft_id: 'r123456789' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'There is no draft with id r123456789 in alice@example.com (it may have been sent or deleted). gmail_list_drafts lists the drafts.',
    );
    expect(t.fake.count((q) => q.path.endsWith('/drafts/r123456789'))).toBe(1);
  });
});

describe('gmail_update_draft', () => {
  it('replaces recipients and text, keeps the subject and the thread, and sends nothing', async () => {
    t = await gmailTestbed();
    const id = await draft(t, {
      to: ['carol@example.org'],
      body: 'First try',
      reply_to_message_id: t.ids.thread1.id,
    });
    const before = t.fake.draftStore.messageOf(id);
    const r = await t.call('gmail_update_draft', {
      draft_id: id,
      to: ['carol@example.org', 'erin@example.com'],
      body: 'Second try',
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(
      new RegExp(
        `^Draft ${id} in alice@example\\.com now holds "Re: Lunch on Friday\\?" to carol@example\\.org, erin@example\\.com \\(message [0-9a-f]{16}\\)\\. Nothing was sent\\.$`,
      ),
    );
    // Gmail keeps the draft id and gives the new content a new message.
    const after = t.fake.draftStore.messageOf(id);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const latest = t.fake.drafts.at(-1)!;
    expect(latest.id).toBe(id);
    expect(latest.threadId).toBe(t.ids.thread1.threadId);
    const mail = await PostalMime.parse(latest.raw);
    expect(mail.subject).toBe('Re: Lunch on Friday?');
    expect(mail.inReplyTo).toBe('<t1.lunch@mail.example.org>');
    expect(mail.to?.map((m) => m.address)).toEqual(['carol@example.org', 'erin@example.com']);
    expect(mail.text?.trim()).toBe('Second try');
    expect(t.fake.sent).toHaveLength(0);

    const renamed = await t.call('gmail_update_draft', {
      draft_id: id,
      to: ['carol@example.org'],
      subject: 'Lunch, take two',
      body: 'Third',
    });
    expect(renamed.text).toContain('"Lunch, take two"');
    expect((await PostalMime.parse(t.fake.drafts.at(-1)!.raw)).subject).toBe('Lunch, take two');
  });

  it('refuses an unknown draft and a draft left without any subject', async () => {
    t = await gmailTestbed();
    const unknown = await t.call('gmail_update_draft', {
      draft_id: 'r42',
      to: ['a@example.com'],
      body: 'x',
    });
    expect(unknown.text).toMatch(/^There is no draft with id r42 in alice@example\.com/);
    const bare = await seedDraft(t, { to: 'a@example.com', text: 'no subject here' });
    const r = await t.call('gmail_update_draft', {
      draft_id: bare,
      to: ['a@example.com'],
      body: 'y',
    });
    expect(r.text).toBe(`subject: draft ${bare} has no subject; give one.`);
    expect(t.fake.count((q) => q.method === 'PUT')).toBe(0);
  });
});

describe('gmail_send_draft and gmail_delete_draft', () => {
  it('sends the draft as it is, once; the draft is gone afterwards', async () => {
    t = await gmailTestbed();
    const id = await draft(t, {
      to: ['Carol Baker <carol@example.org>'],
      cc: ['erin@example.com'],
      subject: 'Plan',
      body: 'Here is the plan.',
    });
    const r = await t.call('gmail_send_draft', { draft_id: id });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(
      new RegExp(
        `^Sent draft ${id} "Plan" from alice@example\\.com to Carol Baker <carol@example\\.org>, erin@example\\.com\\. Message id [0-9a-f]{16}, thread [0-9a-f]{16}\\.$`,
      ),
    );
    expect(t.fake.sent).toHaveLength(1);
    const mail = await PostalMime.parse(t.fake.sent[0]!.raw);
    expect(mail.subject).toBe('Plan');
    expect(mail.cc).toEqual([{ name: '', address: 'erin@example.com' }]);
    const again = await t.call('gmail_send_draft', { draft_id: id });
    expect(again.text).toMatch(/^There is no draft with id r\d+ in alice@example\.com/);
    expect(t.fake.sent).toHaveLength(1);
  });

  it('never sends a draft that changed after the approval showed it', async () => {
    t = await gmailTestbed();
    const id = await draft(t, { to: ['carol@example.org'], subject: 'Plan', body: 'Version one' });
    const card = await t.source.describeEffectAsync('gmail_send_draft', { draft_id: id });
    expect(card).toContain('Version one');
    await t.call('gmail_update_draft', {
      draft_id: id,
      to: ['stranger@elsewhere.example'],
      body: 'Version two',
    });
    const refused = await t.call('gmail_send_draft', { draft_id: id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      `Draft ${id} changed after Airlock checked it and the approval showed it; nothing was sent. Call gmail_send_draft again so the current version is checked and shown.`,
    );
    expect(t.fake.count((q) => q.path.endsWith('/drafts/send'))).toBe(0);
    // Shown again, the current version goes out.
    expect(await t.source.describeEffectAsync('gmail_send_draft', { draft_id: id })).toContain(
      'To: stranger@elsewhere.example',
    );
    expect((await t.call('gmail_send_draft', { draft_id: id })).isError).toBe(false);
    expect(t.fake.sent).toHaveLength(1);
  });

  it("the card's lookup ends with the signal it is given (the approval's bound, effect-text.ts)", async () => {
    t = await gmailTestbed();
    const id = await draft(t, { to: ['carol@example.org'], subject: 'Plan', body: 'Version one' });
    const reads = () => t!.fake.count((q) => q.method === 'GET' && q.path.includes('/drafts/'));
    const before = reads();
    const ended = new AbortController();
    ended.abort();
    await t.source.describeEffectAsync('gmail_send_draft', { draft_id: id }, ended.signal);
    expect(reads()).toBe(before);
    const card = await t.source.describeEffectAsync(
      'gmail_send_draft',
      { draft_id: id },
      new AbortController().signal,
    );
    expect(card).toContain('Version one');
    expect(reads()).toBe(before + 1);
  });

  it('a server error on send says it may have gone out, and is not retried', async () => {
    t = await gmailTestbed();
    const id = await draft(t, { to: ['carol@example.org'], subject: 'Plan', body: 'x' });
    t.fake.fail({ match: (q) => q.path.endsWith('/drafts/send'), status: 503 });
    const r = await t.call('gmail_send_draft', { draft_id: id });
    expect(r.text).toMatch(/may or may not have been sent: check with gmail_search "in:sent"/);
    expect(t.fake.count((q) => q.path.endsWith('/drafts/send'))).toBe(1);
  });

  it('deletes a draft for good; a second delete says there is no such draft', async () => {
    t = await gmailTestbed();
    const id = await draft(t, { to: ['carol@example.org'], subject: 'Old idea', body: 'x' });
    await t.call('gmail_get_draft', { draft_id: id });
    const r = await t.call('gmail_delete_draft', { draft_id: id });
    expect(r.text).toBe(
      `Deleted draft ${id} ("Old idea" to carol@example.org) from alice@example.com for good.`,
    );
    expect(t.fake.draftStore.messageOf(id)).toBeUndefined();
    expect(t.fake.count((q) => q.method === 'DELETE')).toBe(1);
    const again = await t.call('gmail_delete_draft', { draft_id: id });
    expect(again.text).toMatch(/^There is no draft with id r\d+ in alice@example\.com/);
    expect((await t.call('gmail_list_drafts')).text).toMatch(/^Drafts: none\.$/);
  });
});

describe('approval text of the draft tools', () => {
  it('shows the draft to be sent as it will go out, and the draft a change replaces', async () => {
    t = await gmailTestbed();
    const id = await seedDraft(t, {
      to: 'Carol Baker <carol@example.org>',
      bcc: 'audit@example.com',
      subject: 'Figures',
      text: Array.from({ length: 18 }, (_, i) => `row ${i + 1}`).join('\n'),
      attachments: [{ filename: 'q3.csv', contentType: 'text/csv', content: 'a,b\n1,2\n' }],
    });
    expect(await t.source.describeEffectAsync('gmail_send_draft', { draft_id: id })).toBe(
      [
        `Send draft ${id} from alice@example.com — the recipients see it immediately.`,
        'From: alice@example.com',
        'To: Carol Baker <carol@example.org>',
        'Bcc: audit@example.com',
        'Subject: Figures',
        'Attachment: “q3.csv” (“text/csv”, 8 B)',
        '',
        ...Array.from({ length: 15 }, (_, i) => `row ${i + 1}`),
        '[… 3 more lines]',
      ].join('\n'),
    );
    const update = await t.source.describeEffectAsync('gmail_update_draft', {
      draft_id: id,
      to: ['carol@example.org'],
      body: 'Shorter',
    });
    expect(update).toBe(
      [
        `Replace draft ${id} in alice@example.com with this message (not sent).`,
        'From: Alice Example <alice@example.com>',
        'To: carol@example.org',
        'Subject: Figures (unchanged)',
        '',
        'Shorter',
        '',
        'Replaces: the draft to “Carol Baker <carol@example.org>”, subject “Figures”',
        'Attachments (1): “q3.csv” (“text/csv”, 8 B) — removed by this change.',
      ].join('\n'),
    );
    expect(await t.source.describeEffectAsync('gmail_delete_draft', { draft_id: id })).toBe(
      [
        `Delete draft ${id} in alice@example.com for good (Gmail keeps no deleted drafts in the Trash).`,
        'The draft to “Carol Baker <carol@example.org>”, subject “Figures”',
        'Attachments (1): “q3.csv” (“text/csv”, 8 B)',
      ].join('\n'),
    );
    expect(t.fake.count((q) => q.method !== 'GET')).toBe(0);
  });
});
