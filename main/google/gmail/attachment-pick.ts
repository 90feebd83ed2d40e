import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import { quoted, quotedId } from '../card-text.js';
import { findAttachment } from './attachment.js';
import { BadInput } from './compose.js';
import type { GmailClient } from './client.js';
import { isMissing } from './errors.js';
import type { AttachmentSource, AttachmentSpec } from './outgoing-attachments.js';
import { base64urlBytes, type AttachmentInfo } from './payload.js';

/**
 * Which part of a message an outgoing attachment names (issue 33 item 2): by file name, as
 * gmail_get_attachment picks it, or by Gmail's attachment id (`attachment_id`). Either way the
 * name and type sent are the part's own, read from the message, never the agent's.
 *
 * Gmail gives the same part a different attachment id in each response (and accepts the earlier
 * ones in attachments.get), so an id from another read seldom equals the one in Airlock's read.
 * Such an id is resolved by what it downloads: Gmail scopes it to the message, and the part is
 * the one whose size and bytes are those bytes. Parts with equal bytes but different names or
 * types are ambiguous: the agent is asked for the file name.
 */

export type MessageSpec = Extract<AttachmentSpec, { kind: 'message' }>;

/**
 * How the call names the file, for messages and the card: the agent's name and id quoted
 * (common/card-text.ts), so neither writes the card's words.
 */
export function pickLabel(spec: MessageSpec): string {
  return spec.attachmentId !== undefined
    ? `the attachment with id ${quotedId(short(spec.attachmentId))}`
    : quoted(spec.filename);
}

const short = (id: string) => (id.length > 24 ? `${textPrefix(id, 20, codeUnits)}…` : id);

/** The part, from what Airlock has read; undefined for an id not yet resolved (resolvePick). */
export function knownPick(src: AttachmentSource, spec: MessageSpec): AttachmentInfo | undefined {
  if (spec.attachmentId === undefined)
    return findAttachment(src.atts, spec.filename, spec.messageId);
  const id = spec.attachmentId;
  const partId = src.ids?.get(id);
  return src.atts.find(
    (a) => a.attachmentId === id || (partId !== undefined && a.partId === partId),
  );
}

/**
 * The part a spec names, resolving an attachment id by its bytes when needed (one download, and
 * one per part of the same size); the bytes come back when they were downloaded. Throws BadInput
 * for an id the message does not have.
 */
export async function resolvePick(
  client: GmailClient,
  src: AttachmentSource,
  spec: MessageSpec,
): Promise<{ att: AttachmentInfo; bytes?: Buffer }> {
  const known = knownPick(src, spec);
  if (known) return { att: known };
  const id = spec.attachmentId!;
  const { messageId } = spec;
  const names = src.atts.map((a) => quoted(a.filename)).join(', ');
  if (src.atts.length === 0) throw new BadInput(`Message ${messageId} has no attachments.`);
  const notHere = () =>
    new BadInput(
      `Message ${messageId} has no attachment with id ${quotedId(short(id))}. Its attachments: ${names}; name one by filename.`,
    );
  const bytes = await download(client, messageId, id).catch((err: unknown) => {
    throw isMissing(err) ? notHere() : err;
  });
  const same: AttachmentInfo[] = [];
  for (const a of src.atts.filter((x) => x.size === bytes.length && x.attachmentId)) {
    const other = await download(client, messageId, a.attachmentId!);
    if (other.equals(bytes)) same.push(a);
  }
  if (same.length === 0) throw notHere();
  const kinds = new Set(same.map((a) => `${a.filename}\0${a.mimeType}`));
  if (kinds.size > 1)
    throw new BadInput(
      `The attachment with id ${short(id)} of message ${messageId} has the same content as ${same.map((a) => quoted(a.filename)).join(', ')}; name one by filename.`,
    );
  const att = same[0]!;
  (src.ids ??= new Map()).set(id, att.partId);
  return { att, bytes };
}

async function download(client: GmailClient, messageId: string, id: string): Promise<Buffer> {
  const data = await client.read(`an attachment of message ${messageId}`, (api, opts) =>
    api.users.messages.attachments.get({ userId: 'me', messageId, id }, opts),
  );
  return Buffer.from(base64urlBytes(data.data));
}
