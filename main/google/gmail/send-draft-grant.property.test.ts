import fc from 'fast-check';
import addressparser from 'nodemailer/lib/addressparser';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../../common/contract/index.js';
import { account, StaticGoogleAccess } from '../../../e2e/fake-google/gmail-access.js';
import { ALICE } from '../../../e2e/fake-google/gmail-seed.js';
import { field } from '../../../test-support/recipient-arbitraries.js';
import { fitsScope, grantRecord } from '../../approvals/grant-scope.js';
import { recipientFields } from './draft-recipients.js';
import { DraftMemory, type DraftView } from './draft-view.js';
import { gmailGrantShape } from './grant-shape.js';

/**
 * An `equals` grant on gmail_send_draft, fuzzed (grant-scope.ts part 3): over generated To, Cc and
 * Bcc header values of the draft as it is when the send comes — display names, quotes, comments,
 * groups, encoded words, separators, look-alike domains — whenever the grant lets the send run,
 * every address the headers deliver to is one the user approved. "Delivers to" is read from the
 * header block by two parsers: postal-mime's message parser and nodemailer's addressparser
 * (drafts.send sends to the addresses in those headers, users.drafts/send).
 */

const access = new StaticGoogleAccess('http://127.0.0.1:9/', [account(ALICE.email, ALICE.token)]);
const drafts = new DraftMemory();
const shape = gmailGrantShape('gmail_send_draft', { access, drafts })!;
const EXACT: GrantConstraint = { path: 'draft_id', op: 'equals', value: 'r1' };
const APPROVED = new Set(['carol@example.com', 'dave@example.com']);

let version = 0;
/**
 * The draft as Airlock read it before the checks (call-content.ts does this for a real call), and
 * the send's arguments bound to that version (CallContent.bind).
 */
function draftNow(to: string, cc: string, bcc: string): Record<string, unknown> {
  const v: DraftView = {
    id: 'r1',
    messageId: `m${++version}`,
    threadId: 't1',
    from: ALICE.email,
    to,
    cc,
    bcc,
    subject: 'Figures',
    body: { text: 'Q3.', source: 'plain' },
    attachments: [],
  };
  drafts.remember(ALICE.email, v);
  // What the grant reads: the headers as the message's bytes hold them (draft-recipients.ts).
  const head = [`To: ${to}`, cc ? `Cc: ${cc}` : '', bcc ? `Bcc: ${bcc}` : ''].filter(Boolean);
  const raw = Buffer.from(`${head.join('\r\n')}\r\nSubject: Figures\r\n\r\nQ3.\r\n`);
  drafts.rememberRecipients(ALICE.email, 'r1', { messageId: v.messageId, ...recipientFields(raw) });
  return { draft_id: 'r1', message_id: v.messageId };
}

const approvedCall = draftNow('Carol <carol@example.com>', 'dave@example.com', '');
const grant = { constraint: EXACT, fixed: grantRecord(approvedCall, EXACT, shape) };

async function delivered(to: string, cc: string, bcc: string): Promise<string[][]> {
  const head = [`To: ${to}`, cc ? `Cc: ${cc}` : '', bcc ? `Bcc: ${bcc}` : '']
    .filter(Boolean)
    .join('\r\n');
  const m = await PostalMime.parse(`${head}\r\nSubject: Figures\r\n\r\nQ3.\r\n`);
  const postal: string[] = [];
  for (const box of [...(m.to ?? []), ...(m.cc ?? []), ...(m.bcc ?? [])])
    for (const a of box.group ?? [box]) postal.push(a.address ?? '');
  const nodemailer = [to, cc, bcc].flatMap((v) =>
    v ? addressparser(v, { flatten: true }).map((a) => a.address) : [],
  );
  return [postal, nodemailer];
}

const near = fc.constantFrom(
  'carol@example.com',
  'Carol <carol@example.com>',
  '"Dave, D." <dave@example.com>',
  'dave@example.com, carol@example.com',
  'CAROL@EXAMPLE.COM',
);
const header = fc.oneof({ weight: 2, arbitrary: near }, { weight: 3, arbitrary: field });
const maybe = fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 1, arbitrary: header });

describe('gmail_send_draft under an equals grant, over generated draft headers', () => {
  it('runs only when every address the headers deliver to was approved', async () => {
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(header, maybe, maybe, async (to, cc, bcc) => {
        fc.pre(![to, cc, bcc].some((h) => /[\r\n]/.test(h)));
        const args = draftNow(to, cc, bcc);
        if (!fitsScope(grant, args, shape)) return;
        ran++;
        for (const list of await delivered(to, cc, bcc)) {
          expect(list.length).toBeGreaterThan(0);
          for (const a of list) expect(APPROVED.has(a.trim().toLowerCase()), a).toBe(true);
        }
      }),
      { numRuns: 5000 },
    );
    // Not vacuous: many generated drafts stayed within the approved recipients and ran.
    expect(ran).toBeGreaterThan(100);
  });
});
