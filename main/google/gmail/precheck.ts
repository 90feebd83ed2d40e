import type { gmail_v1 } from '@googleapis/gmail';
import { GoogleToolError, type GoogleAccountAccess } from '../account-access.js';
import { pickAccount, scopeProblem } from './account-pick.js';
import type { Recent, SeenMessages } from './cache.js';
import { GmailClient, type RetryPolicy } from './client.js';
import { BadInput } from './compose.js';
import { str, strings } from './context.js';
import { fetchDraft, hasRecipients, type DraftMemory } from './draft-view.js';
import { isMissing, noSuchMessages } from './errors.js';
import { fetchFilter, parseFilter, type Filter } from './filters.js';
import { labelNameArg, nameFree, userLabel } from './label-admin.js';
import type { LabelDirectory } from './labels.js';
import { header } from './payload.js';
import { resolvePick } from './attachment-pick.js';
import { forwardedFrom } from './effects.js';
import { attachmentSource, type AttachmentSource } from './outgoing-attachments.js';
import { parseCompose } from './send.js';
import { canonicalHost } from '../../provenance/identity.js';

export interface PrecheckDeps {
  access: GoogleAccountAccess;
  seen: SeenMessages;
  drafts: DraftMemory;
  labels: LabelDirectory;
  filters: Recent<Filter>;
  attachmentSources: Recent<AttachmentSource>;
  retry: RetryPolicy;
}

const REPLYING = new Set(['gmail_send', 'gmail_create_draft', 'gmail_update_draft']);
const BY_MESSAGE = new Set(['gmail_modify_labels', 'gmail_archive', 'gmail_trash']);
const BY_DRAFT = new Set(['gmail_update_draft', 'gmail_send_draft', 'gmail_delete_draft']);

/**
 * What a read can settle before the user is asked (issue 33 item 4): the
 * account exists and may write, the messages, draft and labels named exist,
 * a draft to send has a recipient. Resolves to the refusal, or null. Only
 * definite answers refuse — a 404, an id Gmail cannot parse, a label that is
 * not there; a rate limit or a network error leaves the call to the approval
 * and to call(), which report it themselves. What it reads is remembered, so
 * the approval text that follows shows subjects and the draft without asking again.
 */
export async function gmailPrecheck(
  d: PrecheckDeps,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<string | null> {
  let account: string;
  try {
    const info = pickAccount(d.access, tool, args);
    const lacking = scopeProblem(info, tool);
    if (lacking) return lacking;
    account = info.email;
  } catch (err) {
    return err instanceof GoogleToolError ? err.message : null;
  }
  const client = new GmailClient(d.access, account, d.retry, signal);
  try {
    const problems = await Promise.all([
      REPLYING.has(tool) ? replyTarget(d, client, args) : null,
      REPLYING.has(tool) ? attachmentsExist(d, client, args) : null,
      BY_MESSAGE.has(tool) ? messagesExist(d, client, args) : null,
      tool === 'gmail_modify_labels' ? labelsExist(d, client, args) : null,
      BY_DRAFT.has(tool) ? draftReady(d, client, tool, args) : null,
      settled(() => settingsReady(d, client, tool, args)),
    ]);
    return problems.find((p) => p !== null) ?? null;
  } catch {
    return null;
  }
}

async function replyTarget(
  d: PrecheckDeps,
  client: GmailClient,
  args: Record<string, unknown>,
): Promise<string | null> {
  const id = str(args.reply_to_message_id)?.trim();
  if (!id || d.seen.get(client.account, id)) return null;
  const missing = await missingMessages(d, client, [id]);
  return missing.length
    ? noSuchMessages(missing, client.account, 'the message being replied to')
    : null;
}

/**
 * Every attachment taken from a message is there: the message (one skeleton read each, remembered
 * for the card) and a part of that name in it. A 404 or an unknown name refuses.
 */
async function attachmentsExist(
  d: PrecheckDeps,
  client: GmailClient,
  args: Record<string, unknown>,
): Promise<string | null> {
  const ids = forwardedFrom(args);
  if (ids.length === 0) return null;
  const read = await Promise.all(
    ids.map((id) =>
      attachmentSource({ client }, d.attachmentSources, id).then(
        () => null,
        (err: unknown) => {
          if (isMissing(err)) return id;
          throw err;
        },
      ),
    ),
  );
  const missing = read.filter((x): x is string => x !== null);
  if (missing.length)
    return noSuchMessages(missing, client.account, 'the message an attachment is taken from');
  for (const spec of parseCompose(args, { subjectOptional: true }).attachments) {
    if (spec.kind !== 'message') continue;
    const src = d.attachmentSources.get(client.account, spec.messageId);
    if (!src) continue;
    try {
      await resolvePick(client, src, spec);
    } catch (err) {
      if (err instanceof BadInput) return err.message;
      throw err;
    }
  }
  return null;
}

async function messagesExist(
  d: PrecheckDeps,
  client: GmailClient,
  args: Record<string, unknown>,
): Promise<string | null> {
  const ids = [...new Set(strings(args.message_ids).map((s) => s.trim()))];
  const missing = await missingMessages(d, client, ids);
  return missing.length ? noSuchMessages(missing, client.account) : null;
}

/**
 * The ids Gmail has no message for, read in one batch round trip (metadata
 * only); the ones found are remembered for the approval text. A failure that
 * is not "no such message" counts as found: call() will report it.
 */
async function missingMessages(
  d: PrecheckDeps,
  client: GmailClient,
  ids: string[],
): Promise<string[]> {
  const query = 'format=metadata&metadataHeaders=Subject&metadataHeaders=From';
  const answers = await client.batch<gmail_v1.Schema$Message>(
    ids.map((id) => ({
      path: `gmail/v1/users/me/messages/${encodeURIComponent(id)}?${query}`,
      what: `message ${id}`,
    })),
  );
  const missing: string[] = [];
  answers.forEach((a, i) => {
    const id = ids[i]!;
    if (a.ok) {
      d.seen.remember(client.account, id, {
        subject: header(a.data.payload ?? undefined, 'subject') ?? '',
        from: header(a.data.payload ?? undefined, 'from') ?? '',
        threadId: a.data.threadId ?? '',
      });
    } else if (isMissing(a.error)) missing.push(id);
  });
  return missing;
}

async function labelsExist(
  d: PrecheckDeps,
  client: GmailClient,
  args: Record<string, unknown>,
): Promise<string | null> {
  try {
    await d.labels.resolve(client, [...strings(args.add_labels), ...strings(args.remove_labels)]);
    return null;
  } catch (err) {
    if (err instanceof BadInput) return err.message;
    throw err;
  }
}

async function draftReady(
  d: PrecheckDeps,
  client: GmailClient,
  tool: string,
  args: Record<string, unknown>,
): Promise<string | null> {
  const id = str(args.draft_id)?.trim();
  if (!id) return null;
  try {
    const v = await fetchDraft(client, id);
    d.drafts.remember(client.account, v);
    if (tool === 'gmail_send_draft' && !hasRecipients(v))
      return `Draft ${id} has no recipient; nothing would be sent. Add one with gmail_update_draft.`;
    if (tool === 'gmail_send_draft' && args.message_id !== undefined) {
      const bound = str(args.message_id)?.trim() ?? '';
      if (bound !== v.messageId)
        return `Draft ${id} changed after Airlock checked it (it is now message ${v.messageId}, not ${bound}); nothing would be sent. Call gmail_send_draft again so the current version is checked and shown.`;
    }
    return null;
  } catch (err) {
    if (err instanceof BadInput) return err.message;
    throw err;
  }
}

/** A BadInput from a check is its refusal; anything else goes up (and means "no finding"). */
async function settled(check: () => Promise<void>): Promise<string | null> {
  try {
    await check();
    return null;
  } catch (err) {
    if (err instanceof BadInput) return err.message;
    throw err;
  }
}

/** Labels and filters: the one named exists, a new name is free, a forwarding address is usable. */
async function settingsReady(
  d: PrecheckDeps,
  client: GmailClient,
  tool: string,
  args: Record<string, unknown>,
): Promise<void> {
  if (tool === 'gmail_create_label') await nameFree(d.labels, client, labelNameArg(args, 'name'));
  if (tool === 'gmail_rename_label' || tool === 'gmail_delete_label') {
    const label = await userLabel(d.labels, client, str(args.label) ?? '');
    if (tool === 'gmail_rename_label')
      await nameFree(d.labels, client, labelNameArg(args, 'new_name'), label.id!);
  }
  if (tool === 'gmail_delete_filter') {
    const id = str(args.filter_id)?.trim() ?? '';
    d.filters.remember(client.account, id, await fetchFilter({ client }, id));
  }
  if (tool === 'gmail_create_filter') {
    const f = parseFilter(args);
    await d.labels.resolve(client, [...f.addNames, ...f.removeNames]);
    if (f.forward) await forwardable(client, f.forward);
  }
}

/**
 * Gmail forwards only to an address the user added and verified in its
 * Forwarding settings, or (Workspace) one in the account's own domain
 * (developers.google.com/gmail/api/guides/forwarding_settings).
 */
async function forwardable(client: GmailClient, address: string): Promise<void> {
  // Each domain as mail reaches it (identity.ts canonicalHost: IDNA on the name as written).
  const domain = (a: string) => canonicalHost(a.slice(a.lastIndexOf('@') + 1));
  if (
    domain(address) === domain(client.account) &&
    !/^(gmail|googlemail)\.com$/.test(domain(address))
  )
    return;
  const list = await client.read('the forwarding addresses', (api, opts) =>
    api.users.settings.forwardingAddresses.list({ userId: 'me' }, opts),
  );
  const entry = (list.forwardingAddresses ?? []).find(
    (f) => f.forwardingEmail?.toLowerCase() === address.toLowerCase(),
  );
  if (entry?.verificationStatus === 'accepted') return;
  throw new BadInput(
    entry
      ? `${address} is still waiting for its owner to confirm it as a forwarding address of ${client.account}; Gmail cannot forward to it yet.`
      : `${address} is not a forwarding address of ${client.account}. Gmail forwards only to addresses the user adds and verifies in Gmail's settings (Forwarding and POP/IMAP).`,
  );
}
