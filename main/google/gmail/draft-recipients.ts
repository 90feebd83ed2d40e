import type { GmailClient } from './client.js';
import { isMissing } from './errors.js';
import { noSuchDraft } from './draft-view.js';
import { base64urlBytes } from './payload.js';

/**
 * A draft's To, Cc and Bcc as its message's own bytes hold them — what Gmail delivers to when it
 * sends the draft — not the headers of `format=full`, which come with RFC 2047 words decoded.
 * Decoding before parsing changes the structure (RFC 2047 §6.1 decodes a phrase's words after
 * parsing): `=?UTF-8?Q?carol=40example=2Ecom_=C3=BC=28?= <evil@evil.test>` goes to evil@evil.test,
 * yet its decoded form `carol@example.com ü( <evil@evil.test>` reads as carol@example.com alone.
 * A grant reads these (grant-shape.ts; send-draft-encoded.security.test.ts).
 */
export interface DraftRecipients {
  /** The draft's message id when read: the version these headers belong to. */
  messageId: string;
  to: string;
  cc: string;
  bcc: string;
}

const FIELDS = ['to', 'cc', 'bcc'] as const;

/**
 * The recipient fields of an RFC 5322 header block, unfolded (§2.2.3), encoded words left as they
 * are; 8-bit bytes as UTF-8 (RFC 6532). A field given twice (§3.6 allows one), or line ends
 * other than all CRLF or all LF, throws: which fields a mail system would read is in doubt.
 */
export function recipientFields(message: Uint8Array): Omit<DraftRecipients, 'messageId'> {
  const text = Buffer.from(message).toString('utf8');
  const end = /\r?\n\r?\n/.exec(text);
  const head = end ? text.slice(0, end.index) : text;
  // Line ends this reading and Gmail's could take differently: a CR alone (a line break to some
  // parsers, `X-A: x\rBcc: evil@evil.test`), or CRLF and LF mixed in the header block or the
  // blank line ending it. Which fields there are is in doubt.
  const block = end ? text.slice(0, end.index + end[0].length) : text;
  if (/\r(?!\n)/.test(block) || (/\r\n/.test(block) && /(?<!\r)\n/.test(block)))
    throw new Error('the draft mixes line ends in its header');
  const out = { to: '', cc: '', bcc: '' };
  const seen = new Set<string>();
  for (const line of head.split(/\r?\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(FIELDS as readonly string[]).includes(name)) continue;
    if (seen.has(name)) throw new Error(`the draft has more than one ${name} header`);
    seen.add(name);
    out[name as (typeof FIELDS)[number]] = line
      .slice(colon + 1)
      .replace(/\r?\n([ \t])/g, '$1')
      .trim();
  }
  return out;
}

/** The draft's recipient headers as sent (users.drafts.get, format=raw). */
export async function fetchDraftRecipients(
  client: GmailClient,
  id: string,
): Promise<DraftRecipients> {
  const d = await client
    .read(`draft ${id}`, (api, opts) =>
      api.users.drafts.get({ userId: 'me', id, format: 'raw' }, opts),
    )
    .catch((err: unknown) => {
      throw isMissing(err) ? noSuchDraft(id, client.account) : err;
    });
  return {
    messageId: d.message?.id ?? '',
    ...recipientFields(base64urlBytes(d.message?.raw)),
  };
}
