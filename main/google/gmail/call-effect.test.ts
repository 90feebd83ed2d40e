import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, StaticGoogleAccess } from '../../../e2e/fake-google/gmail-access.js';
import { GmailFake } from '../../../e2e/fake-google/gmail-fake.js';
import { GmailSource } from './source.js';

/**
 * The effect a Gmail call declares (CallContent.effect, call-effect.ts) is what the tool does:
 * read through the source's own callContent, then the call run against the fake Gmail API and
 * the mailbox or the stored filter looked at.
 */

const USER = 'alice@example.com';
const TOKEN = 'ya29.effect-alice';
let gmail: GmailFake;
let src: GmailSource;
const signal = new AbortController().signal;

beforeAll(async () => {
  gmail = await new GmailFake([{ email: USER, token: TOKEN }]).start();
  src = new GmailSource(new StaticGoogleAccess(gmail.root, [account(USER, TOKEN)]), {
    retry: { baseMs: 1 },
  });
  await src.ready();
  gmail.addLabel(USER, 'Receipts');
});
afterAll(async () => {
  await src.stop();
  await gmail.stop();
});

let n = 0;
function seed(labelIds: string[]): string {
  const raw = Buffer.from(
    `From: shop@store.test\r\nTo: ${USER}\r\nSubject: Order ${++n}\r\nDate: Tue, 1 Dec 2026 09:00:00 +0000\r\nMessage-ID: <m${n}@store.test>\r\n\r\nYour order.\r\n`,
  );
  return gmail.add(USER, { raw, labelIds }).id;
}

async function effectOf(tool: string, args: Record<string, unknown>) {
  const declared = (await src.callContent(tool, args, signal))?.effect;
  expect(src.argsReach(tool, args)?.effect).toBe(declared);
  return declared;
}

async function run(tool: string, args: Record<string, unknown>) {
  const r = await src.call(tool, args, { agent: 't', signal });
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
}

/**
 * The rule, stated apart from call-effect.ts (Gmail API guide "Manage labels", "Types of labels"):
 * a change hides mail or answers for the user when it puts mail into Spam, the Trash or a tab
 * other than Primary, or takes it out of the Inbox, Spam, the Trash, the Primary tab, unread,
 * starred or important.
 */
const HIDES_ADDED = new Set([
  'SPAM',
  'TRASH',
  'CATEGORY_SOCIAL',
  'CATEGORY_PROMOTIONS',
  'CATEGORY_UPDATES',
  'CATEGORY_FORUMS',
]);
const HIDES_REMOVED = new Set([
  'INBOX',
  'UNREAD',
  'SPAM',
  'TRASH',
  'STARRED',
  'IMPORTANT',
  'CATEGORY_PERSONAL',
]);

/** Every system label the fake has, a user label and one there is none of. */
const POOL = [
  'INBOX',
  'UNREAD',
  'SPAM',
  'TRASH',
  'STARRED',
  'IMPORTANT',
  'CATEGORY_PERSONAL',
  'CATEGORY_SOCIAL',
  'CATEGORY_PROMOTIONS',
  'CATEGORY_UPDATES',
  'CATEGORY_FORUMS',
  'Receipts',
  'NoSuchLabel',
];

/**
 * A label name as an agent may write it: any case, spaces around it, and now and then a letter
 * whose case mapping leaves ASCII (the Kelvin sign lower-cases to "k", the long s upper-cases to
 * "S", the dotless i upper-cases to "I"), which labels.resolve reads by lower-casing.
 */
const written = (names: readonly string[]) =>
  fc
    .tuple(
      fc.constantFrom(...names),
      fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
      fc.constantFrom('', ' ', '\t', '\u00a0'),
      fc.oneof(
        { weight: 5, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(['s', '\u017f'], ['i', '\u0131'], ['k', '\u212a']),
        },
      ),
    )
    .map(([n, up, pad, odd]) => {
      let cased = [...n].map((c, i) => (up[i] ? c.toUpperCase() : c.toLowerCase())).join('');
      if (odd) cased = cased.replace(new RegExp(odd[0]!, 'i'), odd[1]!);
      return `${pad}${cased}${pad}`;
    });

/** What labels.resolve makes of a name, for the statement: trimmed and lower-cased. */
const key = (l: string) => l.trim().toLowerCase();
const hides = (add: readonly string[], remove: readonly string[]) =>
  add.some((l) => [...HIDES_ADDED].some((h) => h.toLowerCase() === key(l))) ||
  remove.some((l) => [...HIDES_REMOVED].some((h) => h.toLowerCase() === key(l)));

describe('Gmail calls declare what they hide or destroy', () => {
  it('gmail_trash and gmail_archive declare their effect, and do it', async () => {
    const a = seed(['INBOX', 'UNREAD']);
    expect(await effectOf('gmail_trash', { message_ids: [a] })).toBe('moves mail to the Trash');
    await run('gmail_trash', { message_ids: [a] });
    expect(gmail.message(a)!.labelIds).toContain('TRASH');
    const b = seed(['INBOX']);
    expect(await effectOf('gmail_archive', { message_ids: [b] })).toMatch(/archives mail/);
    await run('gmail_archive', { message_ids: [b] });
    expect(gmail.message(b)!.labelIds).not.toContain('INBOX');
  });

  it('gmail_update_draft declares that it replaces the draft, and the old text is gone', async () => {
    const made = await src.call(
      'gmail_create_draft',
      { to: 'bob@x.test', subject: 'Plan', body: 'The user wrote this.' },
      { agent: 't', signal },
    );
    const id = /draft id (r\d+)/.exec(JSON.stringify(made.content))?.[1];
    expect(id).toBeDefined();
    const args = { draft_id: id, to: 'bob@x.test', body: 'Replaced.' };
    expect(await effectOf('gmail_update_draft', args)).toMatch(/replaces a draft/);
    await run('gmail_update_draft', args);
    const read = await src.call('gmail_get_draft', { draft_id: id }, { agent: 't', signal });
    expect(JSON.stringify(read.content)).not.toContain('The user wrote this.');
  });

  it('a compose or read call declares none', async () => {
    expect(
      await effectOf('gmail_create_draft', { to: 'bob@x.test', subject: 's', body: 'b' }),
    ).toBe(undefined);
    expect(src.argsReach('gmail_search', { query: 'x' })?.effect).toBeUndefined();
  });

  it('gmail_modify_labels declares an effect exactly when it changes a hiding label', async () => {
    // Names as labels.resolve matches them (by id or name, any case, trimmed), repeated, mixed,
    // unknown: the declaration must read them as the change does.
    const names = fc.array(written(POOL), { maxLength: 3 });
    let [ran, hid, refused] = [0, 0, 0];
    await fc.assert(
      fc.asyncProperty(names, names, async (add, remove) => {
        fc.pre(add.length + remove.length > 0);
        // A label both added and removed is Gmail's to refuse (the fake adds it back); the
        // declaration then errs on the side of an effect.
        fc.pre(!add.some((a) => remove.some((r) => key(a) === key(r))));
        const ids = [
          seed(['INBOX', 'UNREAD', 'TRASH', 'STARRED', 'IMPORTANT', 'CATEGORY_PERSONAL']),
          seed(['SPAM']),
        ];
        const before = ids.map((id) => [...gmail.message(id)!.labelIds]);
        const args = { message_ids: ids, add_labels: add, remove_labels: remove };
        const declared = await effectOf('gmail_modify_labels', args);
        const r = await src.call('gmail_modify_labels', args, { agent: 't', signal });
        if (r.isError) {
          refused++;
          // Refused (an unknown label, TRASH added): nothing done.
          ids.forEach((id, i) => expect(gmail.message(id)!.labelIds).toEqual(before[i]));
          return;
        }
        const changed = ids.some((id, i) => {
          const after = gmail.message(id)!.labelIds;
          const b = before[i]!;
          const gone = (l: string) => b.includes(l) && !after.includes(l);
          const came = (l: string) => !b.includes(l) && after.includes(l);
          return [...HIDES_REMOVED].some(gone) || [...HIDES_ADDED].some(came);
        });
        expect(declared !== undefined).toBe(changed);
        ran++;
        if (changed) hid++;
      }),
      { numRuns: 80 },
    );
    // The runs decide both ways, and most are not refused.
    expect(hid).toBeGreaterThan(5);
    expect(ran - hid).toBeGreaterThan(5);
    expect(refused).toBeLessThan(ran);
  });

  it('gmail_modify_labels declares what the stated rule says, for any label lists', () => {
    // Pure over the arguments (no mailbox): the declaration against the statement above.
    const names = fc.array(written(POOL), { maxLength: 5 });
    fc.assert(
      fc.property(names, names, (add, remove) => {
        const args = { message_ids: ['m1'], add_labels: add, remove_labels: remove };
        const declared = src.argsReach('gmail_modify_labels', args)?.effect;
        expect(declared !== undefined).toBe(hides(add, remove));
      }),
      { numRuns: 500 },
    );
  });

  it('each newly declared label change: its words, and Gmail does it', async () => {
    const cases: [add: string[], remove: string[], words: string, changed: string][] = [
      [
        ['CATEGORY_PROMOTIONS'],
        [],
        'moves mail to the Promotions tab (out of Primary)',
        '+CATEGORY_PROMOTIONS',
      ],
      [
        ['category_social'],
        [],
        'moves mail to the Social tab (out of Primary)',
        '+CATEGORY_SOCIAL',
      ],
      [
        [' Category_Updates '],
        [],
        'moves mail to the Updates tab (out of Primary)',
        '+CATEGORY_UPDATES',
      ],
      [
        ['CATEGORY_FORUMS'],
        [],
        'moves mail to the Forums tab (out of Primary)',
        '+CATEGORY_FORUMS',
      ],
      [[], ['CATEGORY_PERSONAL'], 'moves mail out of the Primary tab', '-CATEGORY_PERSONAL'],
      [[], ['Starred'], 'unstars mail', '-STARRED'],
      [[], ['important'], 'marks mail as not important', '-IMPORTANT'],
      [['SPAM'], [], 'marks mail as spam', '+SPAM'],
    ];
    for (const [add, remove, words, changed] of cases) {
      const id = seed(['INBOX', 'STARRED', 'IMPORTANT', 'CATEGORY_PERSONAL']);
      const args = { message_ids: [id], add_labels: add, remove_labels: remove };
      expect(await effectOf('gmail_modify_labels', args)).toBe(words);
      await run('gmail_modify_labels', args);
      const label = changed.slice(1);
      expect(gmail.message(id)!.labelIds.includes(label)).toBe(changed.startsWith('+'));
    }
    // The opposite changes hide nothing.
    for (const [add, remove] of [
      [['STARRED', 'IMPORTANT', 'CATEGORY_PERSONAL', 'INBOX', 'UNREAD'], []],
      [[], ['CATEGORY_SOCIAL', 'CATEGORY_PROMOTIONS', 'Receipts']],
    ])
      expect(
        await effectOf('gmail_modify_labels', {
          message_ids: ['x'],
          add_labels: add,
          remove_labels: remove,
        }),
      ).toBeUndefined();
  });

  it('gmail_rename_label declares it, and the label is found only under the new name', async () => {
    // Made through the tool, which reads the labels afresh next time (the directory keeps them).
    await run('gmail_create_label', { name: 'Taxes 2026' });
    const id = seed(['INBOX']);
    await run('gmail_modify_labels', { message_ids: [id], add_labels: ['Taxes 2026'] });
    const args = { label: 'Taxes 2026', new_name: 'zz old' };
    expect(await effectOf('gmail_rename_label', args)).toMatch(/^renames a label/);
    await run('gmail_rename_label', args);
    const list = await src.call('gmail_list_labels', {}, { agent: 't', signal });
    expect(JSON.stringify(list.content)).not.toContain('Taxes 2026');
    expect(JSON.stringify(list.content)).toContain('zz old');
    expect(await effectOf('gmail_create_label', { name: 'New' })).toBeUndefined();
  });

  it('a filter declares an effect exactly when Gmail stores one that hides mail', async () => {
    // Each flag mostly left out, so label lists decide a good share of the runs alone.
    const flag = fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.boolean() },
    );
    const flags = fc.record(
      {
        archive: flag,
        mark_read: flag,
        star: flag,
        mark_important: flag,
        never_spam: flag,
        trash: flag,
      },
      { requiredKeys: [] },
    );
    const labels = fc.array(
      written([
        'Receipts',
        'INBOX',
        'UNREAD',
        'STARRED',
        'IMPORTANT',
        'CATEGORY_PERSONAL',
        'CATEGORY_PROMOTIONS',
        'CATEGORY_SOCIAL',
      ]),
      { maxLength: 3 },
    );
    let [ran, byAdding, byNames] = [0, 0, 0];
    await fc.assert(
      fc.asyncProperty(flags, labels, labels, async (f, add, remove) => {
        const args: Record<string, unknown> = { from: 'shop@store.test', ...f };
        if (add.length) args.add_labels = add;
        if (remove.length) args.remove_labels = remove;
        const declared = await effectOf('gmail_create_filter', args);
        const before = gmail.settings.filters.get(USER)?.length ?? 0;
        const r = await src.call('gmail_create_filter', args, { agent: 't', signal });
        if (r.isError) {
          expect(gmail.settings.filters.get(USER)?.length ?? 0).toBe(before);
          return;
        }
        const stored = gmail.settings.filters.get(USER)!.at(-1)!;
        const [added, removed] = [
          stored.action.addLabelIds ?? [],
          stored.action.removeLabelIds ?? [],
        ];
        const hid = hides(added, removed);
        expect(declared !== undefined).toBe(hid);
        ran++;
        if (hid && !hides([], removed)) byAdding++;
        if (hid && !hides(added, []) && !f.archive && !f.mark_read && !f.never_spam) byNames++;
      }),
      { numRuns: 80 },
    );
    // Runs decided by what is added alone, by removed names alone, and runs that hide nothing.
    expect(byAdding).toBeGreaterThan(3);
    expect(byNames).toBeGreaterThan(3);
    expect(ran).toBeGreaterThan(byAdding + byNames + 5);
  });

  it('a filter that trashes declares it; one that only labels does not', async () => {
    expect(await effectOf('gmail_create_filter', { query: 'security alert', trash: true })).toBe(
      'creates a filter that moves matching mail to the Trash from now on',
    );
    expect(
      await effectOf('gmail_create_filter', { query: 'receipt', add_labels: ['Receipts'] }),
    ).toBeUndefined();
  });

  it('a filter that files mail away from Primary or never marks it important declares it', async () => {
    const args = {
      from: 'bank@bank.test',
      add_labels: ['CATEGORY_PROMOTIONS'],
      remove_labels: ['IMPORTANT'],
    };
    expect(await effectOf('gmail_create_filter', args)).toBe(
      'creates a filter that never marks matching mail as important and moves matching mail to the Promotions tab (out of Primary) from now on',
    );
    await run('gmail_create_filter', args);
    const stored = gmail.settings.filters.get(USER)!.at(-1)!;
    expect(stored.action.addLabelIds).toEqual(['CATEGORY_PROMOTIONS']);
    expect(stored.action.removeLabelIds).toEqual(['IMPORTANT']);
    // Starring or marking important hides nothing.
    expect(
      await effectOf('gmail_create_filter', { from: 'a@b.test', star: true, mark_important: true }),
    ).toBeUndefined();
  });

  it('every Gmail tool is accounted for: which declare an effect, and which never do', () => {
    // One call of each tool Airlock offers, read from its arguments (argsReach, the fallback of
    // callContent, declares the same effect: effectOf above). A new tool fails here until it is
    // placed in one list or the other.
    const declares: Record<string, Record<string, unknown>> = {
      gmail_trash: { message_ids: ['m'] },
      gmail_archive: { message_ids: ['m'] },
      gmail_modify_labels: { message_ids: ['m'], remove_labels: ['UNREAD'] },
      gmail_create_filter: { from: 'a@b.test', archive: true },
      gmail_update_draft: { draft_id: 'r1', to: 'a@b.test', body: 'x' },
      gmail_delete_draft: { draft_id: 'r1' },
      gmail_rename_label: { label: 'Receipts', new_name: 'Old' },
      gmail_delete_label: { label: 'Receipts' },
      gmail_delete_filter: { filter_id: 'f1' },
    };
    // Reads change nothing; a send or a new draft goes somewhere (the destination rules judge
    // it); a new label hides nothing.
    const never: Record<string, Record<string, unknown>> = {
      gmail_search: { query: 'x' },
      gmail_read: { message_id: 'm' },
      gmail_read_thread: { thread_id: 't' },
      gmail_read_attachment: { message_id: 'm', filename: 'a.pdf' },
      gmail_get_attachment: { message_id: 'm', filename: 'a.pdf' },
      gmail_list_labels: {},
      gmail_list_drafts: {},
      gmail_get_draft: { draft_id: 'r1' },
      gmail_list_filters: {},
      gmail_create_draft: { to: 'a@b.test', subject: 's', body: 'b' },
      gmail_send: { to: 'a@b.test', subject: 's', body: 'b' },
      gmail_send_draft: { draft_id: 'r1' },
      gmail_create_label: { name: 'New' },
    };
    const offered = src.tools().map((d) => d.name);
    expect([...Object.keys(declares), ...Object.keys(never)].sort()).toEqual([...offered].sort());
    for (const [tool, args] of Object.entries(declares))
      expect(src.argsReach(tool, args)?.effect, tool).toBeDefined();
    for (const [tool, args] of Object.entries(never))
      expect(src.argsReach(tool, args)?.effect, tool).toBeUndefined();
  });
});
