import type MimeNode from 'nodemailer/lib/mime-node';
import { addressParser } from 'postal-mime';
import { addressDomain, deliveredDomain, readDomain } from '../../approvals/addresses.js';
import { lowerAscii } from '../../provenance/identity.js';
import { libs } from '../lazy.js';
import { cardLine, quoted } from '../card-text.js';

/**
 * Outgoing mail: recipients parsed and checked, the message built by
 * nodemailer's MailComposer (RFC 2047 subjects, UTF-8 bodies, a text part and
 * an HTML alternative), replies threaded (issue 6, gmail_send).
 */

/** Input the agent can fix; reported as is, nothing is sent. */
export class BadInput extends Error {
  override readonly name = 'BadInput';
}

export interface Mailbox {
  name: string;
  address: string;
}

export interface Outgoing {
  from: string;
  /** The display name from Gmail's send-as settings, if it has one. */
  fromName?: string;
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  subject: string;
  body: string;
  /** Set for replies. */
  threadId?: string;
  inReplyTo?: string;
  references?: string[];
  /** Files, as byte buffers only (outgoing-attachments.ts): never a path or a link. */
  attachments?: { filename: string; mimeType: string; content: Buffer }[];
}

export const MAX_RECIPIENTS = 100;

/** Gmail's limit for one message (support.google.com/mail/answer/6584): the composed MIME, encoded. */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

// A pragmatic check, not RFC 5322's full grammar: one @, no spaces, a dotted domain (IDN letters allowed).
const ADDRESS =
  /^[^\s@<>()[\]\\,;:"]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,}$/u;

/** One recipient field (an array of strings, or one string) → mailboxes; throws BadInput naming the bad entry. */
export function parseAddresses(field: string, value: unknown): Mailbox[] {
  if (value === undefined || value === null) return [];
  const entries = Array.isArray(value) ? value : [value];
  const out: Mailbox[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'string')
      throw new BadInput(
        `${field}: every recipient must be a string such as "name@example.com" or "Name <name@example.com>".`,
      );
    if (/[\r\n]/.test(entry))
      throw new BadInput(`${field}: "${entry.replace(/[\r\n]+/g, ' ')}" contains a line break.`);
    if (!entry.trim()) continue;
    const parsed = addressParser(entry, { flatten: true });
    if (parsed.length === 0)
      throw new BadInput(
        `${field}: "${entry}" is not an e-mail address (expected name@example.com or "Name <name@example.com>").`,
      );
    for (const box of parsed) {
      const address = (box.address ?? '').trim();
      // A domain IDNA cannot read is refused too: the composer (nodemailer normalizeDomain) then
      // falls back to lower-casing and punycode and still sends, to a name no check reads as it
      // does (`bob@aႠ.com` goes to xn--a-9us.com; labels breaking the bidi rule, Hangul fillers,
      // "⒈"). Calendar refuses the same (calendar/args.ts isGuestAddress).
      if (!ADDRESS.test(address) || !readDomain(addressDomain(address))) {
        const shown = address || box.name || entry;
        throw new BadInput(
          `${field}: "${shown}" is not a valid e-mail address (expected name@example.com or "Name <name@example.com>"). Nothing was sent.`,
        );
      }
      // The parser decodes RFC 2047 words in a name: "=?utf-8?q?Carol=0A=0A?=" is "Carol" and two
      // line breaks, which no one types in a name and which made the card's To line end at Carol
      // (card-text.ts). Refused as a break typed in the entry is. A tab is whitespace: a header
      // folded with one keeps it when unfolded (RFC 5322 3.2.2), so it is read as one space — in
      // the card and the mail alike, both built from this mailbox.
      const name = (box.name ?? '').replace(/\t+/g, ' ').trim();
      if (/\p{Cc}/u.test(name))
        throw new BadInput(
          `${field}: the name of ${address} contains a line break or another control character (once its encoded words are decoded). Nothing was sent.`,
        );
      // One mailbox once, as the composer addresses it: the local part with ASCII letters folded,
      // the domain as IDNA reads it — `bob@STRAẞE.de` and `bob@straße.de` are two domains.
      const key = mailboxKey(address);
      if (!out.some((m) => mailboxKey(m.address) === key)) out.push({ name, address });
    }
  }
  return out;
}

function mailboxKey(address: string): string {
  const at = address.lastIndexOf('@');
  return `${lowerAscii(address.slice(0, at))}@${readDomain(address.slice(at + 1))}`;
}

/** A display name a card shows bare: words, with nothing that reads as a list's separator, an address or a quote. */
const PLAIN_NAME = /^[\p{L}\p{N}\p{M} .'’()-]+$/u;

/**
 * A mailbox as an approval card shows it, on its line (card-text.ts). A name of plain words
 * stands bare ("Carol Baker <carol@…>"); any other is quoted (card-text.ts quoted): the card's
 * To, Cc and Bcc are read as lists split at commas, so a name "ceo@bank.com, Real" on
 * eve@evil.test showed two recipients, one of them ceo@bank.com, which the call never reaches.
 */
export function formatMailbox(m: Mailbox): string {
  if (!m.name) return cardLine(m.address + goesTo(m.address));
  const name = PLAIN_NAME.test(m.name) ? m.name : quoted(m.name);
  return cardLine(`${name} <${m.address}>${goesTo(m.address)}`);
}

/**
 * " (goes to strasse.de)" when IDNA reads the address's domain as another name than it shows
 * beyond ASCII case (deliveredDomain): the composer writes `bob@STRAẞE.de` as bob@strasse.de, and
 * a full-width `ｅxample.com` as example.com; the card says where the mail goes.
 */
function goesTo(address: string): string {
  const domain = addressDomain(address);
  const to = deliveredDomain(domain);
  return to && to !== domain.trim().toLowerCase().normalize('NFC') ? ` (goes to ${to})` : '';
}

const REPLY_PREFIX = /^\s*(?:(?:re|aw|sv|antw|vs|odp|ynt)\s*(?:\[\d+\])?\s*:\s*)+/i;

/**
 * A reply's subject: the subject given, or else the original's, with "Re: "
 * in front unless it already starts with a reply prefix. Decided from the
 * given subject alone when there is one, so the approval shows exactly what
 * goes out.
 */
export function replySubject(original: string | undefined, given: string | undefined): string {
  const subject = (given ?? '').trim() || (original ?? '').trim();
  if (!subject) return 'Re:';
  return REPLY_PREFIX.test(subject) ? subject : `Re: ${subject}`;
}

/** References for a reply: the original's References plus its Message-ID (RFC 5322 §3.6.4). */
export function replyReferences(
  references: string | undefined,
  messageId: string | undefined,
): string[] {
  const ids: string[] = [...((references ?? '').match(/<[^<>\s]+>/g) ?? [])];
  if (messageId && !ids.includes(messageId)) ids.push(messageId);
  return ids;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The HTML alternative of a plain-text body: paragraphs, line breaks and links, every character escaped. */
export function textToHtml(body: string): string {
  const paragraphs = body.replace(/\r\n?/g, '\n').split(/\n{2,}/);
  const html = paragraphs
    .map((p) => {
      const linked = escapeHtml(p).replace(
        /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g,
        (url) => `<a href="${url}">${url}</a>`,
      );
      return `<p>${linked.replace(/\n/g, '<br>\n')}</p>`;
    })
    .join('\n');
  return `<div dir="auto">\n${html}\n</div>`;
}

/**
 * The message as nodemailer's MIME tree, Bcc kept. Its header block (`buildHeaders()`) is what
 * Gmail reads recipients from; the grant property test reads it back (grant-scope.property.test.ts).
 */
export async function composeMime(m: Outgoing): Promise<MimeNode> {
  const { default: MailComposer } = await libs.mailComposer();
  const node = new MailComposer({
    from: m.fromName ? { name: m.fromName, address: m.from } : m.from,
    to: m.to,
    ...(m.cc.length ? { cc: m.cc } : {}),
    ...(m.bcc.length ? { bcc: m.bcc } : {}),
    subject: m.subject,
    text: m.body,
    html: textToHtml(m.body),
    ...(m.inReplyTo ? { inReplyTo: m.inReplyTo } : {}),
    ...(m.references?.length ? { references: m.references } : {}),
    // Only buffers, built field by field: nothing the agent wrote can become a `path` or `href`.
    ...(m.attachments?.length
      ? {
          attachments: m.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.mimeType,
            content: a.content,
            contentDisposition: 'attachment' as const,
            // Base64 carries the bytes exactly (quoted-printable would normalise a text file's line
            // breaks); message/* must stay 7bit/8bit (RFC 2046 §5.2.1), so nodemailer picks for it.
            ...(a.mimeType.startsWith('message/')
              ? {}
              : { contentTransferEncoding: 'base64' as const }),
          })),
        }
      : {}),
    // And should one ever get there, nodemailer refuses to read it (MimeNode: "File access rejected").
    disableFileAccess: true,
    disableUrlAccess: true,
  }).compile();
  node.keepBcc = true;
  return node;
}

/** The RFC 822 message, ready for Gmail's `raw` field (Bcc kept: Gmail reads it to deliver, then drops it). */
export async function buildMime(m: Outgoing): Promise<Buffer> {
  const raw = await (await composeMime(m)).build();
  if (raw.length > MAX_MESSAGE_BYTES)
    throw new BadInput(
      `The message would be ${(raw.length / 1024 / 1024).toFixed(1)} MB with its attachments encoded (they grow by a third); Gmail sends messages up to 25 MB. Nothing was sent.`,
    );
  return raw;
}
