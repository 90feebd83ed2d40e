import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../../common/contract/index.js';
import { nextRequest } from '../../../test-support/core-events.js';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { testbedAppPerTest } from '../../../test-support/testbed-app.js';

/**
 * A grant on gmail_send_draft reads the draft's To, Cc and Bcc (grant-shape.ts); Gmail then
 * delivers to the addresses in the draft's own header bytes. Gmail's `format=full` headers come
 * with RFC 2047 words decoded (e2e/fake-google/gmail-mime.ts), and decoding before parsing changes
 * the structure: a display name `carol@example.com ü(` is sent as one encoded word,
 * `=?UTF-8?Q?carol=40example=2Ecom_=C3=BC=28?= <evil@evil.test>`, which goes to evil@evil.test; its
 * decoded form `carol@example.com ü( <evil@evil.test>` reads, to every parser, as carol alone (the
 * rest an unclosed comment). RFC 2047 §6.1: parse first, then decode the words of a phrase. So a
 * grant must read the header as the message holds it, not Gmail's decoded rendering of it.
 * Through a real App, MCP client and the Gmail source against the fake Gmail API; what reached
 * "Google" is parsed back with postal-mime.
 */

const gmailApp = testbedAppPerTest(gmailTestbed);

describe('a grant on gmail_send_draft reads the recipients as the draft holds them', () => {
  it('a recipient hidden by decoding an encoded display name asks; nothing goes out', async () => {
    const { bed, a, client } = await gmailApp.start({
      settings: { approvals: { outcomeWindowMinutes: 0 } },
    });
    const draft = async (to: string[]) => {
      const made = await bed.call('gmail_create_draft', { to, subject: 'Figures', body: 'Q3.' });
      return /draft id (\S+),/.exec(made.text)![1]!;
    };

    // The user approves sending a draft to Carol, with a grant for every recipient in @example.com.
    const first = await draft(['carol@example.com']);
    const requested = nextRequest(a);
    const call = client.callTool({ name: 'gmail_send_draft', arguments: { draft_id: first } });
    const req = await requested;
    const DOMAIN: GrantConstraint = { path: 'draft_id', op: 'domain', value: 'example.com' };
    expect(req.grantOptions?.map((o) => o.constraint)).toContainEqual(DOMAIN);
    await a.control.decide(req.id, { kind: 'always_allow', confirm: true, constraint: DOMAIN });
    expect((await call).isError).toBeFalsy();
    expect(bed.fake.sent).toHaveLength(1);

    // A draft whose one recipient is evil@evil.test, under a name that decodes to look like Carol.
    const hidden = await draft(['"carol@example.com ü(" <evil@evil.test>']);
    const raw = bed.fake.drafts.at(-1)!.raw.toString('utf8');
    expect(raw).toMatch(/^To: =\?UTF-8\?Q\?carol=40example=2Ecom_=C3=BC=28\?= <evil@evil\.test>/m);

    const next = nextRequest(a);
    const run = client.callTool({ name: 'gmail_send_draft', arguments: { draft_id: hidden } });
    const asked = await Promise.race([next, run.then(() => null)]);
    if (asked) {
      await a.control.decide(asked.id, { kind: 'deny' });
      await run;
    }
    const out = await Promise.all(bed.fake.sent.map((s) => PostalMime.parse(s.raw)));
    const reached = out.flatMap((m) => [...(m.to ?? []), ...(m.cc ?? []), ...(m.bcc ?? [])]);
    expect(reached.map((t) => t.address)).toEqual(['carol@example.com']);
    expect(asked).not.toBeNull();

    // Not a refusal of every encoded name: Carol under one (as the composer encodes "Carol Ü")
    // is read from the same bytes and the grant covers her.
    const plain = await draft(['Carol Ü <carol@example.com>']);
    expect(bed.fake.drafts.at(-1)!.raw.toString('utf8')).toMatch(/^To: =\?UTF-8\?Q\?/m);
    const later = nextRequest(a);
    const sent = client.callTool({ name: 'gmail_send_draft', arguments: { draft_id: plain } });
    expect(await Promise.race([later, sent.then(() => null)])).toBeNull();
    expect((await sent).isError).toBeFalsy();
    expect(bed.fake.sent).toHaveLength(2);

    // A draft saved by another client with two To fields (RFC 5322 §3.6 allows one): Gmail's
    // rendering shows the first; which one a mail system reads is in doubt, so it asks.
    const twice = bed.fake.draftStore.seed(
      ALICE.email,
      Buffer.from(
        'From: alice@example.com\r\nTo: evil@evil.test\r\nTo: carol@example.com\r\nSubject: Figures\r\n\r\nQ3.\r\n',
      ),
    ).id;
    const third = nextRequest(a);
    const go = client.callTool({ name: 'gmail_send_draft', arguments: { draft_id: twice } });
    const askedTwice = await Promise.race([third, go.then(() => null)]);
    if (askedTwice) {
      await a.control.decide(askedTwice.id, { kind: 'deny' });
      await go;
    }
    expect(bed.fake.sent).toHaveLength(2);
    expect(askedTwice).not.toBeNull();
  });
});
