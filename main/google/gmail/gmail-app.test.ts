import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../common/contract/index.js';
import { nextRequest } from '../../../test-support/core-events.js';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { textOf } from '../../../test-support/harness.js';
import { testbedAppPerTest } from '../../../test-support/testbed-app.js';

const gmailApp = testbedAppPerTest(gmailTestbed);

async function setup() {
  const { bed, a, client } = await gmailApp.start();
  return { client, a, fake: bed.fake, ids: bed.ids };
}

describe('Gmail through a real App and MCP client', () => {
  it('lists the tools; reads run without asking', async () => {
    const { client, a, fake, ids } = await setup();
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name);
    for (const n of [
      'gmail_search',
      'gmail_read',
      'gmail_read_thread',
      'gmail_read_attachment',
      'gmail_send',
      'gmail_trash',
    ])
      expect(names).toContain(n);
    expect(tools.find((x) => x.name === 'gmail_send')!.description).toMatch(
      /the recipient sees it immediately$/,
    );
    const r = await client.callTool({ name: 'gmail_search', arguments: { query: 'receipt' } });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain('Your Northwind receipt NW-10482');
    expect(await a.control.listPending()).toHaveLength(0);
    expect(fake.sent).toHaveLength(0);
    // An attachment's file reaches the agent whole: image content, untouched by the text cap.
    const file = await client.callTool({
      name: 'gmail_get_attachment',
      arguments: { message_id: ids.attachments.id, filename: 'site-photo.png' },
    });
    const image = (file.content as { type: string; data?: string }[]).find(
      (c) => c.type === 'image',
    );
    expect(Buffer.from(image!.data!, 'base64')).toHaveLength(1208);
    expect(file._meta?.['airlock/provenance']).toBeUndefined();
  });

  it('gmail_send waits for approval that shows the message, then sends exactly once', async () => {
    const { client, a, fake, ids } = await setup();
    await client.callTool({ name: 'gmail_read', arguments: { message_id: ids.thread1.id } });
    const requested = nextRequest(a);
    const call = client.callTool({
      name: 'gmail_send',
      arguments: {
        to: ['Carol Baker <carol@example.org>'],
        cc: ['erin@example.com'],
        body: 'Friday at 12:30 works.\nSee you!',
        reply_to_message_id: ids.thread1.id,
      },
    });
    const req = await requested;
    expect(req.tool).toBe('gmail_send');
    expect(req.effect).toBe(
      [
        'Send an email from alice@example.com — the recipient sees it immediately.',
        'From: Alice Example <alice@example.com>', // the name from Gmail's send-as settings
        'To: Carol Baker <carol@example.org>',
        'Cc: erin@example.com',
        'Subject: Re: Lunch on Friday?',
        `In reply to: message ${ids.thread1.id} (same thread) from “Carol Baker <carol@example.org>”, subject “Lunch on Friday?”`,
        '',
        'Friday at 12:30 works.',
        'See you!',
      ].join('\n'),
    );
    expect(fake.sent).toHaveLength(0);
    await a.control.decide(req.id, { kind: 'allow_once' });
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^Sent "Re: Lunch on Friday\?" from alice@example.com/);
    expect(fake.sent).toHaveLength(1);
    const mail = await PostalMime.parse(fake.sent[0]!.raw);
    expect(mail.subject).toBe('Re: Lunch on Friday?');
    expect(mail.from).toEqual({ name: 'Alice Example', address: 'alice@example.com' });
    expect(mail.cc).toEqual([{ name: '', address: 'erin@example.com' }]);
    expect(fake.sent[0]!.threadId).toBe(ids.thread1.threadId);
    // Neither the approval nor the activity log holds the access token.
    expect(JSON.stringify(await a.control.listActivity())).not.toContain(ALICE.token);
    expect(JSON.stringify(await a.control.getApproval(req.id))).not.toContain(ALICE.token);
  });

  it('a denied send never reaches Gmail', async () => {
    const { client, a, fake } = await setup();
    const requested = nextRequest(a);
    const call = client.callTool({
      name: 'gmail_send',
      arguments: { to: ['bob@example.com'], subject: 'Hi', body: 'Hello' },
    });
    await a.control.decide((await requested).id, { kind: 'deny', reason: 'not now' });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not now/);
    expect(fake.sent).toHaveLength(0);
    expect(fake.count((r) => r.method !== 'GET')).toBe(0);
  });

  it('trash asks too and moves to the Trash after approval', async () => {
    const { client, a, fake, ids } = await setup();
    const requested = nextRequest(a);
    const call = client.callTool({
      name: 'gmail_trash',
      arguments: { message_ids: [ids.receipt.id] },
    });
    const req = await requested;
    expect(req.effect).toMatch(
      /^Move 1 message in alice@example.com to the Trash \(recoverable for 30 days\):/,
    );
    expect(fake.message(ids.receipt.id)!.labelIds).not.toContain('TRASH');
    await a.control.decide(req.id, { kind: 'allow_once' });
    expect(textOf(await call)).toMatch(/^Moved 1 of 1 message to the Trash/);
    expect(fake.message(ids.receipt.id)!.labelIds).toContain('TRASH');
  });

  it('an unknown message id is refused before any approval is asked (issue 33 item 4)', async () => {
    const { client, a, fake, ids } = await setup();
    let asked = 0;
    a.events.subscribe((e: CoreEvent) => void (e.type === 'approval.requested' && asked++));
    const r = await client.callTool({
      name: 'gmail_trash',
      arguments: { message_ids: [ids.receipt.id, '18f2a4c1b0fffff0'] },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'There is no message with id 18f2a4c1b0fffff0 in alice@example.com. Use the exact id from gmail_search or gmail_read; nothing was changed.',
    );
    expect(asked).toBe(0);
    expect(await a.control.listPending()).toHaveLength(0);
    expect(fake.message(ids.receipt.id)!.labelIds).not.toContain('TRASH');
  });

  it('gmail_send_draft asks with the draft as it will go out, then sends it once', async () => {
    const { client, a, fake } = await setup();
    const approve = async (name: string, args: Record<string, unknown>) => {
      const requested = nextRequest(a);
      const call = client.callTool({ name, arguments: args });
      const req = await requested;
      await a.control.decide(req.id, { kind: 'allow_once' });
      return { req, result: await call };
    };
    const created = await approve('gmail_create_draft', {
      to: ['carol@example.org'],
      subject: 'Plan',
      body: 'Draft text',
    });
    const draftId = /draft id (r\d+)/.exec(textOf(created.result))![1]!;
    expect(fake.sent).toHaveLength(0);
    const { req, result } = await approve('gmail_send_draft', { draft_id: draftId });
    expect(req.effect).toBe(
      [
        `Send draft ${draftId} from alice@example.com — the recipients see it immediately.`,
        'From: Alice Example <alice@example.com>',
        'To: carol@example.org',
        'Subject: Plan',
        '',
        'Draft text',
      ].join('\n'),
    );
    expect(textOf(result)).toMatch(new RegExp(`^Sent draft ${draftId} "Plan"`));
    expect(fake.sent).toHaveLength(1);
    expect(fake.count((r) => r.path.endsWith('/drafts/send'))).toBe(1);
  });

  it('a forwarding filter asks even when the user let gmail_create_filter run freely', async () => {
    const { client, a, fake } = await setup();
    fake.settings.forwarding.set(ALICE.email, [
      { forwardingEmail: 'books@accounting.example', verificationStatus: 'accepted' },
    ]);
    await a.control.setToolPolicy('gmail_create_filter', {
      approval: 'auto',
      confirmDestructive: true,
    });
    const starred = await client.callTool({
      name: 'gmail_create_filter',
      arguments: { from: 'boss@example.com', star: true },
    });
    expect(textOf(starred)).toMatch(/^Created filter/);
    expect(await a.control.listPending()).toHaveLength(0);
    const requested = nextRequest(a);
    const call = client.callTool({
      name: 'gmail_create_filter',
      arguments: { subject: 'invoice', forward_to: 'books@accounting.example' },
    });
    const req = await requested;
    expect(req.effect).toContain('will be: FORWARDED to books@accounting.example.');
    expect(req.effect).toContain('without asking again, until the filter is deleted');
    expect(fake.settings.filters.get(ALICE.email)).toHaveLength(1);
    await a.control.decide(req.id, { kind: 'deny' });
    expect((await call).isError).toBe(true);
    expect(fake.settings.filters.get(ALICE.email)).toHaveLength(1);
  });
});
