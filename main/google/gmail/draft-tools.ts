import type { JsonSchema, ToolDefinition } from '../../tools/types.js';
import { READ_DEFAULT_CHARS } from './read.js';
import { SEARCH_DEFAULT, SEARCH_MAX } from './search.js';
import { composeProps, page, READ, schema } from './tool-schema.js';

/** The draft tools that change or send mail (issue 33 item 1). */
export const DRAFT_WRITE_TOOLS = ['gmail_update_draft', 'gmail_send_draft', 'gmail_delete_draft'];

const draftId: JsonSchema = {
  type: 'string',
  minLength: 1,
  description: 'The draft id (e.g. "r-123…") from gmail_list_drafts or gmail_create_draft.',
};

/**
 * The version of a draft a send is bound to (drafts.ts sendDraft). Airlock fills it in with the
 * version its checks read, so an approved send goes out only as its card showed it
 * (CallContent.bind, call-content.ts); an agent may not (tool-handlers.ts ARG_CHECKS). In the
 * schema so that the user may keep it when editing an approval's arguments.
 */
const draftVersion: JsonSchema = {
  type: 'string',
  minLength: 1,
  description:
    'Filled in by Airlock, not by the agent (a call that gives it is refused): the version of the draft (its message id) Airlock checked and showed the user. A draft changed since is not sent.',
};

/** gmail_list_drafts and gmail_get_draft, for every account. */
export function draftReadTools(all: string[]): ToolDefinition[] {
  return [
    {
      name: 'gmail_list_drafts',
      title: 'List Gmail drafts',
      description:
        "Lists the drafts in the user's Gmail, newest first: draft id, recipients, subject, date, snippet and attachment names. Optionally filtered with Gmail's search syntax. Read-only. Read one with gmail_get_draft.",
      inputSchema: schema(
        {
          query: {
            type: 'string',
            description: 'Gmail search query to filter the drafts (e.g. `to:carol subject:plan`).',
          },
          max_results: {
            type: 'integer',
            minimum: 1,
            maximum: SEARCH_MAX,
            default: SEARCH_DEFAULT,
            description: `How many drafts (1–${SEARCH_MAX}, default ${SEARCH_DEFAULT}).`,
          },
          page_token: {
            type: 'string',
            description: 'The page_token a previous call returned, for the next page.',
          },
        },
        [],
        all,
        true,
      ),
      annotations: READ,
      trustedReadOnly: true,
    },
    {
      name: 'gmail_get_draft',
      title: 'Read a Gmail draft',
      description:
        'Reads one draft as it would go out: from, to, cc, bcc, subject, the thread it replies in, its text and its attachments. Long texts come in parts: call again with the offset the result names. Read-only.',
      inputSchema: schema({ draft_id: draftId, ...page(READ_DEFAULT_CHARS) }, ['draft_id'], all),
      annotations: READ,
      trustedReadOnly: true,
    },
  ];
}

/** gmail_update_draft, gmail_send_draft, gmail_delete_draft, for accounts that may write. */
export function draftWriteTools(writable: string[]): ToolDefinition[] {
  const compose = composeProps();
  return [
    {
      name: 'gmail_update_draft',
      title: 'Change a Gmail draft',
      description:
        'Replaces the recipients, text and attachments of an existing draft (Gmail replaces a draft whole: give the complete message; attachments not given again are removed). The subject stays unless given; a draft that replies in a thread stays in it unless reply_to_message_id names another message. Nothing is sent. Asks the user first.',
      inputSchema: schema(
        {
          draft_id: draftId,
          ...compose,
          subject: {
            ...compose.subject,
            description: 'New subject. Left out: the draft keeps its subject.',
          },
        },
        ['draft_id', 'to', 'body'],
        writable,
      ),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      name: 'gmail_send_draft',
      title: 'Send a Gmail draft',
      description:
        'Sends an existing draft, as it is, to the recipients in its To, Cc and Bcc. The user is asked first and sees the draft as it will go out. Sending cannot be undone: the recipients see it immediately',
      inputSchema: schema({ draft_id: draftId, message_id: draftVersion }, ['draft_id'], writable),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    {
      name: 'gmail_delete_draft',
      title: 'Delete a Gmail draft',
      description:
        'Deletes a draft for good (Gmail does not keep deleted drafts in the Trash). Asks the user first.',
      inputSchema: schema({ draft_id: draftId }, ['draft_id'], writable),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
  ];
}
