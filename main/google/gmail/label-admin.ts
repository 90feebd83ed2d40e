import { cardLine, quoted } from '../card-text.js';
import type { CallToolResult } from '../../tools/types.js';
import { BadInput } from './compose.js';
import { str, type GmailCallContext } from './context.js';
import type { GmailClient } from './client.js';
import { isMissing } from './errors.js';
import type { Label, LabelDirectory } from './labels.js';

/**
 * Creating, renaming and deleting the user's own labels (issue 33 item 3) on
 * users.labels create/patch/delete
 * (developers.google.com/gmail/api/reference/rest/v1/users.labels). System
 * labels (INBOX, STARRED, …) cannot be changed: Gmail refuses, and so do we,
 * before asking.
 */

const MAX_NAME = 225; // Gmail's limit on a label name, nested parts included

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

export function labelNameArg(args: Record<string, unknown>, key: string): string {
  const name = (str(args[key]) ?? '').trim().replace(/\s*\/\s*/g, '/');
  if (!name)
    throw new BadInput(`${key}: give the label's name (use "/" to nest: "Receipts/2024").`);
  if (name.length > MAX_NAME) throw new BadInput(`${key}: at most ${MAX_NAME} characters.`);
  if (/[\r\n]/.test(name)) throw new BadInput(`${key}: a label name has no line breaks.`);
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//'))
    throw new BadInput(`${key}: "${name}" has an empty part between "/".`);
  return name;
}

/** A user label named by name or id; BadInput when there is none or it is a system label. */
export async function userLabel(
  labels: LabelDirectory,
  client: GmailClient,
  wanted: string,
): Promise<Label> {
  const hit = await labels.find(client, wanted);
  if (!hit?.id)
    throw new BadInput(
      `There is no label "${wanted}" in ${client.account}. gmail_list_labels lists the labels.`,
    );
  if (hit.type === 'system')
    throw new BadInput(
      `${hit.name} is one of Gmail's system labels: it cannot be renamed or deleted.`,
    );
  return hit;
}

/**
 * The new name must be free (Gmail compares names without regard to case), and not another
 * label's id in any case: a label named "label_5" beside the one whose id is Label_5 would make
 * "label_5" name two (matchLabel, labels.ts). Names and ids are compared here directly, not
 * through matchLabel, whose refusal of such a pair speaks of naming a label, not of choosing a name.
 */
export async function nameFree(
  labels: LabelDirectory,
  client: GmailClient,
  name: string,
  self?: string,
): Promise<void> {
  const key = name.toLowerCase();
  const others = (await labels.list(client)).filter((l) => l.id !== self);
  const named = others.find((l) => l.name?.toLowerCase() === key);
  if (named) throw new BadInput(`There is already a label "${named.name}" in ${client.account}.`);
  const asId = others.find((l) => l.id?.toLowerCase() === key);
  if (asId)
    throw new BadInput(
      `"${name}" is the id of the label "${asId.name}" in ${client.account}: a label of that name could not be told from it. Choose another name.`,
    );
}

export async function createLabel(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const name = labelNameArg(args, 'name');
  await nameFree(ctx.labels, ctx.client, name);
  const made = await ctx.client.write(`the new label "${name}"`, (api, opts) =>
    api.users.labels.create(
      {
        userId: 'me',
        requestBody: { name, labelListVisibility: 'labelShow', messageListVisibility: 'show' },
      },
      opts,
    ),
  );
  ctx.labels.invalidate(ctx.client.account);
  return text(`Created label "${made.name}" (id ${made.id}) in ${ctx.client.account}.`);
}

export async function renameLabel(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const label = await userLabel(ctx.labels, ctx.client, str(args.label) ?? '');
  const name = labelNameArg(args, 'new_name');
  await nameFree(ctx.labels, ctx.client, name, label.id!);
  await ctx.client
    .write(`label ${label.name}`, (api, opts) =>
      api.users.labels.patch({ userId: 'me', id: label.id!, requestBody: { name } }, opts),
    )
    .catch((err: unknown) => {
      throw isMissing(err) ? new BadInput(`Label "${label.name}" no longer exists.`) : err;
    });
  ctx.labels.invalidate(ctx.client.account);
  return text(`Renamed label "${label.name}" to "${name}" in ${ctx.client.account}.`);
}

export async function deleteLabel(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const label = await userLabel(ctx.labels, ctx.client, str(args.label) ?? '');
  await ctx.client
    .write(`label ${label.name}`, (api, opts) =>
      api.users.labels.delete({ userId: 'me', id: label.id! }, opts),
    )
    .catch((err: unknown) => {
      throw isMissing(err) ? new BadInput(`Label "${label.name}" no longer exists.`) : err;
    });
  ctx.labels.invalidate(ctx.client.account);
  return text(
    `Deleted label "${label.name}" from ${ctx.client.account}; its messages stay, without it.`,
  );
}

/** The label with its message count (labels.get), for the approval text. */
export async function labelWithCounts(client: GmailClient, id: string): Promise<Label> {
  return client.read(`label ${id}`, (api, opts) =>
    api.users.labels.get({ userId: 'me', id }, opts),
  );
}

function carried(l: Label | undefined): string {
  const n = l?.messagesTotal;
  return typeof n === 'number'
    ? ` (${n === 1 ? '1 message carries' : `${n} messages carry`} it)`
    : '';
}

/** The approval text of a label change; `label` is what Airlock knows of the one named. */
export function describeLabelChange(
  tool: string,
  account: string,
  args: Record<string, unknown>,
  label: Label | undefined,
): string {
  const shown = label?.name ?? str(args.label) ?? '?';
  // The new name as the change makes it (labelNameArg trims and closes up " / "). A name it
  // refuses never reaches a card (validateArgs, tool-handlers.ts ARG_CHECKS): shown as given.
  const named = (key: string) => {
    try {
      return quoted(labelNameArg(args, key));
    } catch {
      return quoted(str(args[key]) ?? '');
    }
  };
  // The names last, after the statement: a name closing its quote mid-sentence ('Receipts" to
  // "Old" in bob@example.com') wrote the rest of it; said last it adds words but changes none.
  if (tool === 'gmail_create_label')
    return cardLine(`Create a label in ${account}. Name: ${named('name')}`);
  if (tool === 'gmail_rename_label')
    return cardLine(
      `Rename a label in ${account}${carried(label)}. Label: ${quoted(shown)}. New name: ${named('new_name')}`,
    );
  const n = label?.messagesTotal;
  return cardLine(
    `Delete a label in ${account}: ${typeof n === 'number' ? `it is taken off its ${n} message${n === 1 ? '' : 's'}` : 'it is taken off every message that has it'}; the messages themselves stay. Label: ${quoted(shown)}`,
  );
}
