import type { ToolDefinition } from '../../tools/types.js';
import type { GoogleAccountAccess } from '../account-access.js';
import { pickAccount } from './account-pick.js';
import type { Recent, SeenMessages } from './cache.js';
import { GmailClient, type RetryPolicy } from './client.js';
import { str, strings } from './context.js';
import {
  fetchDraft,
  hasRecipients,
  headerLines,
  previewOf,
  attachmentsLine,
  type DraftMemory,
} from './draft-view.js';
import { describeCreateFilter, describeDeleteFilter, fetchFilter, type Filter } from './filters.js';
import { describeLabelChange, labelWithCounts } from './label-admin.js';
import type { Label, LabelDirectory } from './labels.js';
import { describeModify, messageIds } from './modify.js';
import { header } from './payload.js';
import { cardLine, quoted, quotedId } from '../card-text.js';
import { describeCompose, parseCompose } from './send.js';
import { attachmentSource, type AttachmentSource } from './outgoing-attachments.js';
import type { SendAsNames } from './send-as.js';

export interface EffectDeps {
  access: GoogleAccountAccess;
  seen: SeenMessages;
  drafts: DraftMemory;
  sendAs: SendAsNames;
  labels: LabelDirectory;
  filters: Recent<Filter>;
  attachmentSources: Recent<AttachmentSource>;
  retry: RetryPolicy;
  defs: () => readonly ToolDefinition[];
}

const COMPOSE = new Set(['gmail_send', 'gmail_create_draft', 'gmail_update_draft']);
const DRAFT_BY_ID = new Set(['gmail_update_draft', 'gmail_send_draft', 'gmail_delete_draft']);
const LABEL_TOOLS = new Set(['gmail_create_label', 'gmail_rename_label', 'gmail_delete_label']);
const MODIFY = new Set(['gmail_modify_labels', 'gmail_archive', 'gmail_trash']);

/** The messages a change's card names (describeModify shows ten), read as the change reads them. */
function shownIds(args: Record<string, unknown>): string[] {
  try {
    return messageIds(args).slice(0, 10);
  } catch {
    return []; // The card says the call will fail.
  }
}

/**
 * The approval card's statement of each Gmail write (docs/gmail.md "Approval
 * text"): the message or draft as it will go out, the messages a change
 * touches. `describe` answers from what Airlock has already seen;
 * `describeAsync` first reads what it has not (the replied-to message, the
 * draft itself, the send-as name).
 */
export class GmailEffects {
  constructor(private readonly d: EffectDeps) {}

  describe(tool: string, args: Record<string, unknown>, label?: Label): string {
    let account: string;
    try {
      account = pickAccount(this.d.access, tool, args).email;
    } catch (err) {
      return `${tool} — this call will fail: ${(err as Error).message}`;
    }
    const name = this.d.sendAs.known(account);
    const draftId = str(args.draft_id)?.trim() ?? '';
    const view = draftId ? this.d.drafts.get(account, draftId) : undefined;
    const sources = this.d.attachmentSources;
    if (tool === 'gmail_send')
      return describeCompose('send', account, args, this.d.seen, name, undefined, sources);
    if (tool === 'gmail_create_draft')
      return describeCompose('draft', account, args, this.d.seen, name, undefined, sources);
    if (tool === 'gmail_update_draft')
      return describeCompose(
        'update',
        account,
        args,
        this.d.seen,
        name,
        { draftId, ...(view ? { previous: view } : {}) },
        sources,
      );
    if (tool === 'gmail_send_draft') {
      if (!view)
        return `Send draft ${quotedId(draftId)} from ${account} — the recipients see it immediately. Airlock could not read the draft, so its content is not shown: check it in Gmail first.`;
      // A call bound to a version (`message_id`, call-content.ts) sends that version or nothing:
      // the card shows it, or says the send will fail. One that is not bound sends the version
      // shown last (the checks could not read the draft).
      const bound = args.message_id !== undefined ? (str(args.message_id)?.trim() ?? '') : null;
      if (bound !== null && bound !== view.messageId)
        return `Send draft ${quotedId(draftId)} from ${account} — this call will FAIL and nothing will be sent: the draft changed after Airlock checked it (now message ${quotedId(view.messageId)}, the call is for ${bound ? quotedId(bound) : 'no version'}).`;
      if (bound === null) this.d.drafts.markShown(account, view);
      if (!hasRecipients(view))
        return `Send draft ${quotedId(draftId)} from ${account} — this call will FAIL and nothing will be sent: the draft has no recipient.`;
      return [
        `Send draft ${quotedId(draftId)} from ${account} — the recipients see it immediately.`,
        ...headerLines(view),
        '',
        ...previewOf(view),
      ].join('\n');
    }
    if (tool === 'gmail_delete_draft')
      return [
        `Delete draft ${quotedId(draftId)} in ${account} for good (Gmail keeps no deleted drafts in the Trash).`,
        ...(view ? [draftNamed(view), attachmentsLine(view.attachments)].filter(Boolean) : []),
      ].join('\n');
    if (LABEL_TOOLS.has(tool))
      return describeLabelChange(
        tool,
        account,
        args,
        label ?? this.d.labels.peek(account, str(args.label) ?? ''),
      );
    if (tool === 'gmail_create_filter') return describeCreateFilter(account, args);
    if (tool === 'gmail_delete_filter') {
      const id = str(args.filter_id)?.trim() ?? '';
      const f = this.d.filters.get(account, id);
      const name = (l: string) => this.d.labels.peek(account, l)?.name ?? l;
      return describeDeleteFilter(id, account, f, name);
    }
    if (MODIFY.has(tool)) return describeModify(tool, account, args, this.d.seen);
    const def = this.d.defs().find((x) => x.name === tool);
    return `${def?.title ?? tool} in ${account}`;
  }

  /**
   * Looks up what the approval is about when Airlock has not seen it yet (the
   * message being replied to, the ones being trashed or relabelled, the draft
   * — always read afresh, so the card shows it as it is now). Best effort: on
   * any failure the synchronous text stands. Its requests end with `signal`: the approval's
   * bound for the lookup (main/calls/effect-text.ts) is the only one, so a test that asks here
   * directly is never decided by a clock.
   */
  async describeAsync(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<string> {
    try {
      const account = pickAccount(this.d.access, tool, args).email;
      const client = new GmailClient(this.d.access, account, this.d.retry, signal);
      const draftId = str(args.draft_id)?.trim();
      const work: Promise<unknown>[] = [];
      if (COMPOSE.has(tool)) {
        work.push(this.d.sendAs.displayName(client)); // From: as it will go out
        for (const id of forwardedFrom(args))
          if (!this.d.attachmentSources.get(account, id))
            work.push(attachmentSource({ client }, this.d.attachmentSources, id));
      }
      if (DRAFT_BY_ID.has(tool) && draftId)
        work.push(fetchDraft(client, draftId).then((v) => this.d.drafts.remember(account, v)));
      const ids = COMPOSE.has(tool)
        ? [str(args.reply_to_message_id)]
        : MODIFY.has(tool)
          ? shownIds(args)
          : strings(args.message_ids).slice(0, 10);
      for (const id of ids.map((x) => x?.trim()))
        if (id && !this.d.seen.get(account, id)) work.push(this.lookUp(client, id));
      if (tool === 'gmail_delete_filter' && str(args.filter_id))
        work.push(
          fetchFilter({ client }, str(args.filter_id)!.trim()).then((f) =>
            this.d.filters.remember(account, str(args.filter_id)!.trim(), f),
          ),
        );
      let label: Label | undefined;
      if (tool === 'gmail_rename_label' || tool === 'gmail_delete_label')
        work.push(
          this.d.labels.find(client, str(args.label) ?? '').then(async (l) => {
            if (l?.id) label = await labelWithCounts(client, l.id);
          }),
        );
      await Promise.allSettled(work);
      return this.describe(tool, args, label);
    } catch {
      // The approval still shows what the arguments say.
    }
    return this.describe(tool, args);
  }

  private async lookUp(client: GmailClient, id: string): Promise<void> {
    const m = await client.read(`message ${id}`, (api, opts) =>
      api.users.messages.get(
        { userId: 'me', id, format: 'metadata', metadataHeaders: ['Subject', 'From'] },
        opts,
      ),
    );
    this.d.seen.remember(client.account, id, {
      subject: header(m.payload ?? undefined, 'subject') ?? '',
      from: header(m.payload ?? undefined, 'from') ?? '',
      threadId: m.threadId ?? '',
    });
  }
}

/** The messages a compose call's attachments are taken from (none when the arguments do not parse). */
export function forwardedFrom(args: Record<string, unknown>): string[] {
  try {
    const ids = parseCompose(args, { subjectOptional: true }).attachments.flatMap((a) =>
      a.kind === 'message' ? [a.messageId] : [],
    );
    return [...new Set(ids)];
  } catch {
    return [];
  }
}

/**
 * The draft a delete removes, on its own line: recipients first, the subject (quoted) last —
 * closing its quote mid-line, a subject could write other recipients.
 */
export function draftNamed(view: { subject?: string; to?: string }): string {
  return cardLine(
    `The draft to ${view.to ? quoted(view.to) : '(no recipient)'}, subject ${quoted(view.subject || '(no subject)')}`,
  );
}
