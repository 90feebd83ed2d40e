import { afterEach, describe, expect, it } from 'vitest';
import { account, StaticGoogleAccess } from '../../../e2e/fake-google/gmail-access.js';
import { ALICE, BOB, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { eventually } from '../../../test-support/eventually.js';
import { GmailSource } from './source.js';

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('labels, archive, trash', () => {
  it('modifies labels by name, archives and trashes — never deletes', async () => {
    t = await gmailTestbed();
    const id = t.ids.thread3.id;
    const mod = await t.call('gmail_modify_labels', {
      message_ids: [id],
      add_labels: ['receipts', 'STARRED'],
      remove_labels: ['UNREAD'],
    });
    expect(mod.text).toBe('On 1 message: added receipts, STARRED; removed UNREAD.');
    expect(t.fake.message(id)!.labelIds.sort()).toEqual(
      ['INBOX', 'STARRED', t.receiptsLabel].sort(),
    );
    const bad = await t.call('gmail_modify_labels', {
      message_ids: [id],
      add_labels: ['Invoices'],
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(
      /^There is no label "Invoices" in alice@example.com\. Labels: INBOX, .*Receipts\. \(gmail_create_label creates one\.\)$/,
    );
    expect((await t.call('gmail_archive', { message_ids: [id] })).text).toMatch(
      /^Archived 1 message/,
    );
    expect(t.fake.message(id)!.labelIds).not.toContain('INBOX');
    const trash = await t.call('gmail_trash', { message_ids: [id, t.ids.thread2.id] });
    expect(trash.text).toMatch(/^Moved 2 of 2 messages to the Trash/);
    expect(t.fake.message(t.ids.thread2.id)!.labelIds).toContain('TRASH');
    expect(t.fake.count((r) => r.method === 'DELETE' || r.path.endsWith('batchDelete'))).toBe(0);
    const search = await t.call('gmail_search', { query: 'lunch' });
    expect(search.text).not.toContain(t.ids.thread2.id);
  });

  // The card's lookup is told to stop shortly before the approval's bound (main/calls/effect-text.ts
  // EFFECT_COMPOSE_MS): it then answers at once with the messages it did read, not only ids.
  it("the trash card's lookup, stopped while one message is slow, shows the ones it read", async () => {
    // Retried on and on: a lookup that did not stop would wait minutes, past the test's timeout.
    t = await gmailTestbed({ source: { retry: { baseMs: 1, attempts: 10 } } });
    const read = t.ids.receipt.id;
    const slow = t.ids.newsletter.id;
    const args = { message_ids: [read, slow] };
    // Gmail keeps answering "later" for one message: its read waits out a 20 s Retry-After.
    t.fake.fail({
      match: (r) => r.method === 'GET' && r.path.endsWith(`/messages/${slow}`),
      status: 429,
      times: 10,
      retryAfter: 20,
    });
    const stop = new AbortController();
    const card = t.source.describeEffectAsync('gmail_trash', args, stop.signal);
    await eventually(() => {
      expect(t!.source.describeEffect('gmail_trash', args)).toContain('Northwind receipt');
      expect(t!.fake.count((r) => r.path.endsWith(`/messages/${slow}`))).toBe(1);
    });
    stop.abort();
    const text = await card;
    expect(text).toContain(', subject “Your Northwind receipt NW-10482”');
    expect(text).toContain(`- message ${slow}`);
    expect(t.fake.count((r) => r.path.endsWith(`/messages/${slow}`))).toBe(1);
  });

  it('lists labels', async () => {
    t = await gmailTestbed();
    const r = await t.call('gmail_list_labels');
    expect(r.text).toContain(`User labels (1): Receipts (id ${t.receiptsLabel})`);
    expect(r.text).toMatch(/System labels: INBOX, SENT, DRAFT/);
  });
});

describe('tools follow the accounts', () => {
  it('offers read tools for every account and write tools only for accounts that may write', async () => {
    t = await gmailTestbed({ withBob: true });
    const defs = new Map(t.source.tools().map((d) => [d.name, d]));
    expect([...defs.keys()].sort()).toEqual([
      'gmail_archive',
      'gmail_create_draft',
      'gmail_create_filter',
      'gmail_create_label',
      'gmail_delete_draft',
      'gmail_delete_filter',
      'gmail_delete_label',
      'gmail_get_attachment',
      'gmail_get_draft',
      'gmail_list_drafts',
      'gmail_list_filters',
      'gmail_list_labels',
      'gmail_modify_labels',
      'gmail_read',
      'gmail_read_attachment',
      'gmail_read_thread',
      'gmail_rename_label',
      'gmail_search',
      'gmail_send',
      'gmail_send_draft',
      'gmail_trash',
      'gmail_update_draft',
    ]);
    const enumOf = (name: string) =>
      (defs.get(name)!.inputSchema.properties as Record<string, { enum?: string[] }>).account!.enum;
    const spanning = (
      defs.get('gmail_search')!.inputSchema.properties as Record<
        string,
        { anyOf: { enum?: string[] }[] }
      >
    ).account!.anyOf;
    expect(spanning[0]!.enum).toEqual([ALICE.email, BOB.email, 'all']);
    expect(enumOf('gmail_send')).toEqual([ALICE.email]);
    for (const name of [
      'gmail_search',
      'gmail_read',
      'gmail_read_thread',
      'gmail_read_attachment',
      'gmail_get_attachment',
      'gmail_list_labels',
      'gmail_list_drafts',
      'gmail_get_draft',
      'gmail_list_filters',
    ]) {
      expect(defs.get(name)).toMatchObject({
        trustedReadOnly: true,
        annotations: { readOnlyHint: true, destructiveHint: false },
      });
    }
    for (const name of [
      'gmail_send',
      'gmail_create_draft',
      'gmail_modify_labels',
      'gmail_archive',
      'gmail_trash',
      'gmail_update_draft',
      'gmail_send_draft',
      'gmail_delete_draft',
      'gmail_create_label',
      'gmail_rename_label',
      'gmail_delete_label',
      'gmail_create_filter',
      'gmail_delete_filter',
    ]) {
      expect(defs.get(name)!.trustedReadOnly).toBeUndefined();
      expect(defs.get(name)!.annotations?.readOnlyHint).toBe(false);
    }
    expect(defs.get('gmail_trash')!.annotations?.destructiveHint).toBe(true);
    for (const name of ['gmail_delete_draft', 'gmail_delete_label', 'gmail_create_filter'])
      expect(defs.get(name)!.annotations?.destructiveHint).toBe(true);
    expect(defs.get('gmail_send_draft')!.annotations).toMatchObject({
      destructiveHint: false,
      openWorldHint: true,
    });
    expect(enumOf('gmail_get_draft')).toEqual([ALICE.email, BOB.email]);
    expect(enumOf('gmail_send_draft')).toEqual([ALICE.email]);
    expect(defs.get('gmail_send')!.description.endsWith('the recipient sees it immediately')).toBe(
      true,
    );

    const asBob = await t.call('gmail_send', {
      to: ['x@example.com'],
      subject: 's',
      body: 'b',
      account: BOB.email,
    });
    expect(asBob.text).toMatch(
      /^bob@example\.net is connected read-only: Airlock cannot send or change mail in it\./,
    );
    const bobSearch = await t.call('gmail_search', { query: '', account: BOB.email });
    expect(bobSearch.text).toMatch(/^Gmail search in bob@example\.net: no messages\./);
    const unknown = await t.call('gmail_search', { account: 'mallory@example.com' });
    expect(unknown.text).toMatch(
      /No connected Google account mallory@example\.com\. Connected: alice@example\.com, bob@example\.net\. \[NO_ACCOUNT\]/,
    );
  });

  it('a read-only account alone gets no write tools; the set is recomputed when accounts change', async () => {
    const access = new StaticGoogleAccess('http://127.0.0.1:9/', [
      account(BOB.email, BOB.token, true),
    ]);
    const source = new GmailSource(access);
    expect(source.tools().map((d) => d.name)).toEqual([
      'gmail_search',
      'gmail_read',
      'gmail_read_thread',
      'gmail_read_attachment',
      'gmail_get_attachment',
      'gmail_list_labels',
      'gmail_list_drafts',
      'gmail_get_draft',
      'gmail_list_filters',
    ]);
    let fired = 0;
    source.onChange(() => fired++);
    access.setAccounts([account(BOB.email, BOB.token, true), account(ALICE.email, ALICE.token)]);
    expect(fired).toBe(1);
    expect(source.tools().map((d) => d.name)).toContain('gmail_send');
    access.setAccounts([]);
    expect(source.tools()).toEqual([]);
    const r = await source.call(
      'gmail_search',
      {},
      { agent: 'a', signal: new AbortController().signal },
    );
    expect(r.isError).toBe(true);
    await source.stop();
    access.setAccounts([account(ALICE.email, ALICE.token)]);
    expect(fired).toBe(2);
  });
});
