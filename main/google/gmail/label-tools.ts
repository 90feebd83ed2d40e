import type { JsonSchema, ToolDefinition } from '../../tools/types.js';
import { READ, schema } from './tool-schema.js';

/** Label and filter tools that change the mailbox's settings (issue 33 item 3). */
export const SETTINGS_WRITE_TOOLS = [
  'gmail_create_label',
  'gmail_rename_label',
  'gmail_delete_label',
  'gmail_create_filter',
  'gmail_delete_filter',
];

/** Tools that need the gmail.settings.basic scope (users.settings.filters.create/delete). */
export const FILTER_WRITE_TOOLS = new Set(['gmail_create_filter', 'gmail_delete_filter']);

const labelName = (what: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: 225,
  description: `${what} Use "/" to nest, e.g. "Receipts/2024".`,
});

const existing: JsonSchema = {
  type: 'string',
  minLength: 1,
  description: 'The label, by name or id (see gmail_list_labels). System labels cannot be changed.',
};

const flag = (description: string): JsonSchema => ({ type: 'boolean', description });

export function filterReadTools(all: string[]): ToolDefinition[] {
  return [
    {
      name: 'gmail_list_filters',
      title: 'List Gmail filters',
      description:
        "Lists the Gmail filters of the user's account: for each its id, which mail it matches and what it does (labels, archive, forward, trash). Read-only.",
      inputSchema: schema({}, [], all),
      annotations: READ,
      trustedReadOnly: true,
    },
  ];
}

export function settingsWriteTools(writable: string[]): ToolDefinition[] {
  const change = (destructive: boolean) => ({
    readOnlyHint: false,
    destructiveHint: destructive,
    idempotentHint: false,
    openWorldHint: false,
  });
  return [
    {
      name: 'gmail_create_label',
      title: 'Create a Gmail label',
      description: 'Creates a new label in Gmail. Asks the user first.',
      inputSchema: schema({ name: labelName("The new label's name.") }, ['name'], writable),
      annotations: change(false),
    },
    {
      name: 'gmail_rename_label',
      title: 'Rename a Gmail label',
      description:
        "Renames one of the user's own labels; its messages keep it under the new name. Asks the user first.",
      inputSchema: schema(
        { label: existing, new_name: labelName('The new name.') },
        ['label', 'new_name'],
        writable,
      ),
      annotations: change(false),
    },
    {
      name: 'gmail_delete_label',
      title: 'Delete a Gmail label',
      description:
        "Deletes one of the user's own labels: it is taken off every message that has it (the messages stay). Asks the user first.",
      inputSchema: schema({ label: existing }, ['label'], writable),
      annotations: change(true),
    },
    {
      name: 'gmail_create_filter',
      title: 'Create a Gmail filter',
      description:
        'Creates a Gmail filter: a standing rule Gmail applies to every new message that matches, without asking anyone (mail already there is not changed). Give at least one criterion and one action. A filter that forwards or trashes mail always asks the user, whatever the settings.',
      inputSchema: schema(
        {
          from: { type: 'string', description: 'Sender address or part of it.' },
          to: { type: 'string', description: 'Recipient address or part of it.' },
          subject: { type: 'string', description: 'Words in the subject.' },
          query: { type: 'string', description: 'Gmail search query the mail must match.' },
          negated_query: { type: 'string', description: 'Gmail search query it must not match.' },
          has_attachment: flag('Only mail with an attachment.'),
          add_labels: {
            type: 'array',
            items: { type: 'string' },
            description: 'Label names to add (see gmail_list_labels).',
          },
          remove_labels: {
            type: 'array',
            items: { type: 'string' },
            description: 'Label names to remove.',
          },
          archive: flag('Skip the Inbox (archive).'),
          mark_read: flag('Mark as read.'),
          star: flag('Star it.'),
          mark_important: flag('Mark it as important.'),
          never_spam: flag('Never send it to Spam.'),
          trash: flag('Move it to the Trash (Gmail deletes it for good after 30 days).'),
          forward_to: {
            type: 'string',
            description:
              "Forward it to this address. Gmail only forwards to an address the user has added and verified under Gmail's Forwarding settings.",
          },
        },
        [],
        writable,
      ),
      annotations: change(true),
    },
    {
      name: 'gmail_delete_filter',
      title: 'Delete a Gmail filter',
      description:
        'Deletes a Gmail filter (see gmail_list_filters); mail it already handled stays as it is. Asks the user first.',
      inputSchema: schema(
        {
          filter_id: {
            type: 'string',
            minLength: 1,
            description: 'The filter id from gmail_list_filters.',
          },
        },
        ['filter_id'],
        writable,
      ),
      annotations: change(true),
    },
  ];
}
