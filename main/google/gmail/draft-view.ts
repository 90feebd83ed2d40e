import type { gmail_v1 } from '@googleapis/gmail';
import { formatBytes } from '../content/text.js';
import { Recent } from './cache.js';
import { BadInput } from './compose.js';
import type { GmailClient } from './client.js';
import type { DraftRecipients } from './draft-recipients.js';
import { isMissing } from './errors.js';
import {
  attachmentsOf,
  base64urlBytes,
  bodyOf,
  header,
  type AttachmentInfo,
  type Body,
  type Part,
} from './payload.js';
import { cardLine, quoted } from '../card-text.js';

/**
 * A draft as it would go out (users.drafts.get, format=full;
 * developers.google.com/gmail/api/reference/rest/v1/users.drafts#Draft): its
 * immutable draft id, the id of its current message (a new one after every
 * update), the headers Gmail sends it with and its readable text.
 */
export interface DraftView {
  id: string;
  messageId: string;
  threadId: string;
  from: string;
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  inReplyTo?: string;
  references?: string;
  body: Body;
  attachments: AttachmentInfo[];
  /** Set on a remembered view, which keeps only the lines a card shows. */
  preview?: string[];
}

/** A draft id the account does not have: the same sentence before and after an approval. */
export function noSuchDraft(id: string, account: string): BadInput {
  return new BadInput(
    `There is no draft with id ${id} in ${account} (it may have been sent or deleted). gmail_list_drafts lists the drafts.`,
  );
}

export function draftIdOf(args: Record<string, unknown>): string {
  const id = typeof args.draft_id === 'string' ? args.draft_id.trim() : '';
  if (!id) throw new BadInput('draft_id: give the id of a draft (from gmail_list_drafts).');
  return id;
}

export function viewOf(d: gmail_v1.Schema$Draft, fallbackId: string, body: Body): DraftView {
  const p: Part | undefined = d.message?.payload ?? undefined;
  const inReplyTo = header(p, 'in-reply-to')?.trim();
  const references = header(p, 'references')?.trim();
  return {
    id: d.id ?? fallbackId,
    messageId: d.message?.id ?? '',
    threadId: d.message?.threadId ?? '',
    from: header(p, 'from') ?? '',
    to: header(p, 'to') ?? '',
    cc: header(p, 'cc') ?? '',
    bcc: header(p, 'bcc') ?? '',
    subject: header(p, 'subject') ?? '',
    ...(inReplyTo ? { inReplyTo } : {}),
    ...(references ? { references } : {}),
    body,
    attachments: attachmentsOf(p),
  };
}

/** The draft, read whole; an unknown id is a BadInput naming the account. */
export async function fetchDraft(client: GmailClient, id: string): Promise<DraftView> {
  let d: gmail_v1.Schema$Draft;
  try {
    d = await client.read(`draft ${id}`, (api, opts) =>
      api.users.drafts.get({ userId: 'me', id, format: 'full' }, opts),
    );
  } catch (err) {
    throw isMissing(err) ? noSuchDraft(id, client.account) : err;
  }
  const messageId = d.message?.id ?? '';
  const body = await bodyOf(d.message?.payload ?? undefined, async (attachmentId) => {
    const a = await client.read(`a body part of draft ${id}`, (api, opts) =>
      api.users.messages.attachments.get({ userId: 'me', messageId, id: attachmentId }, opts),
    );
    return base64urlBytes(a.data);
  });
  return viewOf(d, id, body);
}

export function hasRecipients(v: DraftView): boolean {
  return [v.to, v.cc, v.bcc].some((h) => h.trim() !== '');
}

export function recipientsOf(v: DraftView): string {
  return [v.to, v.cc, v.bcc].filter((h) => h.trim()).join(', ');
}

const PREVIEW_LINES = 15;

/** The draft's text as an approval shows it: the first lines, and how many it leaves out. */
export function previewOf(v: DraftView): string[] {
  return v.preview ?? previewLines(v.body.text);
}

/** The lines of a text an approval shows, and how many it leaves out. */
export function previewLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const shown = lines.slice(0, PREVIEW_LINES);
  if (lines.length > PREVIEW_LINES) shown.push(`[… ${lines.length - PREVIEW_LINES} more lines]`);
  return shown;
}

/**
 * A file a draft holds, as a card names it: its name and type are whoever wrote the draft's
 * (a draft saved elsewhere, a forwarded stranger's file), so both are quoted (common/card-text.ts)
 * — bare, a type `application/pdf, 1 KB); Attachment: x.pdf (` wrote a second file on the card.
 */
function attachmentShown(a: AttachmentInfo): string {
  return `${quoted(a.filename)} (${quoted(a.mimeType)}, ${formatBytes(a.size)})`;
}

export function attachmentsLine(atts: readonly AttachmentInfo[]): string {
  if (atts.length === 0) return '';
  return cardLine(
    `Attachments (${atts.length}): ${atts.map((a) => attachmentShown(a)).join('; ')}`,
  );
}

/**
 * The draft's headers, thread and attachments as the card and gmail_get_draft show them: one line
 * each, whatever the header holds once decoded (card-text.ts).
 */
export function headerLines(v: DraftView): string[] {
  return [
    `From: ${v.from}`,
    `To: ${v.to || '(no recipient)'}`,
    v.cc ? `Cc: ${v.cc}` : '',
    v.bcc ? `Bcc: ${v.bcc}` : '',
    `Subject: ${v.subject || '(no subject)'}`,
    v.inReplyTo ? `In reply to: ${v.inReplyTo} (thread ${v.threadId})` : '',
    // One "Attachment:" line each, so the card lays them out as fields (renderer summary.ts).
    ...v.attachments.map((a) => `Attachment: ${attachmentShown(a)}`),
  ]
    .filter(Boolean)
    .map(cardLine);
}

/**
 * What Airlock last read of each draft, and which version of it (the draft's
 * message id) the checks before a send last read (call-content.ts: the taint
 * check and a grant) or an approval last showed: gmail_send_draft refuses when
 * the draft changed since (docs/gmail.md "Drafts").
 */
export class DraftMemory {
  private readonly views = new Recent<DraftView>(200);
  private readonly shown = new Recent<string>(200);
  private readonly heads = new Recent<DraftRecipients>(200);

  remember(account: string, v: DraftView): void {
    // Only what a card shows is kept: the text's first lines.
    this.views.remember(account, v.id, {
      ...v,
      preview: previewOf(v),
      body: { ...v.body, text: '' },
    });
  }

  get(account: string, id: string): DraftView | undefined {
    return this.views.get(account, id);
  }

  markShown(account: string, v: DraftView): void {
    this.shown.remember(account, v.id, v.messageId);
  }

  lastShown(account: string, id: string): string | undefined {
    return this.shown.get(account, id);
  }

  /**
   * The recipient headers as the draft's bytes hold them, read with the checks before a send
   * (call-content.ts): what a grant reads (grant-shape.ts), kept per version (message id), so a
   * later read of a changed draft never stands in for the version a call is bound to.
   */
  rememberRecipients(account: string, id: string, r: DraftRecipients): void {
    this.heads.remember(account, versionKey(id, r.messageId), r);
  }

  /** The recipient headers of this version of the draft, if Airlock read them. */
  recipients(account: string, id: string, messageId: string): DraftRecipients | undefined {
    const r = this.heads.get(account, versionKey(id, messageId));
    return r?.messageId === messageId ? r : undefined;
  }

  /**
   * The draft was replaced: what Airlock read of it is out of date, but which
   * version an approval showed still holds (a send approved on the old one must fail).
   */
  stale(account: string, id: string): void {
    this.views.forget(account, id);
  }

  /** The draft is gone (sent or deleted): nothing about it is current any more. */
  forget(account: string, id: string): void {
    this.views.forget(account, id);
    this.shown.forget(account, id);
  }
}

/** One version of one draft: its id and message id. */
const versionKey = (id: string, messageId: string) => JSON.stringify([id, messageId]);
