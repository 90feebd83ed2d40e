import fc from 'fast-check';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { parseAddresses } from './compose.js';
import { recipientFields } from './draft-recipients.js';

/**
 * The grant on gmail_send_draft reads a draft's To, Cc and Bcc out of its header block
 * (draft-recipients.ts recipientFields), and Gmail then reads the same bytes to deliver. The
 * values were fuzzed (send-draft-grant.property.test.ts, on a clean header block); this fuzzes
 * the block's structure — how a header's name is written (case, white space or NBSP before the
 * colon, a control character in it, a leading space, folded across lines), white-space-only and
 * form-feed lines, lines with no colon, an mbox "From " line, a BOM, `Resent-` fields — so that
 * one reading finds a Bcc the other does not. Whenever recipientFields answers (it throws on a
 * field given twice and on mixed line ends, and the grant then asks), every address postal-mime's
 * message parser finds in To, Cc or Bcc must be among those Airlock read: a reading that sees
 * fewer recipients than the mail goes to is the attack; one that sees more only asks.
 *
 * The second family (a held-out generator of name spellings and separators) was written once
 * for this file and not changed after its first run; reported apart.
 */

const inside = fc.constantFrom('carol@example.com', 'dave@example.com');
const outside = fc.constantFrom('eve@evil.test', 'mallory@evil.test');
const value = fc
  .array(fc.oneof(inside, outside), { minLength: 1, maxLength: 3 })
  .map((a) => a.join(', '));

/** A recipient field's name as a header block could spell it. */
const recipientName = fc
  .tuple(
    fc.constantFrom('To', 'Cc', 'Bcc', 'TO', 'bcc', 'cC'),
    fc.constantFrom('', ' ', '\t', '\u00a0', '\u0000', '\u200b'),
  )
  .map(([n, ws]) => `${n}${ws}`);

const line = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(recipientName, value).map(([n, v]) => `${n}: ${v}`) },
  {
    weight: 1,
    arbitrary: fc.tuple(recipientName, value).map(([n, v]) => ` ${n}: ${v}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(recipientName, value)
      .map(([n, v]) => `${n.slice(0, 1)}\r\n ${n.slice(1)}: ${v}`),
  },
  { weight: 1, arbitrary: fc.tuple(recipientName, value).map(([n, v]) => `${n}:\r\n\t${v}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'Subject: Figures',
      'Resent-To: eve@evil.test',
      'Resent-Bcc: eve@evil.test',
      'X-Note: hi',
      ' ',
      '\t',
      '\f',
      'no colon here',
      'From alice Mon Dec  7 10:00:00 2026',
    ),
  },
);

const block = fc
  .tuple(fc.boolean(), fc.array(line, { minLength: 1, maxLength: 6 }))
  .map(([bom, ls]) => `${bom ? '\ufeff' : ''}${ls.join('\r\n')}\r\n\r\nQ3.\r\n`);

/** What postal-mime's message parser delivers to: To, Cc and Bcc, lower-cased. */
async function delivered(raw: string): Promise<string[]> {
  const p = await PostalMime.parse(raw);
  return [...(p.to ?? []), ...(p.cc ?? []), ...(p.bcc ?? [])]
    .flatMap((a) => (a.address ? [a.address] : (a.group ?? []).map((g) => g.address)))
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
}

/** What the grant reads, or null when the call asks (a reading in doubt, an entry refused). */
function grantReads(raw: string): Set<string> | null {
  try {
    const f = recipientFields(Buffer.from(raw));
    return new Set(
      (['to', 'cc', 'bcc'] as const).flatMap((k) =>
        parseAddresses(k, f[k]).map((m) => m.address.toLowerCase()),
      ),
    );
  } catch {
    return null;
  }
}

async function holds(raw: string): Promise<void> {
  const read = grantReads(raw);
  if (read === null) return;
  for (const a of await delivered(raw)) expect(read, raw).toContain(a);
}

describe("a draft's header block, read by the grant and by a mail parser", () => {
  it('tuned family: every address the parser delivers to is one the grant read', async () => {
    await fc.assert(fc.asyncProperty(block, holds), { numRuns: 3000 });
  });

  it('held-out family: names spelled with other case, separators and marks', async () => {
    const spelled = fc
      .tuple(
        fc.constantFrom('to', 'cc', 'bcc', 'Bcc', 'CC'),
        fc.constantFrom('', ' ', '  ', '\t ', '\u3000', '\u2028', '\u0085', '\u00ad'),
        fc.constantFrom(':', ': ', ':\t', ':\r\n '),
        value,
      )
      .map(([n, ws, colon, v]) => `${n}${ws}${colon}${v}`);
    const heldOut = fc
      .array(fc.oneof(spelled, fc.constant('Subject: x')), { minLength: 1, maxLength: 5 })
      .map((ls) => `${ls.join('\r\n')}\r\n\r\nbody\r\n`);
    await fc.assert(fc.asyncProperty(heldOut, holds), { numRuns: 2000 });
  });
});
