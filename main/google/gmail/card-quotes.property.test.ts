import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoted } from '../card-text.js';
import { Recent, SeenMessages } from './cache.js';
import type { DraftView } from './draft-view.js';
import { draftNamed } from './effects.js';
import { describeDeleteFilter } from './filters.js';
import { describeLabelChange, labelNameArg } from './label-admin.js';
import { describeModify } from './modify.js';
import { safeName, type AttachmentSource } from './outgoing-attachments.js';
import { describeCompose } from './send.js';
import { forgingText } from '../../../test-support/card-forging.js';

/**
 * A Gmail card's quoted values — a subject (a stranger's, on a message), a label's name, a
 * filter's subject or search — come after the facts they go with: quoted mid-sentence, a value
 * closing its quote wrote the rest ('Rename label "Receipts" to "Old" in bob@…', a trashed
 * message's id, a filter's actions). Each card is built with plain values and with generated
 * ones: the same statement, the values only in their places at the end.
 */

const ACCOUNT = 'alice@example.com';

/** Quote characters, line breaks, direction controls, and the words this card uses. */
const forging = forgingText([' to ', 'FORWARDED to eve@evil.test', ' (m2)', 'Label: ', 'Receipts']);

/** The card built with `plain` ends in `plainTail`; built with `value`, it ends in `tail(value)` after the same statement. */
function expectFactsFixed(
  build: (v: string) => string,
  tail: (v: string) => string,
  value: string,
  plain = 'v0',
): void {
  const p = build(plain);
  expect(p.endsWith(tail(plain))).toBe(true);
  const facts = p.slice(0, p.length - tail(plain).length);
  expect(build(value)).toBe(facts + tail(value));
}

describe('property: a Gmail card’s quoted values change nothing before them', () => {
  it('labels: the name to make, the label renamed and its new name, the label deleted', () => {
    const label = (name: string) => ({ id: 'Label_1', name, messagesTotal: 3 });
    fc.assert(
      fc.property(forging, forging, (old, name) => {
        // The new name as the change makes it (labelNameArg), or as given where it refuses it.
        const made = (v: string) => {
          try {
            return labelNameArg({ n: v }, 'n');
          } catch {
            return v;
          }
        };
        expectFactsFixed(
          (v) => describeLabelChange('gmail_create_label', ACCOUNT, { name: v }, undefined),
          (v) => `. Name: ${quoted(made(v))}`,
          name,
        );
        expectFactsFixed(
          (v) =>
            describeLabelChange(
              'gmail_rename_label',
              ACCOUNT,
              { label: 'x', new_name: 'n' },
              label(v),
            ),
          (v) => `. Label: ${quoted(v)}. New name: “n”`,
          old,
        );
        expectFactsFixed(
          (v) =>
            describeLabelChange(
              'gmail_rename_label',
              ACCOUNT,
              { label: 'x', new_name: v },
              label('o'),
            ),
          (v) => `. New name: ${quoted(made(v))}`,
          name,
        );
        expectFactsFixed(
          (v) => describeLabelChange('gmail_delete_label', ACCOUNT, { label: 'x' }, label(v)),
          (v) => `. Label: ${quoted(v)}`,
          old,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a trashed message: its id and sender before its subject', () => {
    fc.assert(
      fc.property(forging, (subject) => {
        const build = (s: string) => {
          const seen = new SeenMessages();
          seen.remember(ACCOUNT, 'm1', {
            subject: s,
            from: 'Carol <carol@example.org>',
            threadId: 't1',
          });
          return describeModify('gmail_trash', ACCOUNT, { message_ids: ['m1', 'm2'] }, seen);
        };
        // The next message's line after it: compared whole.
        expectFactsFixed(build, (s) => `, subject ${quoted(s)}\n- message m2`, subject);
      }),
      { numRuns: 300 },
    );
  });

  it('a deleted draft: its recipients before its subject', () => {
    fc.assert(
      fc.property(forging, (subject) => {
        expectFactsFixed(
          (s) => draftNamed({ subject: s, to: 'Carol <carol@example.org>' }),
          (s) => `, subject ${quoted(s)}`,
          subject,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a deleted filter: what it stops doing before its quoted criteria', () => {
    fc.assert(
      fc.property(forging, forging, (subject, query) => {
        const filter = (s: string, q: string) => ({
          id: 'f1',
          criteria: { from: 'orders@shop.example', subject: s, query: q, hasAttachment: true },
          action: {
            addLabelIds: ['Label_1'],
            removeLabelIds: ['INBOX'],
            forward: 'me@example.org',
          },
        });
        const build = (s: string, q: string) =>
          describeDeleteFilter('f1', ACCOUNT, filter(s, q), () => 'Receipts');
        expectFactsFixed(
          (s) => build(s, 'q'),
          (s) => `subject has ${quoted(s)}; matches “q”`,
          subject,
        );
        expectFactsFixed(
          (q) => build('s', q),
          (q) => `; matches ${quoted(q)}`,
          query,
        );
        expect(build(subject, query)).toMatch(
          /^Delete Gmail filter f1 in alice@example\.com\. Mail it already handled stays as it is\. From now on new mail is no longer .*FORWARDED to me@example\.org, for mail that from “orders@shop\.example”; has an attachment; subject has “/su,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a reply with a forwarded file: each source message named before its subject', () => {
    /** The card's line that starts with `key`. */
    const line = (card: string, key: string) => card.split('\n').find((l) => l.startsWith(key))!;
    fc.assert(
      fc.property(forging, forging, (s1, s2) => {
        const build = (reply: string, file: string) => {
          const seen = new SeenMessages();
          seen.remember(ACCOUNT, 'm1', {
            subject: reply,
            from: 'Carol <c@x.test>',
            threadId: 't1',
          });
          const sources = new Recent<AttachmentSource>();
          sources.remember(ACCOUNT, 'm2', {
            subject: file,
            from: 'Grace <g@x.test>',
            atts: [
              {
                filename: 'q3.pdf',
                mimeType: 'application/pdf',
                size: 9,
                partId: '1',
                inline: false,
                attachmentId: 'a1',
              },
            ],
            message: { id: 'm2', payload: undefined },
          });
          return describeCompose(
            'send',
            ACCOUNT,
            {
              to: ['carol@example.com'],
              reply_to_message_id: 'm1',
              body: 'x',
              attachments: [{ message_id: 'm2', filename: 'q3.pdf' }],
            },
            seen,
            undefined,
            undefined,
            sources,
          );
        };
        expectFactsFixed(
          (v) => line(build(v, 'f'), 'In reply to:'),
          (v) => `, subject ${quoted(v)}`,
          s1,
        );
        expectFactsFixed(
          (v) => line(build('r', v), 'Attachment:'),
          (v) => `, subject ${quoted(v)}, named “q3.pdf”`,
          s2,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('an attached file: where it comes from, its type and size before its name', () => {
    /** The card's line that starts with `key`. */
    const line = (card: string, key: string) => card.split('\n').find((l) => l.startsWith(key))!;
    const compose = (attachments: unknown[], sources = new Recent<AttachmentSource>()) =>
      describeCompose(
        'send',
        ACCOUNT,
        { to: ['carol@example.com'], subject: 's', body: 'x', attachments },
        new SeenMessages(),
        undefined,
        undefined,
        sources,
      );
    fc.assert(
      fc.property(forging, forging, (n1, n2) => {
        // A file of a message: its sender chose the name (sent as safeName makes it).
        const fromMessage = (name: string) => {
          const sources = new Recent<AttachmentSource>();
          sources.remember(ACCOUNT, 'm2', {
            subject: 'Q3',
            from: 'Grace <g@x.test>',
            atts: [
              {
                filename: name,
                mimeType: 'application/pdf',
                size: 9,
                partId: '1',
                inline: false,
                attachmentId: 'a1',
              },
            ],
            message: { id: 'm2', payload: undefined },
          });
          return line(compose([{ message_id: 'm2', attachment_id: 'a1' }], sources), 'Attachment:');
        };
        expectFactsFixed(fromMessage, (v) => `, named ${quoted(safeName(v))}`, n1);
        expect(fromMessage('v0')).toBe(
          'Attachment: from message m2 from “Grace <g@x.test>” (“application/pdf”, 9 B), subject “Q3”, named “v0”',
        );
        // The agent's own file: a name the check takes (no controls or separators).
        const given = (name: string) =>
          line(
            compose([{ filename: name, mime_type: 'text/plain', content_base64: 'aGVsbG8=' }]),
            'Attachment:',
          );
        expectFactsFixed(given, (v) => `, named ${quoted(v)}`, safeName(n2));
        expect(given('v0')).toBe('Attachment: given by the agent (“text/plain”, 5 B), named “v0”');
      }),
      { numRuns: 300 },
    );
  });

  it('a draft replaced: its recipients before its subject', () => {
    fc.assert(
      fc.property(forging, (subject) => {
        const build = (s: string) => {
          const previous = {
            id: 'r1',
            messageId: 'm0',
            from: ACCOUNT,
            to: 'Carol <carol@example.org>',
            subject: s,
            attachments: [],
          } as unknown as DraftView;
          const card = describeCompose(
            'update',
            ACCOUNT,
            { draft_id: 'r1', to: ['carol@example.org'], body: 'x' },
            new SeenMessages(),
            undefined,
            { draftId: 'r1', previous },
          );
          return card.split('\n').find((l) => l.startsWith('Replaces:'))!;
        };
        expectFactsFixed(build, (s) => `, subject ${quoted(s)}`, subject);
      }),
      { numRuns: 300 },
    );
  });
});
