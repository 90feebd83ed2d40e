import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { nextRequest } from '../../../test-support/core-events.js';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { testbedAppPerTest } from '../../../test-support/testbed-app.js';
import { GmailSource } from './source.js';

/**
 * An approved gmail_send_draft sends the version of the draft its card showed, and no other. The
 * version a send was held to used to be one per draft (DraftMemory.lastShown), set by every check
 * of any call for that draft: the user's card showed draft X going to Carol; X was then changed to
 * go to a stranger, and a second call for X (checked, shown on a card of its own) moved the one
 * remembered version to the new one — approving the first card sent the stranger's version.
 * Through a real App, MCP client and the Gmail source against the fake Gmail API; what reached
 * "Google" is parsed back with postal-mime.
 */

const gmailApp = testbedAppPerTest(gmailTestbed);

describe('an approval of gmail_send_draft sends only the version it showed', () => {
  it('a later call for the same draft, after it changed, does not move the first approval onto the new version', async () => {
    const { bed, a, client } = await gmailApp.start({
      settings: { approvals: { outcomeWindowMinutes: 0 } },
    });
    const signal = new AbortController().signal;
    // Another client of the mailbox (the Gmail web app, or an update the user let run).
    const gmailItself = new GmailSource(bed.access, { retry: { baseMs: 1 } });
    const made = await bed.call('gmail_create_draft', {
      to: ['carol@example.com'],
      subject: 'Figures',
      body: 'Q3.',
    });
    const id = /draft id (\S+),/.exec(made.text)![1]!;

    // The first call's card: the draft as it goes to Carol.
    const first = nextRequest(a);
    const call = client.callTool({ name: 'gmail_send_draft', arguments: { draft_id: id } });
    const shown = await first;
    expect(shown.effect).toContain('carol@example.com');
    expect(shown.effect).not.toContain('evil@evil.test');

    // The draft changes to go to a stranger, and a second call for it is checked and shown.
    const edited = await gmailItself.call(
      'gmail_update_draft',
      { draft_id: id, to: ['evil@evil.test'], subject: 'Figures', body: 'Q3.' },
      { agent: 'user', signal },
    );
    expect(edited.isError).toBeFalsy();
    const second = nextRequest(a);
    const again = client.callTool({
      name: 'gmail_send_draft',
      arguments: { draft_id: id, account: ALICE.email },
    });
    const later = await second;
    expect(later.effect).toContain('evil@evil.test');

    // The user approves the first card (Carol): nothing goes to the stranger.
    await a.control.decide(shown.id, { kind: 'allow_once' });
    const result = await call;
    expect(JSON.stringify(result.content)).toMatch(/changed after Airlock checked it/);
    const out = await Promise.all(bed.fake.sent.map((s) => PostalMime.parse(s.raw)));
    expect(out.flatMap((m) => [...(m.to ?? []), ...(m.cc ?? []), ...(m.bcc ?? [])])).toEqual([]);

    // The second card, which showed the stranger, is the user's to decide.
    await a.control.decide(later.id, { kind: 'deny' });
    await again;
    expect(bed.fake.sent).toHaveLength(0);
  });
});

describe('a send of a draft the checks could not read asks, whatever the policy', () => {
  it('set to run without asking, a send whose draft read failed before the checks is put to the user', async () => {
    const { bed, a, client } = await gmailApp.start({
      settings: { approvals: { outcomeWindowMinutes: 0 } },
    });
    await a.control.setToolPolicy('gmail_send_draft', { approval: 'auto' });
    const made = await bed.call('gmail_create_draft', {
      to: ['evil@evil.test'],
      subject: 'Figures',
      body: 'Q3.',
    });
    const id = /draft id (\S+),/.exec(made.text)![1]!;
    // The read before the checks fails (a draft too large to read in time fails the same way):
    // the taint check would judge a call without recipients.
    bed.fake.fail({
      match: (r) => r.method === 'GET' && r.path.endsWith(`/drafts/${id}`),
      status: 403,
    });
    const requested = nextRequest(a);
    const run = client.callTool({ name: 'gmail_send_draft', arguments: { draft_id: id } });
    const asked = await Promise.race([requested, run.then(() => null)]);
    expect(asked).not.toBeNull();
    expect(bed.fake.sent).toHaveLength(0);
    await a.control.decide(asked!.id, { kind: 'deny' });
    await run;

    // An agent may not name the version itself in place of the read.
    const named = await client.callTool({
      name: 'gmail_send_draft',
      arguments: { draft_id: id, message_id: 'm-any' },
    });
    expect(JSON.stringify(named.content)).toMatch(/message_id: leave it out/);
    expect(bed.fake.sent).toHaveLength(0);
  });
});
