import type { JsonSchema, ToolAnnotations } from '../../tools/types.js';
import { spanningAccountProp } from '../spanning.js';
import { MAX_RECIPIENTS } from './compose.js';
import { MAX_ATTACHMENTS } from './outgoing-attachments.js';
import { MAX_MESSAGES_PER_CHANGE } from './modify.js';
import { MAX_CHARS } from './read.js';

/** Schema pieces the Gmail tool definitions share (tools.ts, draft-tools.ts, label-tools.ts). */

export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

export function accountProp(emails: string[]): JsonSchema {
  return {
    type: 'string',
    enum: emails,
    description: `The Google account to use. Default: ${emails[0]}.`,
  };
}

export function schema(
  properties: Record<string, JsonSchema>,
  required: string[],
  emails: string[],
  spanning = false,
): JsonSchema {
  return {
    type: 'object',
    properties: {
      ...properties,
      account: spanning
        ? spanningAccountProp(
            emails,
            'results merged newest first, each naming its account; max_results applies to each',
          )
        : accountProp(emails),
    },
    required,
    additionalProperties: false,
  };
}

export const page = (fallback: number): Record<string, JsonSchema> => ({
  max_chars: {
    type: 'integer',
    minimum: 200,
    maximum: MAX_CHARS,
    default: fallback,
    description: `Most characters of text to return (default ${fallback}).`,
  },
  offset: {
    type: 'integer',
    minimum: 0,
    default: 0,
    description: 'Where to start in the text; a cut result names the offset to continue from.',
  },
});

export const addresses = (what: string): JsonSchema => ({
  type: 'array',
  items: { type: 'string' },
  maxItems: MAX_RECIPIENTS,
  description: `${what}: e-mail addresses, each "name@example.com" or "Name <name@example.com>".`,
});

export const messageIds: JsonSchema = {
  type: 'array',
  items: { type: 'string', minLength: 1 },
  minItems: 1,
  maxItems: MAX_MESSAGES_PER_CHANGE,
  description: 'Message ids from gmail_search.',
};

export function composeProps(): Record<string, JsonSchema> {
  return {
    to: { ...addresses('Recipients'), minItems: 1 },
    cc: addresses('Cc recipients'),
    bcc: addresses('Bcc recipients (hidden from the others)'),
    subject: {
      type: 'string',
      maxLength: 998,
      description: 'Subject. For a reply it may be left out: it becomes "Re: <original subject>".',
    },
    body: {
      type: 'string',
      description:
        'The message as plain text. Airlock also sends an HTML version of it (paragraphs and links).',
    },
    reply_to_message_id: {
      type: 'string',
      description:
        'To reply: the id of the message being answered. The reply stays in its thread (threadId, In-Reply-To, References, "Re:").',
    },
    attachments: attachmentsProp,
  };
}

/** Files to attach (outgoing-attachments.ts): from a message of this account, or given inline. Never a local path or a link. */
const attachmentsProp: JsonSchema = {
  type: 'array',
  maxItems: MAX_ATTACHMENTS,
  description: `Files to attach, at most ${MAX_ATTACHMENTS}; the message with its attachments must stay under 25 MB (Gmail's limit; attachments grow by a third when encoded). Each is either a file attached to a message in this account ({ message_id, filename }, or { message_id, attachment_id }: its name and type are taken from that message) or a file given inline ({ filename, mime_type, content_base64 }). Inline files travel in the request, which Airlock takes up to 4 MiB by default: to send on a file received by mail, name its message. Local files and links are not accepted.`,
  items: {
    anyOf: [
      {
        type: 'object',
        properties: {
          message_id: {
            type: 'string',
            minLength: 1,
            description: 'The message the file is attached to (from gmail_search or gmail_read).',
          },
          filename: {
            type: 'string',
            minLength: 1,
            description: "The attachment's file name in that message.",
          },
        },
        required: ['message_id', 'filename'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          message_id: {
            type: 'string',
            minLength: 1,
            description: 'The message the file is attached to.',
          },
          attachment_id: {
            type: 'string',
            minLength: 1,
            maxLength: 4096,
            description:
              "Gmail's attachment id of the file in that message (a filename is simpler: Gmail's ids change between reads).",
          },
        },
        required: ['message_id', 'attachment_id'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          filename: {
            type: 'string',
            minLength: 1,
            maxLength: 255,
            description: 'File name, without any folder (e.g. "report.pdf").',
          },
          mime_type: {
            type: 'string',
            description: 'Media type, e.g. "application/pdf", "text/csv".',
          },
          content_base64: {
            type: 'string',
            description: 'The file, base64 (RFC 4648 §4, padded, no line breaks).',
          },
        },
        required: ['filename', 'mime_type', 'content_base64'],
        additionalProperties: false,
      },
    ],
  },
};
