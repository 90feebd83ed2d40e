import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mail, read, send, steps } from '../../test-support/provenance-corpus/builders.js';
import { CorpusRunner } from '../../test-support/provenance-corpus/runner.js';
import type { Step } from '../../test-support/provenance-corpus/session.js';

/**
 * Whether an answer to a mail's Reply-To asks is decided by the header as Airlock's mail reader
 * parses it (docs/provenance.md, "A party chosen by the stranger"): generated From and Reply-To
 * headers are composed into real mail (nodemailer, as the corpus does), stored in the fake Gmail,
 * read by the real gmail_read, and the send or draft to one Reply-To address is checked as the
 * call pipeline checks it (test-support/provenance-corpus/runner.ts). The expectation is a model
 * written here, not the check's functions: organisations are generated as such (an organisation
 * and a sub-domain), so "in the sender's organisation" is known by construction.
 *
 * The send asks exactly when the address is not the user's or known, is outside the sender's
 * organisation (another organisation, or at a public provider another mailbox), and the Reply-To
 * also names the sender's organisation, the From is one the user knows, or the address is written
 * under another address as its display name. A stranger's Reply-To naming only another
 * organisation (a helpdesk's ticket system) stays a party.
 */

interface Mailbox {
  local: string;
  /** A sub-address the reader ignores (`desk+ticket7@`). */
  tag: string;
  sub: string;
  org: string;
}

const PUBLIC = new Set(['gmail.com', 'yahoo.com']);
/** The corpus world's user (alice@example.com: her organisation) and a contact she knows. */
const USER_ORG = 'example.com';
const KNOWN = 'partner@acme.test';

const mailbox: fc.Arbitrary<Mailbox> = fc
  .record({
    local: fc.constantFrom('support', 'escalate', 'desk', 'bob', 'partner'),
    tag: fc.constantFrom('', '', '+ticket7', '+x'),
    sub: fc.constantFrom('', '', 'eu.', 'mail.'),
    org: fc.constantFrom(
      'helpdeskly.test',
      'helpdeskly-ops.test',
      'acme.test',
      'ledger.co.uk',
      'other.co.uk',
      USER_ORG,
      'gmail.com',
      'yahoo.com',
    ),
  })
  // A public provider's sub-domains are no mail service anyone has.
  .map((m) => (PUBLIC.has(m.org) ? { ...m, sub: '' } : m));

const address = (m: Mailbox) => `${m.local}${m.tag}@${m.sub}${m.org}`;
/** The mailbox as delivered: no sub-address. */
const key = (m: Mailbox) => `${m.local}@${m.sub}${m.org}`;
const known = (m: Mailbox) => m.org === USER_ORG || key(m) === KNOWN;
const outside = (r: Mailbox, from: Mailbox) =>
  key(r) !== key(from) && (PUBLIC.has(from.org) || r.org !== from.org);

/** How a Reply-To entry is written: the address counts; a name spelling another address is a disguise. */
const written = (m: Mailbox, form: number, from: Mailbox) =>
  [
    address(m),
    `"Desk" <${address(m)}>`,
    `"Ops, Escalations" <${address(m)}>`,
    `"${address(from)}" <${address(m)}>`,
  ][form]!;

const header = fc
  .record({
    from: mailbox,
    replyTo: fc.array(fc.tuple(mailbox, fc.nat(3)), { minLength: 1, maxLength: 3 }),
    target: fc.nat(),
    draft: fc.boolean(),
    // What the receiving server verified of the From (mime.ts writes Authentication-Results).
    auth: fc.constantFrom('pass' as const, 'fail' as const),
  })
  .map((h) => ({ ...h, target: h.target % h.replyTo.length }));

describe("an answer to a mail's Reply-To, through the Gmail tools", () => {
  let runner: CorpusRunner;
  let n = 0;
  beforeAll(async () => {
    runner = await new CorpusRunner().start();
  });
  afterAll(() => runner?.stop());

  it('asks exactly when the address is unknown, outside the sender organisation, and chosen beside it, under a known From or under another address as its name', async () => {
    let asked = 0;
    let passed = 0;
    await fc.assert(
      fc.asyncProperty(header, async ({ from, replyTo, target, draft, auth }) => {
        const to = replyTo[target]![0];
        const rs = replyTo.map(([m]) => m);
        // Written under the From's address as its name (form 3) while it is another mailbox.
        const disguised = replyTo.some(([m, f]) => key(m) === key(to) && f === 3);
        // A verified From of the user's own organisation (a contact form) hands the answer on.
        const ownVerified = from.org === USER_ORG && auth === 'pass';
        const expected =
          !known(to) &&
          outside(to, from) &&
          (rs.some((r) => !outside(r, from)) || (known(from) && !ownVerified) || disguised);
        const call: Step = draft
          ? {
              tool: 'gmail_create_draft',
              args: { to: [address(to)], subject: 'Re: closure', body: 'I confirm.' },
            }
          : send([address(to)], 'I confirm.');
        const [out] = await runner.run([
          {
            id: `reply-to-property-${n++}`,
            cls: 'reply-to-property',
            kind: 'injected',
            title: 'an answer to a Reply-To',
            mail: [
              mail({
                key: 'x',
                from: address(from),
                replyTo: replyTo.map(([m, form]) => written(m, form, from)).join(', '),
                auth,
                subject: 'Account closure',
                body: 'Reply to this message to confirm the closure of your old account.',
              }),
            ],
            steps: steps(read('x'), call),
          },
        ]);
        if (expected) asked++;
        else passed++;
        expect(out!.flagged).toBe(expected);
        if (expected)
          expect(out!.report!.summary).toContain(
            "that mail's Reply-To header named it, and it is outside the organisation of the mail's sender",
          );
      }),
      { numRuns: 150 },
    );
    // Both verdicts were drawn, often enough to mean something.
    expect(asked).toBeGreaterThan(10);
    expect(passed).toBeGreaterThan(10);
  });
});
