import { describe, expect, it } from 'vitest';
import { account, StaticGoogleAccess } from '../../../e2e/fake-google/gmail-access.js';
import { ALICE } from '../../../e2e/fake-google/gmail-seed.js';
import { recipientFields } from './draft-recipients.js';
import { DraftMemory, type DraftView } from './draft-view.js';
import { gmailGrantShape } from './grant-shape.js';

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe("recipientFields: a draft's To, Cc and Bcc as its bytes hold them", () => {
  it('unfolds, keeps encoded words as they are, and stops at the body', () => {
    const raw = bytes(
      'From: a@example.com\r\nTo: =?UTF-8?Q?carol=40example=2Ecom_=C3=BC=28?=\r\n <evil@evil.test>\r\n' +
        'CC: dave@example.com\r\nSubject: x\r\n\r\nTo: body@evil.test\r\n',
    );
    expect(recipientFields(raw)).toEqual({
      to: '=?UTF-8?Q?carol=40example=2Ecom_=C3=BC=28?= <evil@evil.test>',
      cc: 'dave@example.com',
      bcc: '',
    });
  });

  it('throws on a field given twice, in any case', () => {
    expect(() => recipientFields(bytes('To: a@example.com\r\nto: b@evil.test\r\n\r\n'))).toThrow(
      /more than one to/,
    );
    expect(() => recipientFields(bytes('Bcc: a@example.com\nBCC: b@evil.test\n\n'))).toThrow();
  });

  it('throws when line ends could be read differently: a CR alone, CRLF and LF mixed', () => {
    // Read with CRLF alone as a line end, each of these has a To of a@example.com and no Bcc.
    for (const head of [
      'X-A: x\rBcc: evil@evil.test\r\nTo: a@example.com\r\n\r\n',
      'To: a@example.com\r\nX-A: x\nBcc: evil@evil.test\r\n\r\n',
      'To: a@example.com\r\n\nBcc: evil@evil.test\r\n\r\n',
    ])
      expect(() => recipientFields(bytes(head)), JSON.stringify(head)).toThrow(/line ends/);
    // All CRLF or all LF, and a body with any line ends, read as before.
    expect(recipientFields(bytes('To: a@example.com\nBcc: b@example.com\n\nx\ry\r\n'))).toEqual({
      to: 'a@example.com',
      cc: '',
      bcc: 'b@example.com',
    });
  });
});

describe('the gmail_send_draft grant shape reads the recipients of the version the send is bound to', () => {
  const access = new StaticGoogleAccess('http://127.0.0.1:9/', [account(ALICE.email, ALICE.token)]);
  const view = (messageId: string): DraftView => ({
    id: 'r1',
    messageId,
    threadId: 't1',
    from: ALICE.email,
    to: 'carol@example.com',
    cc: '',
    bcc: '',
    subject: 'Figures',
    body: { text: 'Q3.', source: 'plain' },
    attachments: [],
  });

  it('reads the bytes, not the decoded rendering, and only of the version the call is bound to', () => {
    const drafts = new DraftMemory();
    const shape = gmailGrantShape('gmail_send_draft', { access, drafts })!;
    drafts.remember(ALICE.email, view('m2'));
    const head = recipientFields(
      bytes('To: =?UTF-8?Q?carol=40example=2Ecom_=C3=BC=28?= <evil@evil.test>\r\n\r\n'),
    );
    const call = { draft_id: 'r1', message_id: 'm2' };
    // None read as bytes: no destinations.
    expect(() => shape.destinations(call)).toThrow();
    // Read of another version than the one the send is bound to: none either.
    drafts.rememberRecipients(ALICE.email, 'r1', { messageId: 'm1', ...head });
    expect(() => shape.destinations(call)).toThrow();
    // Of this version: what the bytes deliver to, not the decoded view's carol@example.com.
    drafts.rememberRecipients(ALICE.email, 'r1', { messageId: 'm2', ...head });
    expect(shape.destinations(call)).toEqual(['evil@evil.test']);
    // A call bound to no version has none, whatever was read.
    expect(() => shape.destinations({ draft_id: 'r1' })).toThrow();
  });
});
