import { afterEach, describe, expect, it } from 'vitest';
import { account, StaticGoogleAccess } from '../../../e2e/fake-google/gmail-access.js';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { GmailSource } from './source.js';

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const check = (tool: string, args: Record<string, unknown>) =>
  t!.source.precheck(tool, args, new AbortController().signal);
const writes = () => t!.fake.count((r) => r.method !== 'GET' && !r.path.startsWith('/batch'));

describe('labels: create, rename, delete (issue 33 item 3)', () => {
  it('creates a nested label; a name in use (any case) is refused before asking', async () => {
    t = await gmailTestbed();
    // The card names the label as it will be made (labelNameArg: " / " is "/").
    expect(t.source.describeEffect('gmail_create_label', { name: 'Receipts / 2024' })).toBe(
      'Create a label in alice@example.com. Name: “Receipts/2024”',
    );
    expect(
      t.source.describeEffect('gmail_rename_label', {
        label: 'Receipts',
        new_name: ' Old / 2023 ',
      }),
    ).toBe('Rename a label in alice@example.com. Label: “Receipts”. New name: “Old/2023”');
    const r = await t.call('gmail_create_label', { name: 'Receipts / 2024' });
    expect(r.text).toMatch(
      /^Created label "Receipts\/2024" \(id Label_\d+\) in alice@example\.com\.$/,
    );
    expect((await t.call('gmail_list_labels')).text).toContain('Receipts/2024');
    expect(await check('gmail_create_label', { name: 'RECEIPTS' })).toBe(
      'There is already a label "Receipts" in alice@example.com.',
    );
    expect(t.source.validateArgs('gmail_create_label', { name: 'a//b' })).toBe(
      'name: "a//b" has an empty part between "/".',
    );
    expect(writes()).toBe(1);
  });

  it('says what Gmail answered when a name was taken meanwhile (409)', async () => {
    t = await gmailTestbed();
    await t.call('gmail_list_labels'); // the list is cached now
    t.fake.addLabel(ALICE.email, 'Projects');
    const r = await t.call('gmail_create_label', { name: 'projects' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'Gmail refused the new label "projects" in alice@example.com: it conflicts with what is there (409: Label name exists or conflicts). [GOOGLE_API]',
    );
  });

  it('renames and deletes a user label; the card counts its messages; system labels are refused', async () => {
    t = await gmailTestbed();
    const id = t.receiptsLabel;
    expect(
      await t.source.describeEffectAsync('gmail_rename_label', {
        label: 'receipts',
        new_name: 'Invoices',
      }),
    ).toBe(
      'Rename a label in alice@example.com (1 message carries it). Label: “Receipts”. New name: “Invoices”',
    );
    expect(
      (await t.call('gmail_rename_label', { label: 'receipts', new_name: 'Invoices' })).text,
    ).toBe('Renamed label "Receipts" to "Invoices" in alice@example.com.');
    expect(t.fake.message(t.ids.receipt.id)!.labelIds).toContain(id);
    expect(await t.source.describeEffectAsync('gmail_delete_label', { label: 'Invoices' })).toBe(
      'Delete a label in alice@example.com: it is taken off its 1 message; the messages themselves stay. Label: “Invoices”',
    );
    expect((await t.call('gmail_delete_label', { label: id })).text).toBe(
      'Deleted label "Invoices" from alice@example.com; its messages stay, without it.',
    );
    expect(t.fake.message(t.ids.receipt.id)!.labelIds).not.toContain(id);
    expect(await check('gmail_delete_label', { label: 'Invoices' })).toBe(
      'There is no label "Invoices" in alice@example.com. gmail_list_labels lists the labels.',
    );
    expect(await check('gmail_rename_label', { label: 'inbox', new_name: 'Mine' })).toBe(
      "INBOX is one of Gmail's system labels: it cannot be renamed or deleted.",
    );
    expect(writes()).toBe(2);
  });
});

describe('filters: list, create, delete (issue 33 item 3)', () => {
  it('creates a labelling filter, lists it in words, and deletes it', async () => {
    t = await gmailTestbed();
    expect((await t.call('gmail_list_filters')).text).toBe(
      'Gmail filters in alice@example.com: none.',
    );
    const args = {
      from: 'orders@shop.example',
      has_attachment: true,
      add_labels: ['receipts'],
      archive: true,
      mark_read: true,
    };
    expect(t.source.alwaysAsk('gmail_create_filter', args)).toBeNull();
    expect(t.source.describeEffect('gmail_create_filter', args)).toBe(
      [
        'Create a Gmail filter in alice@example.com. From now on, every new message that matches',
        '  from “orders@shop.example”; has an attachment',
        'will be: archived (skips the Inbox); marked as read; labelled “receipts”.',
        'It keeps acting on new mail until the filter is deleted.',
        'Mail already in the mailbox is not changed.',
      ].join('\n'),
    );
    const r = await t.call('gmail_create_filter', args);
    expect(r.text).toMatch(
      /^Created filter (\S+) in alice@example\.com: mail that from “orders@shop\.example”; has an attachment → archived \(skips the Inbox\); marked as read; labelled “Receipts”\. It acts on mail that arrives from now on\.$/,
    );
    const stored = t.fake.settings.filters.get(ALICE.email)!;
    expect(stored).toEqual([
      {
        id: expect.any(String),
        criteria: { from: 'orders@shop.example', hasAttachment: true },
        action: { addLabelIds: [t.receiptsLabel], removeLabelIds: ['INBOX', 'UNREAD'] },
      },
    ]);
    const id = stored[0]!.id;
    expect((await t.call('gmail_list_filters')).text).toContain(
      `- ${id}: mail that from “orders@shop.example”`,
    );
    expect(await t.source.describeEffectAsync('gmail_delete_filter', { filter_id: id })).toBe(
      `Delete Gmail filter ${id} in alice@example.com. Mail it already handled stays as it is. From now on new mail is no longer archived (skips the Inbox); marked as read; labelled “Receipts”, for mail that from “orders@shop.example”; has an attachment`,
    );
    expect((await t.call('gmail_delete_filter', { filter_id: id })).text).toBe(
      `Deleted filter ${id} from alice@example.com.`,
    );
    expect(await check('gmail_delete_filter', { filter_id: id })).toBe(
      `There is no filter with id ${id} in alice@example.com. gmail_list_filters lists the filters.`,
    );
  });

  it('a forwarding or trashing filter always asks and says what it does to future mail', async () => {
    t = await gmailTestbed();
    const args = { subject: 'invoice', forward_to: 'books@accounting.example', trash: true };
    expect(t.source.alwaysAsk('gmail_create_filter', args)).toBe(
      'This filter forwards matching mail to books@accounting.example and moves matching mail to the Trash from now on.',
    );
    expect(t.source.describeEffect('gmail_create_filter', args)).toBe(
      [
        'Create a Gmail filter in alice@example.com. From now on, every new message that matches',
        '  subject has “invoice”',
        'will be: MOVED TO THE TRASH (Gmail deletes it for good after 30 days); FORWARDED to books@accounting.example.',
        'It keeps doing this to new mail without asking again, until the filter is deleted.',
        'Mail already in the mailbox is not changed.',
      ].join('\n'),
    );
    // Gmail forwards only to a verified forwarding address: refused before asking.
    expect(await check('gmail_create_filter', args)).toBe(
      "books@accounting.example is not a forwarding address of alice@example.com. Gmail forwards only to addresses the user adds and verifies in Gmail's settings (Forwarding and POP/IMAP).",
    );
    t.fake.settings.forwarding.set(ALICE.email, [
      { forwardingEmail: 'books@accounting.example', verificationStatus: 'pending' },
    ]);
    expect(await check('gmail_create_filter', args)).toMatch(
      /is still waiting for its owner to confirm/,
    );
    t.fake.settings.forwarding.get(ALICE.email)![0]!.verificationStatus = 'accepted';
    expect(await check('gmail_create_filter', args)).toBeNull();
    expect((await t.call('gmail_create_filter', args)).isError).toBe(false);
    expect(t.fake.settings.filters.get(ALICE.email)![0]!.action).toEqual({
      addLabelIds: ['TRASH'],
      forward: 'books@accounting.example',
    });
    // TRASH by label name is not a way around the flag.
    expect(
      t.source.validateArgs('gmail_create_filter', { from: 'x@y.example', add_labels: ['trash'] }),
    ).toBe('add_labels: to send matching mail to the Trash, use trash: true.');
  });

  it('bad filters are refused before asking: no criteria, no action, a bad address, an unknown label', async () => {
    t = await gmailTestbed();
    expect(t.source.validateArgs('gmail_create_filter', { archive: true })).toMatch(
      /^Say which mail the filter applies to/,
    );
    expect(t.source.validateArgs('gmail_create_filter', { from: 'a@b.example' })).toMatch(
      /^Say what the filter does/,
    );
    expect(
      t.source.validateArgs('gmail_create_filter', { from: 'a@b.example', forward_to: 'nope' }),
    ).toMatch(/^forward_to: "nope" is not a valid e-mail address/);
    expect(
      await check('gmail_create_filter', { from: 'a@b.example', add_labels: ['Invoices'] }),
    ).toMatch(/^There is no label "Invoices" in alice@example\.com\./);
  });

  it('the Tools page learns a filter tool cannot run from the check a call makes (issue 28 item 5)', async () => {
    t = await gmailTestbed();
    expect(t.source.toolProblem('gmail_create_filter')).toBeNull();
    const scopes = account(ALICE.email, ALICE.token).scopes.filter(
      (s) => !s.endsWith('settings.basic'),
    );
    const source = new GmailSource(
      new StaticGoogleAccess(t.fake.root, [{ ...account(ALICE.email, ALICE.token), scopes }]),
    );
    const why = source.toolProblem('gmail_create_filter');
    expect(why).toMatch(/^alice@example\.com did not allow Airlock to manage Gmail filters/);
    // The same words a call gets.
    const r = await source.call(
      'gmail_create_filter',
      { from: 'a@b.example', star: true },
      { agent: 't', signal: new AbortController().signal },
    );
    expect(JSON.stringify(r.content)).toContain(JSON.stringify(why).slice(1, 40));
    expect(source.toolProblem('gmail_list_filters')).toBeNull();
  });

  it('an account that did not grant gmail.settings.basic is refused before asking, without a request', async () => {
    t = await gmailTestbed();
    const scopes = account(ALICE.email, ALICE.token).scopes.filter(
      (s) => !s.endsWith('settings.basic'),
    );
    const access = new StaticGoogleAccess(t.fake.root, [
      { ...account(ALICE.email, ALICE.token), scopes },
    ]);
    const source = new GmailSource(access);
    const why = await source.precheck(
      'gmail_create_filter',
      { from: 'a@b.example', star: true },
      new AbortController().signal,
    );
    expect(why).toMatch(
      /^alice@example\.com did not allow Airlock to manage Gmail filters when it was connected/,
    );
    const r = await source.call(
      'gmail_delete_filter',
      { filter_id: 'x' },
      { agent: 't', signal: new AbortController().signal },
    );
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain('[OAUTH_SCOPE]');
    // Reading filters needs no extra scope (filters.list accepts gmail.modify).
    expect(
      (
        await source.call(
          'gmail_list_filters',
          {},
          { agent: 't', signal: new AbortController().signal },
        )
      ).isError,
    ).toBeFalsy();
    expect(t.fake.count((r2) => r2.path.includes('/settings/filters') && r2.method !== 'GET')).toBe(
      0,
    );
    await source.stop();
  });
});
