import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import { createHash } from 'node:crypto';
import { formatBytes } from '../content/text.js';
import { knownPick, pickLabel, resolvePick } from './attachment-pick.js';
import { messageAttachments, type AttachedTo } from './attachment.js';
import type { Recent } from './cache.js';
import { BadInput, MAX_MESSAGE_BYTES } from './compose.js';
import type { GmailCallContext } from './context.js';
import { isMissing, noSuchMessages } from './errors.js';
import { base64urlBytes, header, type AttachmentInfo } from './payload.js';
import { cardLine, quoted, quotedId } from '../card-text.js';

/**
 * Attachments on outgoing mail (issue 33 item 2, the write side): each is taken from a message of
 * the same account (`message_id` + `filename`; Airlock downloads it and takes its name and type
 * from that message's MIME part, not from the agent) or given inline (`filename`, `mime_type`,
 * `content_base64`). Never a local file or a URL: no argument names one, unknown keys are refused,
 * and the composer is given only byte buffers with file and URL access switched off (compose.ts).
 */

export const MAX_ATTACHMENTS = 20;

export type AttachmentSpec =
  | { kind: 'message'; messageId: string; filename: string; attachmentId?: undefined }
  | { kind: 'message'; messageId: string; attachmentId: string; filename?: undefined }
  | { kind: 'inline'; filename: string; mimeType: string; content: Buffer; digest: string };

/** An attachment as it goes out and as the card shows it. */
export interface OutgoingAttachment {
  filename: string;
  mimeType: string;
  content: Buffer;
  /** Where it came from, for message-sourced ones. */
  source?: { messageId: string; subject: string; from: string };
}

/** What Airlock read of a message whose attachment is forwarded: the card's "from message …". */
export interface AttachmentSource {
  subject: string;
  from: string;
  atts: AttachmentInfo[];
  message: AttachedTo;
  /** Attachment ids from other reads, resolved to the part they name (attachment-pick.ts). */
  ids?: Map<string, string>;
}

const MESSAGE_KEYS = new Set(['message_id', 'filename']);
const BY_ID_KEYS = new Set(['message_id', 'attachment_id']);
const INLINE_KEYS = new Set(['filename', 'mime_type', 'content_base64']);
// RFC 4648 §4, padded, no whitespace: anything else is refused rather than guessed at. A plain
// character class (no repeated group: V8 would recurse per group on a 30 MB string), then the length.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// RFC 6838 §4.2 restricted names; no parameters (a charset would be the agent's claim about bytes).
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
// Path separators, control characters (C0, DEL, C1), and bidi/format controls that disguise a name.
function unsafeChar(c: string): boolean {
  const n = c.codePointAt(0)!;
  return (
    c === '/' ||
    c === '\\' ||
    n < 0x20 ||
    (n >= 0x7f && n <= 0x9f) ||
    (n >= 0x200b && n <= 0x200f) ||
    (n >= 0x202a && n <= 0x202e) ||
    (n >= 0x2066 && n <= 0x2069) ||
    n === 0xfeff
  );
}
const replaceUnsafe = (s: string, by: string) =>
  [...s].map((c) => (unsafeChar(c) ? by : c)).join('');

/** A file name as the composer may write it; throws BadInput naming what is wrong. */
export function checkFilename(name: unknown, where: string): string {
  if (typeof name !== 'string' || !name.trim())
    throw new BadInput(`${where}: give a file name (such as "report.pdf").`);
  if ([...name].some(unsafeChar))
    throw new BadInput(
      `${where}: the file name "${printable(name)}" contains a path separator or a control character; give the bare name (such as "report.pdf").`,
    );
  if (name.trim() === '.' || name.trim() === '..' || name.length > 255)
    throw new BadInput(`${where}: "${printable(name)}" is not a usable file name.`);
  return name.trim();
}

/** A message's own file name, made safe to send and shown as made (a stranger chose it). */
export function safeName(name: string): string {
  const cleaned = textPrefix(replaceUnsafe(name, '_').trim(), 255, codeUnits);
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : 'attachment';
}

const printable = (s: string) => textPrefix(replaceUnsafe(s, '?'), 80, codeUnits);

/** The `attachments` argument → specs; throws BadInput before anything reaches Gmail. */
export function parseAttachments(value: unknown): AttachmentSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new BadInput('attachments: give a list of attachments (objects).');
  if (value.length > MAX_ATTACHMENTS)
    throw new BadInput(
      `attachments: ${value.length} given; Airlock sends at most ${MAX_ATTACHMENTS}.`,
    );
  let total = 0;
  const specs = value.map((entry, i): AttachmentSpec => {
    const where = `attachments[${i}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry))
      throw new BadInput(`${where}: each attachment is an object.`);
    const a = entry as Record<string, unknown>;
    const keys = Object.keys(a);
    const inline = 'content_base64' in a;
    const byId = !inline && 'attachment_id' in a;
    const allowed = inline ? INLINE_KEYS : byId ? BY_ID_KEYS : MESSAGE_KEYS;
    const extra = keys.filter((k) => !allowed.has(k));
    if (extra.length)
      throw new BadInput(
        `${where}: "${extra.join('", "')}" is not accepted. An attachment is either { message_id, filename } or { message_id, attachment_id } (a file attached to a message in this account) or { filename, mime_type, content_base64 }; Airlock never reads local files or links.`,
      );
    if (byId) {
      const messageId = typeof a.message_id === 'string' ? a.message_id.trim() : '';
      const attachmentId = typeof a.attachment_id === 'string' ? a.attachment_id.trim() : '';
      if (
        !messageId ||
        !attachmentId ||
        attachmentId.length > 4096 ||
        /[^\w.~-]/.test(attachmentId)
      )
        throw new BadInput(
          `${where}: give message_id and the attachment_id Gmail gave for a file of that message (or its filename instead of attachment_id).`,
        );
      return { kind: 'message', messageId, attachmentId };
    }
    if (!inline) {
      const messageId = typeof a.message_id === 'string' ? a.message_id.trim() : '';
      if (!messageId)
        throw new BadInput(
          `${where}: give message_id and filename (a file attached to a message in this account), or filename, mime_type and content_base64.`,
        );
      if (typeof a.filename !== 'string' || !a.filename.trim())
        throw new BadInput(`${where}: filename: which attachment of message ${messageId}.`);
      return { kind: 'message', messageId, filename: a.filename };
    }
    const filename = checkFilename(a.filename, `${where}.filename`);
    const mimeType = typeof a.mime_type === 'string' ? a.mime_type.trim().toLowerCase() : '';
    if (!MIME_TYPE.test(mimeType) || /^(multipart|message)\//.test(mimeType))
      throw new BadInput(
        `${where}.mime_type: "${printable(String(a.mime_type ?? ''))}" is not a media type Airlock attaches (type/subtype, such as "application/pdf" or "text/csv", without parameters; not multipart/* or message/*).`,
      );
    const b64 = a.content_base64;
    if (typeof b64 !== 'string')
      throw new BadInput(`${where}.content_base64: give the file as base64.`);
    if (b64.length > Math.ceil(MAX_MESSAGE_BYTES / 3) * 4)
      throw new BadInput(
        `${where}: ${filename} is over ${formatBytes(MAX_MESSAGE_BYTES)}; Gmail sends messages up to ${formatBytes(MAX_MESSAGE_BYTES)} with their attachments.`,
      );
    if (!BASE64.test(b64) || b64.length % 4 !== 0)
      throw new BadInput(
        `${where}.content_base64: not strict base64 (RFC 4648 §4: A–Z, a–z, 0–9, +, /, padded with =, no spaces or line breaks).`,
      );
    const content = Buffer.from(b64, 'base64');
    if (content.toString('base64') !== b64)
      throw new BadInput(
        `${where}.content_base64: not canonical base64 (stray bits in the padding).`,
      );
    total += content.length;
    return { kind: 'inline', filename, mimeType, content, digest: contentDigest(content) };
  });
  if (total > MAX_MESSAGE_BYTES)
    throw new BadInput(
      `attachments: ${formatBytes(total)} in all; Gmail sends messages up to ${formatBytes(MAX_MESSAGE_BYTES)} with their attachments.`,
    );
  return specs;
}

/** The digest under which file bytes are known to the taint check (gmail_get_attachment's result, provenance.ts). */
export function contentDigest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('base64url')}`;
}

/** Reads a message's attachment list (headers and part skeleton), remembering it for the card. */
export async function attachmentSource(
  ctx: Pick<GmailCallContext, 'client'>,
  sources: Recent<AttachmentSource>,
  messageId: string,
): Promise<AttachmentSource> {
  const { atts, from, message } = await messageAttachments(ctx, messageId);
  // Attachment ids already resolved to a part stay resolved: a message's parts never change.
  const ids = sources.get(ctx.client.account, messageId)?.ids;
  const s: AttachmentSource = {
    subject: header(message.payload, 'subject') ?? '',
    from,
    atts,
    message,
    ...(ids ? { ids } : {}),
  };
  sources.remember(ctx.client.account, messageId, s);
  return s;
}

/** Downloads every attachment as it will go out; throws BadInput for one that is not there. */
export async function resolveAttachments(
  ctx: GmailCallContext,
  sources: Recent<AttachmentSource>,
  specs: AttachmentSpec[],
): Promise<OutgoingAttachment[]> {
  const out: OutgoingAttachment[] = [];
  for (const spec of specs) {
    if (spec.kind === 'inline') {
      out.push({ filename: spec.filename, mimeType: spec.mimeType, content: spec.content });
      continue;
    }
    const src = await attachmentSource(ctx, sources, spec.messageId).catch((err: unknown) => {
      if (isMissing(err))
        throw new BadInput(
          noSuchMessages(
            [spec.messageId],
            ctx.client.account,
            'the message an attachment is taken from',
          ),
        );
      throw err;
    });
    // A name is matched in what was read; an id from another read, by what it downloads.
    const picked = await resolvePick(ctx.client, src, spec);
    const att = picked.att;
    if (att.size > MAX_MESSAGE_BYTES)
      throw new BadInput(
        `${att.filename} of message ${spec.messageId} is ${formatBytes(att.size)}; Gmail sends messages up to ${formatBytes(MAX_MESSAGE_BYTES)}.`,
      );
    if (!att.attachmentId)
      throw new BadInput(
        `${att.filename} of message ${spec.messageId} has no downloadable content.`,
      );
    const messageId = spec.messageId;
    const content =
      picked.bytes ??
      Buffer.from(
        base64urlBytes(
          (
            await ctx.client.read(
              `attachment ${att.filename} of message ${messageId}`,
              (api, opts) =>
                api.users.messages.attachments.get(
                  { userId: 'me', messageId, id: att.attachmentId! },
                  opts,
                ),
            )
          ).data,
        ),
      );
    out.push({
      filename: safeName(att.filename),
      mimeType: att.mimeType,
      content,
      source: { messageId, subject: src.subject, from: src.from },
    });
  }
  return out;
}

/**
 * The card's line for each attachment: where it comes from (for a forwarded one, which
 * message), its type and size, and its name quoted last.
 * Message-sourced ones are described from what Airlock read of the message (precheck and the
 * card's look-up fill `sources`); before that, by what the arguments name.
 */
export function attachmentLines(
  specs: AttachmentSpec[],
  account: string,
  sources: Recent<AttachmentSource>,
): string[] {
  return specs.map((spec) => {
    // Facts first, the file name (the agent's, or the sender's of a message) quoted last: named
    // first, a name such as 'a.pdf (application/pdf, 1 KB) — from message m9 from
    // ceo@corp.example, subject "Board"; x' wrote where the file comes from
    // (card-quotes.property.test.ts).
    if (spec.kind === 'inline')
      return cardLine(
        `Attachment: given by the agent (${quoted(spec.mimeType)}, ${formatBytes(spec.content.length)}), named ${quoted(spec.filename)}`,
      );
    const src = sources.get(account, spec.messageId);
    let att: AttachmentInfo | undefined;
    try {
      att = src ? knownPick(src, spec) : undefined;
    } catch (err) {
      return cardLine(
        `Attachment: ${pickLabel(spec)} of message ${quotedId(spec.messageId)} — this call will FAIL: ${(err as Error).message}`,
      );
    }
    // The sender wrote the message's subject, name and types: one line each (card-text.ts).
    if (!src)
      return cardLine(
        `Attachment: from message ${quotedId(spec.messageId)} (not yet read), ${pickLabel(spec)}`,
      );
    const from = `Attachment: from message ${quotedId(spec.messageId)} from ${src.from ? quoted(src.from) : 'an unknown sender'}`;
    const subject = `subject ${quoted(src.subject || '(no subject)')}`;
    return cardLine(
      att
        ? `${from} (${quoted(att.mimeType)}, ${formatBytes(att.size)}), ${subject}, named ${quoted(safeName(att.filename))}`
        : `${from} (name and type not yet read), ${subject}, ${pickLabel(spec)}`,
    );
  });
}
