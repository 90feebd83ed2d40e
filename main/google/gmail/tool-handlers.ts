import type { CallToolResult } from '../../tools/types.js';
import { readAttachment } from './attachment.js';
import { getAttachmentFile } from './attachment-file.js';
import type { GmailCallContext } from './context.js';
import { deleteDraft, getDraft, listDrafts, sendDraft, updateDraft } from './drafts.js';
import { createFilter, deleteFilter, listFilters, parseFilter } from './filters.js';
import { createLabel, deleteLabel, labelNameArg, renameLabel } from './label-admin.js';
import { archive, listLabels, modifyLabels, trash } from './modify.js';
import { readMessage, readThread } from './read.js';
import { search } from './search.js';
import { createDraft, parseCompose, sendMessage } from './send.js';
import { BadInput } from './compose.js';

type Handler = (ctx: GmailCallContext, args: Record<string, unknown>) => Promise<CallToolResult>;

/** What runs each Gmail tool in one account (GmailSource.call). */
export const HANDLERS: Record<string, Handler> = {
  gmail_search: search,
  gmail_read: readMessage,
  gmail_read_thread: readThread,
  gmail_read_attachment: readAttachment,
  gmail_get_attachment: getAttachmentFile,
  gmail_list_labels: listLabels,
  gmail_create_draft: createDraft,
  gmail_send: sendMessage,
  gmail_modify_labels: modifyLabels,
  gmail_archive: archive,
  gmail_trash: trash,
  gmail_list_drafts: listDrafts,
  gmail_get_draft: getDraft,
  gmail_update_draft: updateDraft,
  gmail_send_draft: sendDraft,
  gmail_delete_draft: deleteDraft,
  gmail_create_label: createLabel,
  gmail_rename_label: renameLabel,
  gmail_delete_label: deleteLabel,
  gmail_list_filters: listFilters,
  gmail_create_filter: createFilter,
  gmail_delete_filter: deleteFilter,
};

/** Checks of arguments that need no request (validateArgs): each tool's own parser. */
export const ARG_CHECKS: Record<string, (args: Record<string, unknown>) => unknown> = {
  gmail_send: (a) => parseCompose(a),
  gmail_create_draft: (a) => parseCompose(a),
  gmail_update_draft: (a) => parseCompose(a, { subjectOptional: true }),
  gmail_create_filter: parseFilter,
  gmail_send_draft: draftVersionLeftOut,
  gmail_create_label: (a) => labelNameArg(a, 'name'),
  gmail_rename_label: (a) => labelNameArg(a, 'new_name'),
};

/**
 * gmail_send_draft's `message_id` is Airlock's to fill in: the version of the draft its checks
 * read (CallContent.bind). An agent that gave one could stand in for a read that failed, and the
 * checks would have judged a draft they never saw (GmailSource.alwaysAsk).
 */
function draftVersionLeftOut(args: Record<string, unknown>): void {
  if (args.message_id !== undefined)
    throw new BadInput(
      'message_id: leave it out — Airlock fills in the version of the draft it checks and shows.',
    );
}
