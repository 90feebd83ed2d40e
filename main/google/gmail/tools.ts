import type { ToolDefinition } from '../../tools/types.js';
import type { GoogleAccountInfo } from '../account-access.js';
import { ATTACHMENT_DEFAULT_CHARS } from './attachment.js';
import { DRAFT_WRITE_TOOLS, draftReadTools, draftWriteTools } from './draft-tools.js';
import { filterReadTools, SETTINGS_WRITE_TOOLS, settingsWriteTools } from './label-tools.js';
import { READ_DEFAULT_CHARS, THREAD_DEFAULT_CHARS } from './read.js';
import { SEARCH_DEFAULT, SEARCH_MAX } from './search.js';
import { composeProps, messageIds, page, READ, schema } from './tool-schema.js';

/** Tools that change or send mail: asked about by default and never offered for read-only accounts. */
export const WRITE_TOOLS = new Set([
  'gmail_create_draft',
  'gmail_send',
  'gmail_modify_labels',
  'gmail_archive',
  'gmail_trash',
  ...DRAFT_WRITE_TOOLS,
  ...SETTINGS_WRITE_TOOLS,
]);

/** The Gmail tools for these accounts; read-only accounts get no write tools. */
export function toolDefinitions(accounts: readonly GoogleAccountInfo[]): ToolDefinition[] {
  const all = accounts.map((a) => a.email);
  const writable = accounts.filter((a) => !a.readOnly).map((a) => a.email);
  if (all.length === 0) return [];
  const defs: ToolDefinition[] = [
    {
      name: 'gmail_search',
      title: 'Search Gmail',
      description:
        "Searches the user's Gmail with Gmail's search syntax (e.g. `from:amazon.com newer_than:30d`, `has:attachment filename:pdf`, `in:inbox is:unread`) and lists the matching messages, newest first: id, thread id, from, to, subject, date, snippet, labels and attachment file names. Read-only. Read a message with gmail_read.",
      inputSchema: schema(
        {
          query: {
            type: 'string',
            description:
              'Gmail search query, as typed in the Gmail search box. Empty lists the newest mail.',
          },
          max_results: {
            type: 'integer',
            minimum: 1,
            maximum: SEARCH_MAX,
            default: SEARCH_DEFAULT,
            description: `How many messages (1–${SEARCH_MAX}, default ${SEARCH_DEFAULT}).`,
          },
          page_token: {
            type: 'string',
            description: 'The page_token a previous search returned, for the next page.',
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
      name: 'gmail_read',
      title: 'Read an email',
      description:
        'Reads one email: its headers, its body as plain text (HTML-only mail is converted to markdown, keeping links and tables) and its attachments by file name, type and size. Long bodies come in parts: call again with the offset the result names. Read-only.',
      inputSchema: schema(
        {
          message_id: {
            type: 'string',
            minLength: 1,
            description: 'The message id from gmail_search.',
          },
          ...page(READ_DEFAULT_CHARS),
        },
        ['message_id'],
        all,
      ),
      annotations: READ,
      trustedReadOnly: true,
    },
    {
      name: 'gmail_read_thread',
      title: 'Read an email conversation',
      description:
        'Reads a whole conversation (thread), oldest message first, each with sender, recipients, date and body as text; quoted earlier messages are trimmed from replies. Long threads come in parts: call again with the offset the result names. Read-only.',
      inputSchema: schema(
        {
          thread_id: {
            type: 'string',
            minLength: 1,
            description: 'The thread id from gmail_search or gmail_read.',
          },
          ...page(THREAD_DEFAULT_CHARS),
        },
        ['thread_id'],
        all,
      ),
      annotations: READ,
      trustedReadOnly: true,
    },
    {
      name: 'gmail_read_attachment',
      title: 'Read an email attachment',
      description:
        "Reads the text of an email attachment, named by its file name as gmail_read lists it (no attachment id needed). Extracts text from PDF, Word (.docx), plain-text, CSV, HTML and attached e-mails; for other files it gives the file's type and size and says it cannot extract them. Read-only.",
      inputSchema: schema(
        {
          message_id: {
            type: 'string',
            minLength: 1,
            description: 'The id of the message that has the attachment.',
          },
          filename: {
            type: 'string',
            minLength: 1,
            description: 'The attachment\'s file name, e.g. "invoice.pdf".',
          },
          ...page(ATTACHMENT_DEFAULT_CHARS),
        },
        ['message_id', 'filename'],
        all,
      ),
      annotations: READ,
      trustedReadOnly: true,
    },
    {
      name: 'gmail_get_attachment',
      title: 'Get an email attachment file',
      description:
        "Returns an email attachment's file itself, named by its file name as gmail_read lists it: images (PNG, JPEG, GIF, WebP) as image content, other files as an embedded resource (base64), up to 5 MB. For the text of a PDF, Word or text file use gmail_read_attachment. Read-only.",
      inputSchema: schema(
        {
          message_id: {
            type: 'string',
            minLength: 1,
            description: 'The id of the message that has the attachment.',
          },
          filename: {
            type: 'string',
            minLength: 1,
            description: 'The attachment\'s file name, e.g. "photo.jpg".',
          },
        },
        ['message_id', 'filename'],
        all,
      ),
      annotations: READ,
      trustedReadOnly: true,
    },
    {
      name: 'gmail_list_labels',
      title: 'List Gmail labels',
      description:
        "Lists the labels of the user's Gmail (system labels such as INBOX, STARRED, and the user's own labels). Read-only.",
      inputSchema: schema({}, [], all),
      annotations: READ,
      trustedReadOnly: true,
    },
    ...draftReadTools(all),
    ...filterReadTools(all),
  ];
  if (writable.length === 0) return defs;
  defs.push(
    {
      name: 'gmail_create_draft',
      title: 'Create an email draft',
      description:
        "Saves an email as a draft in the user's Gmail without sending it; the user can review and send it from Gmail. Same fields as gmail_send, including replies in a thread. Asks the user before saving.",
      inputSchema: schema(composeProps(), ['to', 'body'], writable),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    {
      name: 'gmail_send',
      title: 'Send an email',
      description:
        "Sends an email from the user's Gmail account, as plain text with an HTML version. To reply in a conversation, pass reply_to_message_id (the reply keeps the thread). Files can be attached from a message in this account or given as base64 (attachments). The user is asked first and sees the exact message. Sending cannot be undone: the recipient sees it immediately",
      inputSchema: schema(composeProps(), ['to', 'body'], writable),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    {
      name: 'gmail_modify_labels',
      title: 'Change Gmail labels',
      description:
        'Adds and/or removes labels on messages, by label name (see gmail_list_labels), e.g. add STARRED, remove UNREAD to mark as read. Labels are created with gmail_create_label. Asks the user first.',
      inputSchema: schema(
        {
          message_ids: messageIds,
          add_labels: {
            type: 'array',
            items: { type: 'string' },
            description: 'Label names to add.',
          },
          remove_labels: {
            type: 'array',
            items: { type: 'string' },
            description: 'Label names to remove.',
          },
        },
        ['message_ids'],
        writable,
      ),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      name: 'gmail_archive',
      title: 'Archive emails',
      description:
        'Archives messages: removes them from the Inbox; they stay in All Mail and in search. Asks the user first.',
      inputSchema: schema({ message_ids: messageIds }, ['message_ids'], writable),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      name: 'gmail_trash',
      title: 'Move emails to the Trash',
      description:
        'Moves messages to the Trash, where Gmail keeps them 30 days before deleting them for good (Airlock never deletes permanently). Asks the user first.',
      inputSchema: schema({ message_ids: messageIds }, ['message_ids'], writable),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    ...draftWriteTools(writable),
    ...settingsWriteTools(writable),
  );
  return defs;
}
