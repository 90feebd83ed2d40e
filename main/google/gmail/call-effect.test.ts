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

/** The labels whose change hides mail or answers for the user. */
const HIDING = ['INBOX', 'UNREAD', 'SPAM', 'TRASH'];

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
    // Each name in any case, with spaces around it: labels.resolve matches by id or name, any
    // case, trimmed, and the declaration must read it the same way.
    const names = fc
      .tuple(
        fc.constantFrom('Receipts', 'INBOX', 'UNREAD', 'SPAM', 'STARRED', 'TRASH'),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        fc.constantFrom('', ' ', '\t'),
      )
      .map(([n, up, pad]) => {
        const cased = [...n].map((c, i) => (up[i] ? c.toUpperCase() : c.toLowerCase())).join('');
        return `${pad}${cased}${pad}`;
      });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(names, { maxLength: 3 }),
        fc.uniqueArray(names, { maxLength: 3 }),
        async (add, remove) => {
          fc.pre(add.length + remove.length > 0);
          // A label both added and removed is Gmail's to refuse (the fake adds it back); the
          // declaration then errs on the side of an effect.
          const key = (l: string) => l.trim().toUpperCase();
          fc.pre(!add.some((a) => remove.some((r) => key(a) === key(r))));
          const ids = [seed(['INBOX', 'UNREAD', 'TRASH']), seed(['SPAM'])];
          const before = ids.map((id) => [...gmail.message(id)!.labelIds]);
          const args = { message_ids: ids, add_labels: add, remove_labels: remove };
          const declared = await effectOf('gmail_modify_labels', args);
          const r = await src.call('gmail_modify_labels', args, { agent: 't', signal });
          if (r.isError) return; // Refused (e.g. a label both added and removed): nothing done.
          const changed = ids.some((id, i) => {
            const after = gmail.message(id)!.labelIds;
            const b = before[i]!;
            // Taken out of the Inbox or unread; put into or taken out of Spam or the Trash.
            const gone = (l: string) => b.includes(l) && !after.includes(l);
            const moved = (l: string) => b.includes(l) !== after.includes(l);
            return gone('INBOX') || gone('UNREAD') || moved('SPAM') || moved('TRASH');
          });
          expect(declared !== undefined).toBe(changed);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a filter declares an effect exactly when Gmail stores one that hides mail', async () => {
    const flags = fc.record({
      archive: fc.boolean(),
      mark_read: fc.boolean(),
      star: fc.boolean(),
      never_spam: fc.boolean(),
      trash: fc.boolean(),
    });
    const labels = fc.uniqueArray(fc.constantFrom('Receipts', 'INBOX', 'UNREAD'), {
      maxLength: 2,
    });
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
        const hides =
          (stored.action.addLabelIds ?? []).some((l) => l === 'TRASH' || l === 'SPAM') ||
          (stored.action.removeLabelIds ?? []).some((l) => HIDING.includes(l));
        expect(declared !== undefined).toBe(hides);
      }),
      { numRuns: 40 },
    );
  });

  it('a filter that trashes declares it; one that only labels does not', async () => {
    expect(await effectOf('gmail_create_filter', { query: 'security alert', trash: true })).toBe(
      'creates a filter that moves matching mail to the Trash from now on',
    );
    expect(
      await effectOf('gmail_create_filter', { query: 'receipt', add_labels: ['Receipts'] }),
    ).toBeUndefined();
  });
});
