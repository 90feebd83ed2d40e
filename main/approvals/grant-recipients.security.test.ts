import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../common/contract/index.js';
import { nextRequest } from '../../test-support/core-events.js';
import { gmailTestbed } from '../../e2e/fake-google/gmail-seed.js';
import { testbedAppPerTest } from '../../test-support/testbed-app.js';

// Issue 27 item 1: a grant is checked against what the tool will actually do. With the grant
// the page offers ("only when every recipient is in @example.com"), an agent sent mail to
// evil@evil.test without asking in 8 of 18 variants; Google delivered it each time. Here the
// real Gmail source (its composer) runs against the fake Gmail API, through a real App and MCP
// client, and every message that reached "Google" is parsed back.

const gmailApp = testbedAppPerTest(gmailTestbed);

const FIRST = { to: ['carol@example.com'], subject: 'Plan', body: 'See the plan.' };

/** A real App with Gmail, and a grant made the way the page makes it, from a first send. */
async function granted(constraint: GrantConstraint) {
  const { bed, a, client } = await gmailApp.start();
  const requested = nextRequest(a);
  const call = client.callTool({ name: 'gmail_send', arguments: FIRST });
  const req = await requested;
  await a.control.decide(req.id, { kind: 'always_allow', confirm: true, constraint });
  await call;
  expect(bed.fake.sent).toHaveLength(1);
  /** True when the call asked (it is then denied), false when it ran without asking. */
  const asks = async (args: Record<string, unknown>): Promise<boolean> => {
    const asked = nextRequest(a);
    const sent = client.callTool({ name: 'gmail_send', arguments: args });
    const first = await Promise.race([asked.then(() => 'asked'), sent.then(() => 'ran')]);
    if (first === 'ran') return false;
    await a.control.decide((await asked).id, { kind: 'deny' });
    await sent;
    return true;
  };
  return { asks, fake: bed.fake, ids: bed.ids };
}

/** Every address the sent messages were delivered to, as a real parser reads their headers. */
async function deliveredTo(fake: { sent: { raw: Buffer }[] }): Promise<string[]> {
  const out: string[] = [];
  for (const s of fake.sent) {
    const m = await PostalMime.parse(s.raw);
    for (const box of [...(m.to ?? []), ...(m.cc ?? []), ...(m.bcc ?? [])])
      for (const a of box.group ?? [box]) out.push(a.address!.toLowerCase());
  }
  return out;
}

const DOMAIN: GrantConstraint = { path: 'to', op: 'domain', value: 'example.com' };

// The variants of the issue: one recipient string the old matcher read as in the domain while
// the composer's parser (postal-mime) sends to evil@evil.test; and evil@evil.test in cc or bcc.
const SMUGGLED: Record<string, unknown>[] = [
  { to: ['<evil@evil.test> carol@example.com'] },
  { to: ['evil@evil.test carol@example.com'] },
  { to: ['evil@evil.test\tcarol@example.com'] },
  { to: ['(note) evil@evil.test carol@example.com'] },
  { to: ['carol@example.com (note) evil@evil.test'] },
  { to: ['<evil@evil.test> <carol@example.com>'] },
  { to: ['carol@example.com'], cc: ['evil@evil.test'] },
  { to: ['carol@example.com'], bcc: ['evil@evil.test'] },
  { to: ['carol@example.com', 'evil@evil.test'] },
  { to: ['team: carol@example.com, evil@evil.test;'] },
];

describe('a domain grant on gmail_send covers only what the composer sends inside the domain', () => {
  it('every smuggled recipient asks; nothing reaches evil@evil.test', async () => {
    const { asks, fake } = await granted(DOMAIN);
    const ran: string[] = [];
    for (const v of SMUGGLED) {
      const args = { subject: 'Plan', body: 'See the plan.', ...v };
      if (!(await asks(args))) ran.push(JSON.stringify(v));
    }
    expect(ran).toEqual([]);
    expect(await deliveredTo(fake)).toEqual(['carol@example.com']);
  });

  it('calls inside the domain still run: other names, subjects and bodies, cc and bcc in the domain', async () => {
    const { asks, fake } = await granted(DOMAIN);
    expect(
      await asks({
        to: ['Dave Example <dave@sales.example.com>'],
        cc: ['"Smith, Erin" <erin@example.com>'],
        bcc: ['audit@EXAMPLE.com'],
        subject: 'Another subject',
        body: 'Another body, which names evil@evil.test as text only.',
      }),
    ).toBe(false);
    expect(fake.sent).toHaveLength(2);
    expect((await deliveredTo(fake)).sort()).toEqual(
      [
        'audit@example.com',
        'carol@example.com',
        'dave@sales.example.com',
        'erin@example.com',
      ].sort(),
    );
  });

  it('an argument the grant does not mention must be as approved: a reply to some message asks', async () => {
    const { asks, ids } = await granted(DOMAIN);
    // A message that exists: an unknown id is refused before anyone is asked (issue 33 item 4).
    const inbox = Object.values(ids)[0]!.id;
    expect(await asks({ ...FIRST, reply_to_message_id: inbox })).toBe(true);
  });

  it('an exact-recipient grant does not let an added cc or bcc through', async () => {
    const { asks, fake } = await granted({ path: 'to', op: 'equals', value: 'carol@example.com' });
    expect(await asks({ ...FIRST, bcc: ['evil@evil.test'] })).toBe(true);
    expect(await asks({ ...FIRST, cc: ['evil@evil.test'] })).toBe(true);
    expect(await asks({ ...FIRST, to: ['carol@example.com', 'evil@evil.test'] })).toBe(true);
    // The same recipient with another text runs: subject and body are content.
    expect(await asks({ ...FIRST, body: 'A second note.' })).toBe(false);
    expect(await deliveredTo(fake)).toEqual(['carol@example.com', 'carol@example.com']);
  });
});
