import type { CallToolResult } from '../../tools/types.js';
import type { SeenMessages } from './cache.js';
import { BadInput } from './compose.js';
import { strings, type GmailCallContext } from './context.js';
import { cardLine, quoted, quotedId } from '../card-text.js';

export const MAX_MESSAGES_PER_CHANGE = 100;

/** gmail_list_labels: system and user labels with their ids. */
export async function listLabels(ctx: GmailCallContext): Promise<CallToolResult> {
  const labels = await ctx.labels.list(ctx.client, true);
  const system = labels.filter((l) => l.type === 'system').map((l) => l.name);
  const user = labels.filter((l) => l.type !== 'system').map((l) => `${l.name} (id ${l.id})`);
  const text = [
    `Labels in ${ctx.client.account}:`,
    `User labels (${user.length}): ${user.join(', ') || 'none'}`,
    `System labels: ${system.join(', ')}`,
    'Use label names with gmail_modify_labels; in gmail_search write label:name.',
  ].join('\n');
  return { content: [{ type: 'text', text }] };
}

/** The ids a change acts on (trimmed, each once); the card reads them with this too. */
export function messageIds(args: Record<string, unknown>): string[] {
  const ids = [...new Set(strings(args.message_ids).map((s) => s.trim()))];
  if (ids.length === 0)
    throw new BadInput('message_ids: give at least one message id (from gmail_search).');
  if (ids.length > MAX_MESSAGES_PER_CHANGE)
    throw new BadInput(`message_ids: at most ${MAX_MESSAGES_PER_CHANGE} messages per call.`);
  return ids;
}

async function batchModify(
  ctx: GmailCallContext,
  ids: string[],
  add: string[],
  remove: string[],
): Promise<void> {
  // Worded so a 404 reads "Gmail found no message with id … in alice@…" (issue 33 item 4).
  await ctx.client.write(
    ids.length === 1
      ? `message with id ${ids[0]}`
      : `message with one of the ids ${ids.join(', ')}`,
    (api, opts) =>
      api.users.messages.batchModify(
        { userId: 'me', requestBody: { ids, addLabelIds: add, removeLabelIds: remove } },
        opts,
      ),
  );
}

export async function modifyLabels(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const ids = messageIds(args);
  const addNames = strings(args.add_labels);
  const removeNames = strings(args.remove_labels);
  if (addNames.length + removeNames.length === 0)
    throw new BadInput('Give add_labels, remove_labels or both.');
  if (addNames.some((n) => n.trim().toUpperCase() === 'TRASH'))
    throw new BadInput('Use gmail_trash to move messages to the Trash.');
  const [add, remove] = [
    await ctx.labels.resolve(ctx.client, addNames),
    await ctx.labels.resolve(ctx.client, removeNames),
  ];
  await batchModify(ctx, ids, add, remove);
  const parts = [
    addNames.length ? `added ${addNames.join(', ')}` : '',
    removeNames.length ? `removed ${removeNames.join(', ')}` : '',
  ].filter(Boolean);
  return {
    content: [
      {
        type: 'text',
        text: `On ${ids.length} message${ids.length === 1 ? '' : 's'}: ${parts.join('; ')}.`,
      },
    ],
  };
}

export async function archive(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const ids = messageIds(args);
  await batchModify(ctx, ids, [], ['INBOX']);
  return {
    content: [
      {
        type: 'text',
        text: `Archived ${ids.length} message${ids.length === 1 ? '' : 's'} (removed from the Inbox; still in All Mail).`,
      },
    ],
  };
}

/** Trash, never delete: permanent deletion needs the full mail.google.com scope Airlock does not ask for. */
export async function trash(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const ids = messageIds(args);
  const pool = ctx.pool();
  const outcomes = await pool.map(ids, async (id) => {
    try {
      await ctx.client.write(`message with id ${id}`, (api, opts) =>
        api.users.messages.trash({ userId: 'me', id }, opts),
      );
      return { id, ok: true as const };
    } catch (err) {
      return { id, ok: false as const, error: (err as Error).message };
    }
  });
  const done = outcomes.filter((o) => o.ok).length;
  const failed = outcomes.filter((o) => !o.ok);
  const lines = [
    `Moved ${done} of ${ids.length} message${ids.length === 1 ? '' : 's'} to the Trash (Gmail deletes them for good after 30 days).`,
  ];
  for (const f of failed) lines.push(`- ${f.id}: ${'error' in f ? f.error : ''}`);
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    ...(done === 0 ? { isError: true } : {}),
  };
}

/** The agent's label names, quoted as every card value is: bare, "x; remove INBOX" wrote the change. */
const labelsShown = (v: unknown) => strings(v).map(quoted).join(', ');

function messagesLine(account: string, ids: string[], seen: SeenMessages): string {
  const shown = ids.slice(0, 10).map((id) => {
    const m = seen.get(account, id);
    // A stranger wrote the subject and the name: one line each, so no line names a message the
    // change does not touch (card-text.ts); the id the change acts on first and the quoted
    // subject last, so a subject closing its quote cannot write another message's id.
    return cardLine(
      m
        ? `- message ${quotedId(id)} from ${quoted(m.from)}, subject ${quoted(m.subject || '(no subject)')}`
        : `- message ${quotedId(id)}`,
    );
  });
  if (ids.length > 10) shown.push(`- … and ${ids.length - 10} more`);
  return shown.join('\n');
}

export function describeModify(
  tool: string,
  account: string,
  args: Record<string, unknown>,
  seen: SeenMessages,
): string {
  // The ids as the change reads them (messageIds: trimmed, each once), so the card counts and
  // names the messages it acts on — " 18f…" is message 18f…, whose subject Airlock may know.
  let ids: string[];
  try {
    ids = messageIds(args);
  } catch (err) {
    return `${tool} in ${account} — this call will FAIL and change nothing: ${(err as Error).message}`;
  }
  const n = `${ids.length} message${ids.length === 1 ? '' : 's'}`;
  const head =
    tool === 'gmail_trash'
      ? `Move ${n} in ${account} to the Trash (recoverable for 30 days):`
      : tool === 'gmail_archive'
        ? `Archive ${n} in ${account} (remove from the Inbox):`
        : `Change labels on ${n} in ${account}: ${[strings(args.add_labels).length ? `add ${labelsShown(args.add_labels)}` : '', strings(args.remove_labels).length ? `remove ${labelsShown(args.remove_labels)}` : ''].filter(Boolean).join('; ')}`;
  return `${cardLine(head)}\n${messagesLine(account, ids, seen)}`;
}
