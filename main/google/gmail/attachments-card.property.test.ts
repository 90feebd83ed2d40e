import fc from 'fast-check';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { quoted } from '../card-text.js';
import { Recent } from './cache.js';
import { buildMime } from './compose.js';
import {
  attachmentLines,
  parseAttachments,
  type AttachmentSource,
} from './outgoing-attachments.js';
import { formatBytes } from '../content/text.js';

/**
 * The card lists the attachments from parseAttachments; the composer (nodemailer's MailComposer)
 * then writes them. Over generated file names (any script, spaces, quotes, semicolons, long names,
 * astral characters), media types and bytes, the MIME the composer writes, parsed back by
 * postal-mime, carries exactly the attachments the card showed: same names, types, sizes and
 * bytes, in the same order. Names the check refuses (path separators, controls) never reach the
 * composer.
 */

const nameChar = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...'abcXYZ019 ._-()[]') },
  { weight: 2, arbitrary: fc.constantFrom(...'"\';,=*%?#&@!~`+{}<>:') },
  { weight: 2, arbitrary: fc.constantFrom(...'äöüßéçñ€ЖжΩ中文日本語한국어עבריתالعربية') },
  { weight: 1, arbitrary: fc.constantFrom('😀', '𝔘', '\u{1F9FE}', 'ǅ', 'ﬁ', '\u00a0') },
);
const badChar = fc.constantFrom('/', '\\', '\r', '\n', '\t', '\u0000', '\u202e', '\u0085');
const safeName = fc
  .array(nameChar, { minLength: 1, maxLength: 90 })
  .map((cs) => cs.join(''))
  .chain((base) => fc.constantFrom('', '.txt', '.pdf', '.tar.gz', '.CSV').map((e) => base + e));
// Mostly names that may go out; now and then one with a separator or control character in it.
const filename = fc.oneof(
  { weight: 9, arbitrary: safeName },
  {
    weight: 1,
    arbitrary: fc
      .tuple(safeName, badChar, fc.nat())
      .map(([n, c, at]) => n.slice(0, at % (n.length + 1)) + c + n.slice(at % (n.length + 1))),
  },
);
const token = fc
  .array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789.+-'), {
    minLength: 1,
    maxLength: 20,
  })
  .map((cs) => `x${cs.join('')}`);
const mimeType = fc.oneof(
  fc.constantFrom(
    'application/pdf',
    'text/plain',
    'text/csv',
    'text/html',
    'image/png',
    'application/octet-stream',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/calendar',
  ),
  fc
    .tuple(fc.constantFrom('application', 'text', 'image', 'audio', 'video'), token)
    .map(([a, b]) => `${a}/${b}`),
);
const content = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.string({ maxLength: 400 }).map((s) => new Uint8Array(Buffer.from(s))),
  fc.constantFrom(new Uint8Array(Buffer.from('a\nb\r\nc\rd\n\n.\nFrom x\n')), new Uint8Array()),
);
const attachment = fc.record({ filename, mime_type: mimeType, content }).map((a) => ({
  filename: a.filename,
  mime_type: a.mime_type,
  content_base64: Buffer.from(a.content).toString('base64'),
}));

const CALENDAR = new Set(['text/calendar', 'application/ics']);

/** What postal-mime makes of a calendar part's bytes (postal-mime.js, "Special handling for calendar events"). */
function asCalendar(b64: string): string {
  const text = new TextDecoder().decode(Buffer.from(b64, 'base64')).replace(/\r?\n/g, '\n');
  return Buffer.from(`${text.replace(/\n+$/, '')}\n`).toString('base64');
}

describe('attachments: the card and the composed MIME agree', () => {
  it('postal-mime reads back exactly the attachments the card lists', async () => {
    let composed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(attachment, { maxLength: 4 }), async (given) => {
        let specs;
        try {
          specs = parseAttachments(given);
        } catch {
          // Refused: then some name really has a separator or control character, or is no name.
          const bad = (n: string) =>
            /[/\\\p{Cc}\u202e]/u.test(n) || ['', '.', '..'].includes(n.trim());
          expect(given.some((a) => bad(a.filename))).toBe(true);
          return;
        }
        const card = attachmentLines(specs, 'alice@example.com', new Recent<AttachmentSource>());
        const raw = await buildMime({
          from: 'alice@example.com',
          to: [{ name: '', address: 'bob@example.com' }],
          cc: [],
          bcc: [],
          subject: 'files',
          body: 'see attached',
          attachments: specs.map((s) => {
            if (s.kind !== 'inline') throw new Error('inline only');
            return { filename: s.filename, mimeType: s.mimeType, content: s.content };
          }),
        });
        const mail = await PostalMime.parse(raw);
        composed += specs.length;
        const written = mail.attachments.map((a, i) => {
          const bytes = Buffer.from(a.content as ArrayBuffer);
          // postal-mime rewrites calendar parts as text (\r\n → \n, one final newline): the size
          // the card gave is checked against the bytes the part carried, read back that way.
          const spec = specs[i]!;
          const size =
            CALENDAR.has(a.mimeType) && spec.kind === 'inline' ? spec.content.length : bytes.length;
          return {
            line: `Attachment: given by the agent (${quoted(a.mimeType)}, ${formatBytes(size)}), named ${quoted(a.filename ?? '')}`,
            bytes: bytes.toString('base64'),
          };
        });
        expect(written.map((w) => w.line)).toEqual(card);
        expect(written.map((w) => w.bytes)).toEqual(
          given.map((g) =>
            CALENDAR.has(g.mime_type) ? asCalendar(g.content_base64) : g.content_base64,
          ),
        );
        expect(mail.text?.trim()).toBe('see attached');
      }),
      { numRuns: 150, seed: 0x33_02 },
    );
    // The accepted path is what this is about: most generated attachments reach the composer.
    expect(composed).toBeGreaterThan(150);
  });
});
