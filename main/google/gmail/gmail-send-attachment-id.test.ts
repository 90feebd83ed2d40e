import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import PostalMime from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';

/**
 * An attachment named by Gmail's attachment id (`{ message_id, attachment_id }`, issue 33 item 2).
 * Gmail gives a part a new id in every response and accepts the earlier ones in attachments.get
 * (developers.google.com/gmail/api/reference/rest/v1/users.messages.attachments/get); the fake does
 * the same. So the id an agent holds comes from another read than Airlock's, and Airlock resolves
 * it by what it downloads; the name and type sent are the part's, never the agent's.
 */

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const csv = 'item,amount\nTrail Runner 2,89.00\nMerino socks,48.00\n';
const signal = () => new AbortController().signal;

/** The attachment id another client of the mailbox got for a file (its own messages.get). */
async function idFromAnotherRead(tb: NonNullable<typeof t>, messageId: string, filename: string) {
  const res = await fetch(`${tb.fake.root}gmail/v1/users/me/messages/${messageId}?format=full`, {
    headers: { authorization: `Bearer ${ALICE.token}` },
  });
  type P = { filename?: string; body?: { attachmentId?: string }; parts?: P[] };
  const walk = (p: P): P[] => [p, ...(p.parts ?? []).flatMap(walk)];
  const part = walk(((await res.json()) as { payload: P }).payload).find(
    (p) => p.filename === filename,
  );
  return part!.body!.attachmentId!;
}

const base = { to: ['bob@example.com'], subject: 'Totals', body: 'Attached.' };

describe('attachments by attachment_id', () => {
  it("sends the part the id names, under the part's own name and type; the card shows them", async () => {
    t = await gmailTestbed();
    const message_id = t.ids.attachments.id;
    const attachment_id = await idFromAnotherRead(t, message_id, 'totals.csv');
    const args = { ...base, attachments: [{ message_id, attachment_id }] };
    expect(await t.source.precheck('gmail_send', args, signal())).toBeNull();
    expect(await t.source.describeEffectAsync('gmail_send', args)).toContain(
      `Attachment: from message ${message_id} from “Grace Accounts <accounts@northwind.example>” (“text/csv”, 52 B), subject “Invoice and project plan”, named “totals.csv”`,
    );
    const r = await t.call('gmail_send', args);
    expect(r.isError, r.text).toBe(false);
    // Resolved once by its bytes (the id, then the one part of that size), then known by its part.
    const gets = t.fake.count((q) => q.path.includes('/attachments/'));
    expect(gets).toBe(3); // two to resolve, one for the send
    const mail = await PostalMime.parse(t.fake.sent[0]!.raw);
    expect(
      mail.attachments.map((a) => [
        a.filename,
        a.mimeType,
        Buffer.from(a.content as ArrayBuffer).toString(),
      ]),
    ).toEqual([['totals.csv', 'text/csv', csv]]);
  });

  it('the agent cannot name or type it, and an id of another message or a made-up one is refused', async () => {
    t = await gmailTestbed();
    const message_id = t.ids.attachments.id;
    const attachment_id = await idFromAnotherRead(t, message_id, 'totals.csv');
    for (const extra of [{ filename: 'evil.exe' }, { mime_type: 'application/x-msdownload' }]) {
      const r = await t.call('gmail_send', {
        ...base,
        attachments: [{ message_id, attachment_id, ...extra }],
      });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/is not accepted/);
    }
    // Gmail scopes an id to its message: with another message it names nothing there.
    const other = t.ids.related.id; // has attachments of its own
    for (const args of [
      { ...base, attachments: [{ message_id: other, attachment_id }] },
      { ...base, attachments: [{ message_id, attachment_id: 'ANGjdJ_not_an_id' }] },
    ]) {
      const refusal = await t.source.precheck('gmail_send', args, signal());
      expect(refusal).toMatch(/^Message \S+ has no attachment with id “?ANGjdJ/);
      const r = await t.call('gmail_send', args);
      expect(r.isError).toBe(true);
    }
    expect(t.fake.sent).toHaveLength(0);
  });

  it('parts with the same bytes under different names are ambiguous: the agent is asked for the name', async () => {
    t = await gmailTestbed();
    const raw = await new MailComposer({
      from: 'grace@northwind.example',
      to: ALICE.email,
      subject: 'Twice',
      text: 'Two copies.',
      attachments: [
        { filename: 'a.csv', content: csv, contentType: 'text/csv' },
        { filename: 'b.csv', content: csv, contentType: 'text/csv' },
      ],
    })
      .compile()
      .build();
    const { id } = t.fake.add(ALICE.email, { raw, labelIds: ['INBOX'] });
    const attachment_id = await idFromAnotherRead(t, id, 'b.csv');
    const r = await t.call('gmail_send', {
      ...base,
      attachments: [{ message_id: id, attachment_id }],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/same content as “a\.csv”, “b\.csv”; name one by filename/);
    expect(t.fake.sent).toHaveLength(0);
  });
});
