import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { nextRequest } from '../../../test-support/core-events.js';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { testbedAppPerTest } from '../../../test-support/testbed-app.js';
import { GmailSource } from './source.js';

/**
 * "Edit & Allow" on a gmail_send_draft keeps the version its card showed (ToolSource.boundArgs,
 * main/approvals/edit-binding.ts). The call is bound to the draft's version its checks read
 * (`message_id`, CallContent.bind); an edit that left it out sent the draft as it was by then — a
 * version changed after the card, to a stranger, that the user never saw — and one that named
 * another version or draft sent that. Through a real App, MCP client and the Gmail source against
 * the fake Gmail API; what reached "Google" is parsed back with postal-mime.
 */

const gmailApp = testbedAppPerTest(gmailTestbed);

async function setUp() {
  const { bed, a, client } = await gmailApp.start({
    settings: { approvals: { outcomeWindowMinutes: 0 } },
  });
  const signal = new AbortController().signal;
  // Another client of the mailbox (the Gmail web app).
  const gmailItself = new GmailSource(bed.access, { retry: { baseMs: 1 } });
  const draft = async (to: string) => {
    const made = await bed.call('gmail_create_draft', {
      to: [to],
      subject: 'Figures',
      body: 'Q3.',
    });
    return /draft id (\S+),/.exec(made.text)![1]!;
  };
  const id = await draft('carol@example.com');
  /** The draft changes to go to a stranger; its new version (message id). */
  const redirect = async () => {
    const r = await gmailItself.call(
      'gmail_update_draft',
      { draft_id: id, to: ['evil@evil.test'], subject: 'Figures', body: 'Q3.' },
      { agent: 'user', signal },
    );
    expect(r.isError).toBeFalsy();
    const text = JSON.stringify(r.content);
    return /\(message ([^)\s]+)\)/.exec(text)![1]!;
  };
  const recipients = async () => {
    const out = await Promise.all(bed.fake.sent.map((s) => PostalMime.parse(s.raw)));
    return out.flatMap((m) => [...(m.to ?? []), ...(m.cc ?? []), ...(m.bcc ?? [])]);
  };
  const ask = async () => {
    const requested = nextRequest(a);
    const call = client.callTool({ name: 'gmail_send_draft', arguments: { draft_id: id } });
    const card = await requested;
    expect(card.effect).toContain('carol@example.com');
    expect(card.effect).not.toContain('evil@evil.test');
    return { card, call };
  };
  return { a, bed, id, draft, redirect, recipients, ask };
}

describe('Edit & Allow on gmail_send_draft sends only the version the card showed', () => {
  it('an edit that leaves message_id out does not send the draft as it changed since', async () => {
    const { a, id, redirect, recipients, ask } = await setUp();
    const { card, call } = await ask();
    await redirect();
    // The user edits the call; the edit form's arguments no longer hold the bound version.
    await a.control.decide(card.id, { kind: 'allow_edited', arguments: { draft_id: id } });
    const result = await call;
    expect(JSON.stringify(result.content)).toMatch(/changed after Airlock checked it/);
    expect(await recipients()).toEqual([]);
  });

  it('an edit that names the new version, or another draft, is refused and the request stays pending', async () => {
    const { a, bed, draft, redirect, recipients, ask } = await setUp();
    const { card, call } = await ask();
    const now = await redirect();
    await expect(
      a.control.decide(card.id, {
        kind: 'allow_edited',
        arguments: { ...card.arguments, message_id: now },
      }),
    ).rejects.toThrow(/message_id cannot be edited/);
    const other = await draft('evil@evil.test');
    await expect(
      a.control.decide(card.id, {
        kind: 'allow_edited',
        arguments: { draft_id: other },
      }),
    ).rejects.toThrow(/draft_id cannot be edited/);
    expect((await a.control.getApproval(card.id)).state).toBe('pending');
    await a.control.decide(card.id, { kind: 'deny' });
    await call;
    expect(await recipients()).toEqual([]);
    expect(bed.fake.sent).toHaveLength(0);
  });

  it('an edit that keeps the binding sends the version shown', async () => {
    const { a, recipients, ask } = await setUp();
    const { card, call } = await ask();
    await a.control.decide(card.id, { kind: 'allow_edited', arguments: { ...card.arguments } });
    expect((await call).isError).toBeFalsy();
    expect((await recipients()).map((r) => r.address)).toEqual(['carol@example.com']);
  });
});
