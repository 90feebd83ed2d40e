import type { GrantShape } from '../../tools/types.js';
import { parseCompose } from './send.js';

/**
 * What a grant on gmail_send / gmail_create_draft reads (issue 27 item 1): the recipients as
 * parseCompose reads them — postal-mime's address parser, the very Mailbox list the composer then
 * writes into To, Cc and Bcc — across all three fields. Subject and body are content. Every other
 * argument (account, reply_to_message_id) stays as approved.
 */
const COMPOSE: GrantShape = {
  recipientArgs: ['to', 'cc', 'bcc'],
  contentArgs: ['subject', 'body'],
  destinations: (args) => {
    const m = parseCompose(args);
    return [...m.to, ...m.cc, ...m.bcc].map((r) => r.address);
  },
};

export function gmailGrantShape(tool: string): GrantShape | undefined {
  return tool === 'gmail_send' || tool === 'gmail_create_draft' ? COMPOSE : undefined;
}
