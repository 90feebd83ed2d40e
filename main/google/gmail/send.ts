import type { CallToolResult } from '../../tools/types.js';
import { GoogleToolError } from '../account-access.js';
import type { SeenMessages } from './cache.js';
import {
  BadInput,
  buildMime,
  formatMailbox,
  MAX_RECIPIENTS,
  parseAddresses,
  replyReferences,
  replySubject,
  type Mailbox,
  type Outgoing,
} from './compose.js';
import { str, type GmailCallContext } from './context.js';
import { attachmentsLine, previewLines, type DraftView } from './draft-view.js';
import { isMissing, noSuchMessages } from './errors.js';
import {
  attachmentLines,
  parseAttachments,
  resolveAttachments,
  type AttachmentSource,
  type AttachmentSpec,
  type OutgoingAttachment,
} from './outgoing-attachments.js';
import type { Recent } from './cache.js';
import { cardLine, quoted, quotedId } from '../card-text.js';
import { header } from './payload.js';
import { draftRequest, sendRequest } from './upload.js';

export interface ComposeInput {
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  subject: string | undefined;
  body: string;
  replyTo: string | undefined;
  attachments: AttachmentSpec[];
}

/**
 * Arguments → checked input; throws BadInput before anything reaches Gmail.
 * `subjectOptional`: gmail_update_draft, where a missing subject keeps the draft's.
 */
export function parseCompose(
  args: Record<string, unknown>,
  opts: { subjectOptional?: boolean } = {},
): ComposeInput {
  const input: ComposeInput = {
    to: parseAddresses('to', args.to),
    cc: parseAddresses('cc', args.cc),
    bcc: parseAddresses('bcc', args.bcc),
    subject: str(args.subject)?.replace(/[\r\n]+/g, ' '),
    body: str(args.body) ?? '',
    replyTo: str(args.reply_to_message_id)?.trim() || undefined,
    attachments: parseAttachments(args.attachments),
  };
  if (input.to.length === 0) throw new BadInput('to: at least one recipient is needed.');
  const count = input.to.length + input.cc.length + input.bcc.length;
  if (count > MAX_RECIPIENTS)
    throw new BadInput(`${count} recipients; Airlock sends to at most ${MAX_RECIPIENTS} at once.`);
  if (!input.replyTo && !opts.subjectOptional && !input.subject?.trim())
    throw new BadInput(
      'subject: a subject is needed (it may be left out only for replies, which use "Re: <original subject>").',
    );
  return input;
}

/** The message as it will go out: a reply picks up the thread, In-Reply-To, References and "Re:". */
export async function outgoing(ctx: GmailCallContext, input: ComposeInput): Promise<Outgoing> {
  const fromName = await ctx.sendAs.displayName(ctx.client);
  const attachments = await resolveAttachments(ctx, ctx.attachmentSources, input.attachments);
  const base: Outgoing = {
    from: ctx.client.account,
    ...(fromName ? { fromName } : {}),
    to: input.to,
    cc: input.cc,
    bcc: input.bcc,
    subject: input.subject?.trim() ?? '',
    body: input.body,
    ...(attachments.length ? { attachments } : {}),
  };
  if (!input.replyTo) return base;
  const id = input.replyTo;
  const orig = await ctx.client
    .read(`message ${id} (the message being replied to)`, (api, opts) =>
      api.users.messages.get(
        {
          userId: 'me',
          id,
          format: 'metadata',
          metadataHeaders: ['Subject', 'From', 'Message-ID', 'References'],
        },
        opts,
      ),
    )
    .catch((err: unknown) => {
      if (isMissing(err))
        throw new BadInput(
          noSuchMessages([id], ctx.client.account, 'the message being replied to'),
        );
      throw err;
    });
  const p = orig.payload ?? undefined;
  const subject = header(p, 'subject') ?? '';
  ctx.seen.remember(ctx.client.account, id, {
    subject,
    from: header(p, 'from') ?? '',
    threadId: orig.threadId ?? '',
  });
  const messageId = header(p, 'message-id')?.trim();
  return {
    ...base,
    subject: replySubject(subject, input.subject),
    ...(orig.threadId ? { threadId: orig.threadId } : {}),
    ...(messageId
      ? { inReplyTo: messageId, references: replyReferences(header(p, 'references'), messageId) }
      : {}),
  };
}

export function recipients(m: Outgoing): string {
  return [...m.to, ...m.cc, ...m.bcc].map((r) => r.address).join(', ');
}

/** " with 2 attachments (a.pdf, b.csv)" for a result, or "". */
export function withAttachments(m: Outgoing): string {
  const atts: OutgoingAttachment[] = m.attachments ?? [];
  return atts.length
    ? ` with ${atts.length} attachment${atts.length === 1 ? '' : 's'} (${atts.map((a) => a.filename).join(', ')})`
    : '';
}

/**
 * A send that failed with a server error or a dropped connection may still
 * have gone out: the error says so, and Airlock never resends blindly.
 */
export function maybeSent(err: unknown): never {
  if (
    err instanceof GoogleToolError &&
    err.code === 'GOOGLE_API' &&
    /server error|could not reach/i.test(err.message)
  ) {
    throw new GoogleToolError(
      'GOOGLE_API',
      `${err.message} The message may or may not have been sent: check with gmail_search "in:sent" before sending it again.`,
    );
  }
  throw err;
}

export async function sendMessage(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const m = await outgoing(ctx, parseCompose(args));
  const mime = await buildMime(m);
  const sent = await ctx.client
    .write('sending the message', (api, opts) =>
      api.users.messages.send({ userId: 'me', ...sendRequest(mime, m.threadId) }, opts),
    )
    .catch(maybeSent);
  return {
    content: [
      {
        type: 'text',
        text: `Sent "${m.subject}"${withAttachments(m)} from ${m.from} to ${recipients(m)}. Message id ${sent.id}, thread ${sent.threadId}${m.threadId ? ' (a reply in the existing thread)' : ''}.`,
      },
    ],
  };
}

export async function createDraft(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const m = await outgoing(ctx, parseCompose(args));
  const mime = await buildMime(m);
  const draft = await ctx.client.write('creating the draft', (api, opts) =>
    api.users.drafts.create({ userId: 'me', ...draftRequest(mime, m.threadId) }, opts),
  );
  return {
    content: [
      {
        type: 'text',
        text: `Draft "${m.subject}"${withAttachments(m)} to ${recipients(m)} saved in ${m.from} (draft id ${draft.id}, message ${draft.message?.id}). Nothing was sent; the user can send it from Gmail.`,
      },
    ],
  };
}

/** For gmail_update_draft's approval: which draft, and what Airlock last read of it. */
export interface DraftReplacement {
  draftId: string;
  previous?: DraftView;
}

/**
 * The approval text: the message as it will be sent (from, to, cc, bcc,
 * subject, first lines). Synchronous, so a reply's subject comes from what
 * Airlock last saw of the original; when it has not seen it, it says so.
 */
export function describeCompose(
  kind: 'send' | 'draft' | 'update',
  account: string,
  args: Record<string, unknown>,
  seen: SeenMessages,
  fromName?: string,
  replacing?: DraftReplacement,
  sources?: Recent<AttachmentSource>,
): string {
  const previous = replacing?.previous;
  const head = {
    send: `Send an email from ${account} — the recipient sees it immediately.`,
    draft: `Create a draft in ${account} (not sent).`,
    update: `Replace draft ${quotedId(replacing?.draftId ?? '')} in ${account} with this message (not sent).`,
  }[kind];
  let input: ComposeInput;
  try {
    input = parseCompose(args, { subjectOptional: kind === 'update' });
  } catch (err) {
    const what = { send: 'Send an email', draft: 'Create a draft', update: 'Change a draft' }[kind];
    return `${what} from ${account} — this call will FAIL and nothing will be ${kind === 'send' ? 'sent' : 'saved'}: ${(err as Error).message}`;
  }
  const lines = [
    head,
    `From: ${fromName ? formatMailbox({ name: fromName, address: account }) : account}`,
    `To: ${input.to.map(formatMailbox).join(', ')}`,
  ];
  if (input.cc.length) lines.push(`Cc: ${input.cc.map(formatMailbox).join(', ')}`);
  if (input.bcc.length) lines.push(`Bcc: ${input.bcc.map(formatMailbox).join(', ')}`);
  if (input.replyTo) {
    const orig = seen.get(account, input.replyTo);
    const subject =
      input.subject?.trim() || orig
        ? replySubject(orig?.subject, input.subject)
        : `Re: <the subject of message ${quotedId(input.replyTo)}>`;
    lines.push(`Subject: ${cardLine(subject)}`);
    // The message first, its subject (a stranger's, quoted) last: closing its quote mid-line
    // it wrote another sender or message id (card-quotes.property.test.ts).
    lines.push(
      cardLine(
        orig
          ? `In reply to: message ${quotedId(input.replyTo)} (same thread) from ${quoted(orig.from)}, subject ${quoted(orig.subject)}`
          : `In reply to: message ${quotedId(input.replyTo)} (same thread)`,
      ),
    );
  } else if (input.subject?.trim() || kind !== 'update') {
    lines.push(`Subject: ${cardLine(input.subject?.trim() ?? '')}`);
  } else {
    lines.push(
      previous
        ? `Subject: ${cardLine(previous.subject || '(no subject)')} (unchanged)`
        : "Subject: the draft's current subject (unchanged)",
    );
  }
  if (kind === 'update' && !input.replyTo && previous?.inReplyTo)
    lines.push(`In reply to: ${cardLine(previous.inReplyTo)} (unchanged, same thread)`);
  if (sources) lines.push(...attachmentLines(input.attachments, account, sources));
  lines.push('', ...previewLines(input.body));
  if (previous) {
    lines.push(
      '',
      cardLine(
        `Replaces: the draft to ${previous.to ? quoted(previous.to) : '(no recipient)'}, subject ${quoted(previous.subject || '(no subject)')}`,
      ),
    );
    if (previous.attachments.length)
      lines.push(`${attachmentsLine(previous.attachments)} — removed by this change.`);
  }
  return lines.join('\n');
}
