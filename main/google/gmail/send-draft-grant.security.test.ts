import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../../common/contract/index.js';
import { nextRequest } from '../../../test-support/core-events.js';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { testbedAppPerTest } from '../../../test-support/testbed-app.js';
import { GmailSource } from './source.js';

/**
 * A grant on gmail_send_draft is held to whom the approved send went (grant-scope.ts part 3). The
 * draft id names the draft, not its recipients: the user approves "send draft X" while X goes to
 * Carol and Dave, and X is later edited in Gmail to go to a stranger. An `equals` grant on
 * draft_id must not send it then — a grant checked against one thing while the mail goes out
 * through another. Through a real App, MCP client and the Gmail source against the fake Gmail API;
 * what reached "Google" is parsed back with postal-mime.
 */

const gmailApp = testbedAppPerTest(gmailTestbed);

describe('an equals grant on gmail_send_draft holds to the recipients the user approved', () => {
  it('the same draft edited to reach anyone else asks; edited back within them it runs', async () => {
    // Each retry of the same call is asked afresh (no stored outcome of the first one is replayed).
    const { bed, a, client } = await gmailApp.start({
      settings: { approvals: { outcomeWindowMinutes: 0 } },
    });
    const signal = new AbortController().signal;
    // Another client of the mailbox (the Gmail web app, say): Airlock's memory does not see it.
    const gmailItself = new GmailSource(bed.access, { retry: { baseMs: 1 } });
    const editInGmail = async (fields: Record<string, unknown>) => {
      const r = await gmailItself.call(
        'gmail_update_draft',
        { draft_id: id, subject: 'Figures', body: 'Q3.', ...fields },
        { agent: 'user', signal },
      );
      expect(r.isError).toBeFalsy();
    };
    const made = await bed.call('gmail_create_draft', {
      to: ['carol@example.com', 'Dave <dave@example.com>'],
      subject: 'Figures',
      body: 'Q3.',
    });
    const id = /draft id (\S+),/.exec(made.text)![1]!;
    const EXACT: GrantConstraint = { path: 'draft_id', op: 'equals', value: id };

    // The user approves "send draft X" as it goes to Carol and Dave, with a grant for X. Meanwhile
    // X is changed in Gmail: the approved send refuses it (it checks the version), the grant stays.
    const requested = nextRequest(a);
    const call = client.callTool({ name: 'gmail_send_draft', arguments: { draft_id: id } });
    const req = await requested;
    expect(req.effect).toContain('carol@example.com');
    const option = req.grantOptions?.find((o) => o.constraint.op === 'equals');
    expect(option?.constraint).toEqual(EXACT);
    expect(option?.note).toContain('only while it goes to carol@example.com and dave@example.com');
    await editInGmail({ to: ['evil@evil.test'] });
    await a.control.decide(req.id, { kind: 'always_allow', confirm: true, constraint: EXACT });
    expect(JSON.stringify((await call).content)).toMatch(/changed after Airlock checked it/);
    expect(bed.fake.sent).toHaveLength(0);
    const [grant] = await a.control.listGrants();
    expect(grant?.scope?.tail).toContain('carol@example.com and dave@example.com');

    /** The approval the call raised (then denied), or null when it ran under the grant. */
    const asked = async () => {
      const next = nextRequest(a);
      const run = client.callTool({ name: 'gmail_send_draft', arguments: { draft_id: id } });
      const first = await Promise.race([next, run.then(() => null)]);
      if (!first) return null;
      await a.control.decide(first.id, { kind: 'deny' });
      await run;
      return first;
    };

    // X now reaches someone the user never approved, in any field: it asks, nothing goes out.
    for (const fields of [
      { to: ['evil@evil.test'] },
      { to: ['carol@example.com', 'evil@evil.test'] },
      { to: ['carol@example.com'], cc: ['evil@evil.test'] },
      { to: ['carol@example.com'], bcc: ['evil@evil.test'] },
      { to: ['erin@example.com'] }, // same domain, still not whom the user approved
    ]) {
      await editInGmail(fields);
      expect(await asked(), JSON.stringify(fields)).not.toBeNull();
      expect(bed.fake.sent).toHaveLength(0);
    }

    // Within the approved recipients (here one of them) the grant covers it, and that is what
    // reaches Gmail.
    await editInGmail({ to: ['Carol <carol@example.com>'] });
    expect(await asked()).toBeNull();
    expect(bed.fake.sent).toHaveLength(1);
    const out = await PostalMime.parse(bed.fake.sent[0]!.raw);
    expect(
      [...(out.to ?? []), ...(out.cc ?? []), ...(out.bcc ?? [])].map((t) => t.address),
    ).toEqual(['carol@example.com']);
  });
});
