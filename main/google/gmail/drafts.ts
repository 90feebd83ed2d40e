import type { CallToolResult } from '../../tools/types.js';
import { pageNote, pageOf } from '../content/text.js';
import { BadInput, buildMime, replyReferences } from './compose.js';
import { int, str, type GmailCallContext } from './context.js';
import {
  draftIdOf,
  fetchDraft,
  hasRecipients,
  headerLines,
  noSuchDraft,
  recipientsOf,
} from './draft-view.js';
import { isMissing } from './errors.js';
import { draftItem, provenanceMeta } from './provenance.js';
import { MAX_CHARS, READ_DEFAULT_CHARS } from './read.js';
import { loadHits, SEARCH_DEFAULT, SEARCH_MAX, type HitOrError, type HitPage } from './search.js';
import { maybeSent, outgoing, parseCompose, recipients, withAttachments } from './send.js';
import { draftRequest } from './upload.js';

/**
 * The draft tools (issue 33 item 1) on Gmail's users.drafts methods
 * (developers.google.com/gmail/api/reference/rest/v1/users.drafts): list,
 * get, update, send, delete. gmail_create_draft is in send.ts.
 */

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

/** One account's drafts: one drafts.list, then the drafts' messages in one batch, like gmail_search. */
export async function draftsPage(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
  pageToken = str(args.page_token),
): Promise<HitPage> {
  const query = str(args.query) ?? '';
  const max = int(args.max_results, SEARCH_DEFAULT, 1, SEARCH_MAX);
  const list = await ctx.client.read('the draft list', (api, opts) =>
    api.users.drafts.list(
      {
        userId: 'me',
        maxResults: max,
        ...(query ? { q: query } : {}),
        ...(pageToken ? { pageToken } : {}),
      },
      opts,
    ),
  );
  const drafts = (list.drafts ?? []).filter((d) => d.id && d.message?.id);
  const hits = await loadHits(
    ctx,
    drafts.map((d) => d.message!),
  );
  return {
    account: ctx.client.account,
    hits: hits.map((h, i) => ({ ...h, draftId: drafts[i]!.id! })),
    ...(list.nextPageToken ? { next: list.nextPageToken } : {}),
  };
}

/** The drafts as the agent reads them; `where` is " in alice@…" or "". */
export function renderDrafts(
  query: string,
  where: string,
  hits: HitOrError[],
  next: string | undefined,
  failures: string[] = [],
): string {
  const lines = [
    `Drafts${query ? ` matching "${query}"` : ''}${where}: ${hits.length === 0 ? 'none.' : `${hits.length}, newest first.`}`,
  ];
  hits.forEach((h, i) => {
    const who = h.account ? `[${h.account}] ` : '';
    lines.push('');
    if ('error' in h) {
      lines.push(`${i + 1}. ${who}draft ${h.draftId} — could not be loaded: ${h.error}`);
      return;
    }
    lines.push(`${i + 1}. ${who}${h.subject || '(no subject)'} — draft ${h.draftId}`);
    lines.push(`   To: ${h.to || '(no recipient)'} · Date: ${h.date} · thread ${h.threadId}`);
    if (h.attachments.length) lines.push(`   Attachments: ${h.attachments.join(', ')}`);
    if (h.snippet) lines.push(`   ${h.snippet}`);
  });
  for (const f of failures) lines.push('', f);
  if (next)
    lines.push(
      '',
      `More drafts: call gmail_list_drafts with the same query and page_token="${next}".`,
    );
  return lines.join('\n');
}

/** The taint check's description of listed drafts: the user's own content. */
export function draftsMeta(hits: HitOrError[]): Record<string, unknown> {
  return provenanceMeta(
    hits.flatMap((h) =>
      'error' in h
        ? []
        : [
            draftItem(
              h.draftId ?? h.id,
              h.account ?? '',
              h.subject,
              `${h.subject}\nTo: ${h.to}\n${h.snippet}`,
            ),
          ],
    ),
  );
}

/** gmail_list_drafts in one account. */
export async function listDrafts(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const page = await draftsPage(ctx, args);
  const where = ctx.showAccount ? ` in ${ctx.client.account}` : '';
  return {
    content: [
      { type: 'text', text: renderDrafts(str(args.query) ?? '', where, page.hits, page.next) },
    ],
    _meta: draftsMeta(page.hits.map((h) => ({ ...h, account: ctx.client.account }))),
  };
}

/** gmail_get_draft: the draft as it would go out, its text paged like gmail_read. */
export async function getDraft(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const id = draftIdOf(args);
  const offset = int(args.offset, 0, 0, Number.MAX_SAFE_INTEGER);
  const maxChars = int(args.max_chars, READ_DEFAULT_CHARS, 200, MAX_CHARS);
  const v = await fetchDraft(ctx.client, id);
  ctx.drafts.remember(ctx.client.account, v);
  if (offset > 0 && offset >= v.body.text.length)
    throw new BadInput(
      `offset ${offset} is past the end of this draft's text (${v.body.text.length} characters).`,
    );
  const page = pageOf(v.body.text, offset, maxChars);
  const lines = [
    `Draft ${v.id} in ${ctx.client.account} (message ${v.messageId}, thread ${v.threadId}). Not sent.`,
    ...headerLines(v),
    '',
    `Text (${v.body.source === 'html' ? 'converted from HTML to markdown' : v.body.source === 'plain' ? 'text/plain' : 'no text part'}, ${v.body.text.length} characters):`,
    '---',
    page.text || '(empty)',
    '---',
  ];
  const note = pageNote(page, 'gmail_get_draft');
  if (note) lines.push(note);
  const out = lines.join('\n');
  return {
    ...text(out),
    _meta: provenanceMeta([draftItem(v.id, ctx.client.account, v.subject, out)]),
  };
}

/**
 * gmail_update_draft: drafts.update with the whole new message (Gmail
 * replaces a draft's content). The subject and the thread stay unless given;
 * the draft is read first for them.
 */
export async function updateDraft(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const id = draftIdOf(args);
  const input = parseCompose(args, { subjectOptional: true });
  const current = await fetchDraft(ctx.client, id);
  const m = await outgoing(ctx, input);
  if (!input.replyTo && current.inReplyTo) {
    m.threadId = current.threadId;
    m.inReplyTo = current.inReplyTo;
    m.references = replyReferences(current.references, current.inReplyTo);
  }
  if (!input.subject?.trim() && !input.replyTo) m.subject = current.subject;
  if (!m.subject.trim()) throw new BadInput(`subject: draft ${id} has no subject; give one.`);
  const mime = await buildMime(m);
  const updated = await ctx.client
    .write(`draft ${id}`, (api, opts) =>
      api.users.drafts.update({ userId: 'me', id, ...draftRequest(mime, m.threadId, id) }, opts),
    )
    .catch((err: unknown) => {
      throw isMissing(err) ? noSuchDraft(id, ctx.client.account) : err;
    });
  ctx.drafts.stale(ctx.client.account, id);
  const dropped = current.attachments.length
    ? ` Its ${current.attachments.length} attachment(s) were removed.`
    : '';
  return text(
    `Draft ${id} in ${m.from} now holds "${m.subject}"${withAttachments(m)} to ${recipients(m)} (message ${updated.message?.id}).${dropped} Nothing was sent.`,
  );
}

/**
 * gmail_send_draft: drafts.send of the draft as it is. The draft must still be the version the
 * call is bound to (`message_id`, filled in by the checks' read: call-content.ts) — or, for a call
 * the checks could not read, the version an approval last showed: one changed since is not sent
 * (docs/gmail.md "Drafts").
 */
export async function sendDraft(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const id = draftIdOf(args);
  const account = ctx.client.account;
  const v = await fetchDraft(ctx.client, id);
  const shown =
    args.message_id !== undefined
      ? (str(args.message_id)?.trim() ?? '')
      : ctx.drafts.lastShown(account, id);
  if (shown !== undefined && shown !== v.messageId)
    throw new BadInput(
      `Draft ${id} changed after Airlock checked it and the approval showed it; nothing was sent. Call gmail_send_draft again so the current version is checked and shown.`,
    );
  if (!hasRecipients(v))
    throw new BadInput(
      `Draft ${id} has no recipient; nothing was sent. Add one with gmail_update_draft.`,
    );
  const sent = await ctx.client
    .write(`draft ${id}`, (api, opts) =>
      api.users.drafts.send({ userId: 'me', requestBody: { id } }, opts),
    )
    .catch((err: unknown) => {
      if (isMissing(err)) throw noSuchDraft(id, account);
      return maybeSent(err);
    });
  ctx.drafts.forget(account, id);
  return text(
    `Sent draft ${id} "${v.subject}" from ${account} to ${recipientsOf(v)}. Message id ${sent.id}, thread ${sent.threadId}.`,
  );
}

/** gmail_delete_draft: drafts.delete, which deletes for good (no Trash for drafts). */
export async function deleteDraft(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const id = draftIdOf(args);
  const account = ctx.client.account;
  const known = ctx.drafts.get(account, id);
  await ctx.client
    .write(`draft ${id}`, (api, opts) => api.users.drafts.delete({ userId: 'me', id }, opts))
    .catch((err: unknown) => {
      throw isMissing(err) ? noSuchDraft(id, account) : err;
    });
  ctx.drafts.forget(account, id);
  return text(
    `Deleted draft ${id}${known ? ` ("${known.subject || '(no subject)'}" to ${known.to || 'no one'})` : ''} from ${account} for good.`,
  );
}
