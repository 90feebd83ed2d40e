import { createRequire } from 'node:module';
import type AddressParser from 'nodemailer/lib/addressparser/index.js';
import type { GrantShape } from '../../tools/types.js';
import type { GoogleAccountAccess } from '../account-access.js';
import { pickAccount } from './account-pick.js';
import { str } from './context.js';
import type { DraftMemory } from './draft-view.js';
import { parseAddresses } from './compose.js';
import { parseCompose } from './send.js';
import { lowerAscii } from '../../provenance/identity.js';

/**
 * What a grant on gmail_send / gmail_create_draft reads (issue 27 item 1): the recipients as
 * parseCompose reads them — postal-mime's address parser, the very Mailbox list the composer then
 * writes into To, Cc and Bcc — across all three fields. Subject, body and attachments are content.
 * Every other argument (account, reply_to_message_id) stays as approved.
 */
const COMPOSE: GrantShape = {
  recipientArgs: ['to', 'cc', 'bcc'],
  contentArgs: ['subject', 'body', 'attachments'],
  destinations: (args) => {
    const m = parseCompose(args);
    return [...m.to, ...m.cc, ...m.bcc].map((r) => r.address);
  },
};

/**
 * gmail_send_draft (issue 33 item 2): the draft id decides the recipients — its To, Cc and Bcc as
 * the draft's own bytes hold them (format=raw: Gmail's `format=full` headers come decoded, and
 * decoding before parsing can hide one; draft-recipients.ts), read just before the checks
 * (call-content.ts) with the same address parser.
 * Only the version the call is bound to counts (`message_id`, filled in by that read:
 * CallContent.bind; sendDraft sends no other): when Airlock holds no read of that version, there
 * are no destinations to check and the call asks. `message_id` itself may differ under a grant —
 * a draft gets a new one whenever it changes — since its recipients are what is checked. A grant
 * other than a domain grant (`equals` on draft_id, say) covers a later send only while the draft
 * goes to recipients of the send the user approved (recipientsFromState;
 * main/approvals/grant-scope.ts part 3).
 */
function sendDraftShape(access: GoogleAccountAccess, drafts: DraftMemory): GrantShape {
  return {
    recipientArgs: ['draft_id'],
    contentArgs: ['message_id'],
    // The same draft id can later go to other people: a grant holds to whom the approved send went.
    recipientsFromState: true,
    destinations: (args) => {
      const account = pickAccount(access, 'gmail_send_draft', args).email;
      const id = str(args.draft_id)?.trim() ?? '';
      const version = str(args.message_id)?.trim() ?? '';
      // The headers as the draft's bytes hold them, not Gmail's decoded rendering of them
      // (draft-recipients.ts: decoding first can hide a recipient), of the version the send is bound to.
      const r = version ? drafts.recipients(account, id, version) : undefined;
      if (!r) throw new Error(`draft ${id} was not read before the check`);
      return (['to', 'cc', 'bcc'] as const).flatMap((f) => headerAddresses(f, r[f]));
    },
  };
}

/**
 * The addresses of a draft's recipient header, read by the composer's own parser and check
 * (parseAddresses: an entry it would not send to, such as a bare "-" or a name alone, throws).
 * Unlike a compose call, whose headers the composer then writes itself, a draft's headers go out
 * as they are and Gmail reads them; so a second, independent parser (nodemailer's) must read the
 * same addresses, or the header is one whose reading is in doubt and the call asks.
 */
function headerAddresses(field: string, value: string): string[] {
  const addressparser = nodemailerParser();
  const mine = parseAddresses(field, value).map((m) => m.address);
  // Compared with ASCII letters folded only, and returned as written: lower-casing a domain before
  // IDNA reads it can name another domain (identity.ts lowerAscii).
  const ours = new Set(mine.map(lowerAscii));
  const theirs = new Set(
    value.trim()
      ? addressparser(value, { flatten: true }).map((a) => lowerAscii(a.address.trim()))
      : [],
  );
  if (ours.size !== theirs.size || [...ours].some((a) => !theirs.has(a)))
    throw new Error(`the ${field} header reads differently to different parsers`);
  return mine;
}

let parser: typeof AddressParser | undefined;

/**
 * nodemailer's address parser, loaded on first use (a draft's headers are being checked), not at
 * start: Google's libraries load only once a Google tool is used (issue 2, lazy-load.test.ts).
 */
function nodemailerParser(): typeof AddressParser {
  return (parser ??= createRequire(import.meta.url)(
    'nodemailer/lib/addressparser/index.js',
  ) as typeof AddressParser);
}

export function gmailGrantShape(
  tool: string,
  deps?: { access: GoogleAccountAccess; drafts: DraftMemory },
): GrantShape | undefined {
  if (tool === 'gmail_send' || tool === 'gmail_create_draft') return COMPOSE;
  if (tool === 'gmail_send_draft' && deps) return sendDraftShape(deps.access, deps.drafts);
  return undefined;
}
