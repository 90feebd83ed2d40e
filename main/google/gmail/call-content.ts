import type { CallContent } from '../../tools/types.js';
import type { GoogleAccountAccess } from '../account-access.js';
import { resolvePick } from './attachment-pick.js';
import { pickAccount } from './account-pick.js';
import type { Recent } from './cache.js';
import { GmailClient, type RetryPolicy } from './client.js';
import { str } from './context.js';
import { fetchDraftRecipients, type DraftRecipients } from './draft-recipients.js';
import { fetchDraft, type DraftMemory } from './draft-view.js';
import { gmailEffect } from './call-effect.js';
import { filterCallContent } from './filters.js';
import { attachmentSource, type AttachmentSource } from './outgoing-attachments.js';
import { addressesOf, mailItem } from './provenance.js';
import { parseCompose } from './send.js';

export interface CallContentDeps {
  access: GoogleAccountAccess;
  drafts: DraftMemory;
  attachmentSources: Recent<AttachmentSource>;
  retry: RetryPolicy;
}

const COMPOSE = new Set(['gmail_send', 'gmail_create_draft', 'gmail_update_draft']);

/**
 * What a Gmail write sends beyond its arguments (ToolSource.callContent, issue 33 item 2), read
 * before the taint check and a grant decide:
 * - gmail_send_draft: the draft as it is now — its To, Cc, Bcc, subject and text become the
 *   arguments the taint check reads, and the call is bound to this version (`message_id`,
 *   CallContent.bind): the one a grant checks (grant-shape.ts), the approval shows, and the only
 *   one sendDraft will send (drafts.ts);
 * - a compose call's attachments: each file taken from a message, described as that message's
 *   attachment (its sender, who already has it), and the digest of each inline file (the bytes
 *   gmail_get_attachment handed over are indexed under it, attachment-file.ts);
 * - gmail_create_filter: its forwarding address, the only place it sends to, and the criteria it
 *   acts on, as parseFilter reads them (filters.ts filterCallContent);
 * - what a call destroys, hides or answers for the user (a trash, an archive, a filter that
 *   trashes or marks read): CallContent.effect (call-effect.ts).
 */
export async function gmailCallContent(
  d: CallContentDeps,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallContent | null> {
  if (tool === 'gmail_create_filter') return filterReach(args);
  const effect = gmailEffect(tool, args);
  if (tool !== 'gmail_send_draft' && !COMPOSE.has(tool)) return effect ? { effect } : null;
  // A compose call's reach, with what it destroys (gmail_update_draft replaces the draft whole).
  const reach = await composeReach(d, tool, args, signal);
  return effect ? { ...reach, effect } : reach;
}

/** What a compose call or a draft's send reaches beyond its arguments (gmailCallContent). */
async function composeReach(
  d: CallContentDeps,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallContent | null> {
  const account = pickAccount(d.access, tool, args).email;
  const client = new GmailClient(d.access, account, d.retry, signal);
  if (tool === 'gmail_send_draft') {
    const id = str(args.draft_id)?.trim();
    if (!id) return null;
    const v = await fetchDraft(client, id);
    // The recipients as the draft's bytes hold them, for the grant (draft-recipients.ts). Not
    // readable, or of another version than `v`: none are kept, and a grant does not cover it.
    let r: DraftRecipients | undefined;
    try {
      r = await fetchDraftRecipients(client, id);
    } catch {
      r = undefined;
    }
    if (r?.messageId !== v.messageId) r = undefined;
    d.drafts.remember(account, v);
    if (r) d.drafts.rememberRecipients(account, id, r);
    // The call is bound to this version (CallContent.bind): its grant reads this version's
    // recipients, its card shows it, and sendDraft sends nothing else (an agent cannot name a
    // version itself: validateArgs).
    return {
      bind: { message_id: v.messageId },
      args: {
        ...args,
        // Both readings, so the taint check sees every address either finds.
        to: both(v.to, r?.to),
        cc: both(v.cc, r?.cc),
        bcc: both(v.bcc, r?.bcc),
        subject: v.subject,
        body: v.body.text,
      },
    };
  }
  let specs;
  try {
    specs = parseCompose(args, { subjectOptional: true }).attachments;
  } catch {
    return null; // The call is refused before it runs.
  }
  if (specs.length === 0) return null;
  const carried: Record<string, unknown>[] = [];
  const refs: string[] = [];
  let budget = TEXT_BUDGET;
  // The arguments as the check reads them: an inline file that is text is read as text (its
  // base64 hides the words from the phrase rule), the rest by name only.
  const shown = specs.map((spec) => {
    if (spec.kind !== 'inline')
      return spec.attachmentId !== undefined
        ? { message_id: spec.messageId, attachment_id: spec.attachmentId }
        : { message_id: spec.messageId, filename: spec.filename };
    const text = budget > 0 ? utf8(spec.content.subarray(0, budget)) : undefined;
    if (text !== undefined) budget -= spec.content.length;
    return {
      filename: spec.filename,
      mime_type: spec.mimeType,
      ...(text ? { content: text } : {}),
    };
  });
  for (const spec of specs) {
    if (spec.kind === 'inline') {
      refs.push(spec.digest);
      continue;
    }
    const src =
      d.attachmentSources.get(account, spec.messageId) ??
      (await attachmentSource({ client }, d.attachmentSources, spec.messageId));
    const { att } = await resolvePick(client, src, spec);
    carried.push({ ...mailItem(src.message, '', { attachment: att.filename }) });
  }
  return {
    args: { ...args, attachments: shown },
    ...(carried.length ? { carried } : {}),
    ...(refs.length ? { refs } : {}),
  };
}

/**
 * A filter's reach (filters.ts filterCallContent) and what it does to the user's mail from now on
 * (call-effect.ts): null when parseFilter refuses it (validateArgs refuses the call first).
 */
export function filterReach(args: Record<string, unknown>): CallContent | null {
  const reach = filterCallContent(args);
  const effect = gmailEffect('gmail_create_filter', args);
  return reach && effect ? { ...reach, effect } : reach;
}

/**
 * What a call reaches read from its arguments alone (ToolSource.argsReach): a filter's, and the
 * effect of any call that has one.
 */
export function gmailArgsReach(tool: string, args: Record<string, unknown>): CallContent | null {
  if (tool === 'gmail_create_filter') return filterReach(args);
  const effect = gmailEffect(tool, args);
  return effect ? { effect } : null;
}

/** The addresses of a header read decoded (Gmail's rendering) and as the bytes hold it. */
const both = (decoded: string, raw: string | undefined) => [...new Set(addressesOf(decoded, raw))];

/** How much inline text one call's check reads (the check is synchronous, on the call's path). */
const TEXT_BUDGET = 256 * 1024;

/** The bytes as text when they are UTF-8 (a cut at the budget may end mid-character: allowed). */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return undefined;
  }
}
