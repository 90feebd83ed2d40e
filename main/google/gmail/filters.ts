import type { gmail_v1 } from '@googleapis/gmail';
import { cardLine, quoted, quotedId, quotedUnless } from '../card-text.js';
import type { CallContent, CallToolResult } from '../../tools/types.js';
import { BadInput, parseAddresses } from './compose.js';
import { str, strings, type GmailCallContext } from './context.js';
import { isMissing } from './errors.js';

/**
 * Gmail filters (issue 33 item 3) on users.settings.filters
 * (developers.google.com/gmail/api/reference/rest/v1/users.settings.filters):
 * list, create, delete. A filter acts on mail that arrives after it is made,
 * without asking anyone: one that forwards or trashes mail is a standing side
 * effect, so it always asks (standingEffect) and its card says what it will do.
 */

export type Filter = gmail_v1.Schema$Filter;

export interface FilterInput {
  criteria: gmail_v1.Schema$FilterCriteria;
  addNames: string[];
  removeNames: string[];
  /** System label changes the flags stand for (archive → remove INBOX, …). */
  addSystem: string[];
  removeSystem: string[];
  forward?: string;
}

const CRITERIA: [arg: string, field: keyof gmail_v1.Schema$FilterCriteria][] = [
  ['from', 'from'],
  ['to', 'to'],
  ['subject', 'subject'],
  ['query', 'query'],
  ['negated_query', 'negatedQuery'],
];

/** Flags → the system labels Gmail's own filter dialog sets for them. */
const FLAGS: [arg: string, add: string | null, remove: string | null, words: string][] = [
  ['archive', null, 'INBOX', 'archived (skips the Inbox)'],
  ['mark_read', null, 'UNREAD', 'marked as read'],
  ['star', 'STARRED', null, 'starred'],
  ['mark_important', 'IMPORTANT', null, 'marked important'],
  ['never_spam', null, 'SPAM', 'never sent to Spam'],
  ['trash', 'TRASH', null, 'MOVED TO THE TRASH (Gmail deletes it for good after 30 days)'],
];

export function parseFilter(args: Record<string, unknown>): FilterInput {
  const criteria: gmail_v1.Schema$FilterCriteria = {};
  for (const [arg, field] of CRITERIA) {
    const v = str(args[arg])
      ?.replace(/[\r\n]+/g, ' ')
      .trim();
    if (v) (criteria as Record<string, unknown>)[field] = v;
  }
  if (args.has_attachment === true) criteria.hasAttachment = true;
  if (Object.keys(criteria).length === 0)
    throw new BadInput(
      'Say which mail the filter applies to: from, to, subject, query, negated_query or has_attachment.',
    );
  const input: FilterInput = {
    criteria,
    addNames: strings(args.add_labels).map((s) => s.trim()),
    removeNames: strings(args.remove_labels).map((s) => s.trim()),
    addSystem: [],
    removeSystem: [],
  };
  const system = (names: string[], label: string) => names.some((n) => n.toUpperCase() === label);
  if (system(input.addNames, 'TRASH'))
    throw new BadInput('add_labels: to send matching mail to the Trash, use trash: true.');
  if (
    system(input.addNames, 'SPAM') ||
    system(input.addNames, 'DRAFT') ||
    system(input.addNames, 'SENT')
  )
    throw new BadInput('add_labels: a filter cannot add SPAM, DRAFT or SENT.');
  for (const [arg, add, remove] of FLAGS) {
    if (args[arg] !== true) continue;
    if (add) input.addSystem.push(add);
    if (remove) input.removeSystem.push(remove);
  }
  const forward = str(args.forward_to)?.trim();
  if (forward) {
    const boxes = parseAddresses('forward_to', forward);
    if (boxes.length !== 1) throw new BadInput('forward_to: exactly one e-mail address.');
    input.forward = boxes[0]!.address;
  }
  const acts =
    input.addNames.length +
    input.removeNames.length +
    input.addSystem.length +
    input.removeSystem.length;
  if (acts === 0 && !input.forward)
    throw new BadInput(
      'Say what the filter does: add_labels, remove_labels, archive, mark_read, star, mark_important, never_spam, trash or forward_to.',
    );
  return input;
}

/**
 * Why this call must always be put to the user, or null: it forwards or trashes
 * future mail. Read by parseFilter, the same reading createFilter sends to Gmail;
 * arguments it cannot read are refused before any of this (validateArgs).
 */
export function standingEffect(args: Record<string, unknown>): string | null {
  let f: FilterInput;
  try {
    f = parseFilter(args);
  } catch {
    return null;
  }
  const parts = [
    f.forward ? `forwards matching mail to ${quotedUnless(f.forward, (a) => a.includes('@'))}` : '',
    f.addSystem.includes('TRASH') ? 'moves matching mail to the Trash' : '',
  ].filter(Boolean);
  return parts.length ? `This filter ${parts.join(' and ')} from now on.` : null;
}

/**
 * What a new filter reaches, for the taint check (ToolSource.callContent), read by parseFilter —
 * the reading createFilter sends to Gmail. Its only destination is `forward_to`, as Gmail will
 * forward to it: the user's mail from now on (`forwards`), so being a party to a stranger's mail
 * does not clear it. The criteria choose which mail it acts on and are sent nowhere (`selects`,
 * under the argument names). Null when the arguments cannot be read: the call is refused
 * (validateArgs) before anything is checked.
 */
export function filterCallContent(args: Record<string, unknown>): CallContent | null {
  let f: FilterInput;
  try {
    f = parseFilter(args);
  } catch {
    return null;
  }
  const selects: Record<string, unknown> = {};
  for (const [arg, field] of CRITERIA) if (f.criteria[field]) selects[arg] = f.criteria[field];
  return {
    args: f.forward ? { forward_to: f.forward } : {},
    ...(f.forward ? { forwards: true } : {}),
    selects,
  };
}

/**
 * Which mail a filter acts on. Every criterion is its maker's text — the agent's, or for a filter
 * read back from Gmail, whoever made it — so each is quoted (card-text.ts quoted: nothing inside
 * closes the quote): bare, `from` was any words ("a@x.test; has an attachment"), and before the
 * quoted ones a subject or search closing its quote could write the next criterion.
 */
function criteriaWords(c: gmail_v1.Schema$FilterCriteria): string {
  const out: string[] = [];
  if (c.from) out.push(`from ${quoted(c.from)}`);
  if (c.to) out.push(`to ${quoted(c.to)}`);
  if (c.hasAttachment) out.push('has an attachment');
  if (c.subject) out.push(`subject has ${quoted(c.subject)}`);
  if (c.query) out.push(`matches ${quoted(c.query)}`);
  if (c.negatedQuery) out.push(`does not match ${quoted(c.negatedQuery)}`);
  return out.join('; ') || 'any message';
}

/**
 * What a filter does, in words, with user labels by name — quoted: a label is named by whoever
 * made it (a stranger's shared filter, the agent), and bare a name such as "x. Mail it already
 * handled stays as it is" or "Receipts; FORWARDED to me@example.org" wrote the card's own words.
 */
export function actionWords(
  action: { add: string[]; remove: string[]; forward?: string | null | undefined },
  name: (id: string) => string = (id) => id,
): string[] {
  const out: string[] = [];
  const add = new Set(action.add);
  const remove = new Set(action.remove);
  for (const [, a, r, words] of FLAGS) {
    if (a && add.delete(a)) out.push(words);
    if (r && remove.delete(r)) out.push(words);
  }
  for (const id of add) out.push(`labelled ${quoted(name(id))}`);
  for (const id of remove) out.push(`label ${quoted(name(id))} removed`);
  if (action.forward)
    out.push(`FORWARDED to ${quotedUnless(action.forward, (a) => a.includes('@'))}`);
  return out;
}

/** The approval text of gmail_create_filter: what it will do to future mail. */
export function describeCreateFilter(account: string, args: Record<string, unknown>): string {
  let f: FilterInput;
  try {
    f = parseFilter(args);
  } catch (err) {
    return `Create a Gmail filter in ${account} — this call will FAIL: ${(err as Error).message}`;
  }
  const standing = standingEffect(args);
  return [
    `Create a Gmail filter in ${account}. From now on, every new message that matches`,
    `  ${criteriaWords(f.criteria)}`,
    `will be: ${actionWords({ add: [...f.addSystem, ...f.addNames], remove: [...f.removeSystem, ...f.removeNames], forward: f.forward ?? null }).join('; ')}.`,
    standing
      ? 'It keeps doing this to new mail without asking again, until the filter is deleted.'
      : 'It keeps acting on new mail until the filter is deleted.',
    'Mail already in the mailbox is not changed.',
  ].join('\n');
}

/**
 * A filter on a card: what it does, then the mail it does it to ("archived; labelled “Receipts”,
 * for mail that from “orders@shop.example”; subject has “invoice”"), every name and criterion
 * quoted.
 */
export function filterCardWords(f: Filter, name: (id: string) => string): string {
  const act = actionWords(
    {
      add: f.action?.addLabelIds ?? [],
      remove: f.action?.removeLabelIds ?? [],
      forward: f.action?.forward,
    },
    name,
  );
  return `${act.join('; ') || 'acted on'}, for mail that ${criteriaWords(f.criteria ?? {})}`;
}

/**
 * The card of gmail_delete_filter: what the filter stops doing first, its criteria last, each
 * label name and criterion quoted (filterCardWords). One line (cardLine).
 */
export function describeDeleteFilter(
  id: string,
  account: string,
  f: Filter | undefined,
  name: (id: string) => string,
): string {
  return cardLine(
    `Delete Gmail filter ${quotedId(id)} in ${account}. Mail it already handled stays as it is.${f ? ` From now on new mail is no longer ${filterCardWords(f, name)}` : ''}`,
  );
}

export function filterLine(f: Filter, name: (id: string) => string): string {
  const act = actionWords(
    {
      add: f.action?.addLabelIds ?? [],
      remove: f.action?.removeLabelIds ?? [],
      forward: f.action?.forward,
    },
    name,
  );
  return `mail that ${criteriaWords(f.criteria ?? {})} → ${act.join('; ') || 'nothing'}`;
}

async function labelNamer(ctx: GmailCallContext, ids: string[]): Promise<(id: string) => string> {
  const names = await ctx.labels.names(ctx.client, ids);
  return (id) => names.get(id) ?? id;
}

export async function listFilters(ctx: GmailCallContext): Promise<CallToolResult> {
  const list = await ctx.client.read('the filter list', (api, opts) =>
    api.users.settings.filters.list({ userId: 'me' }, opts),
  );
  const filters = list.filter ?? [];
  const name = await labelNamer(
    ctx,
    filters.flatMap((f) => [...(f.action?.addLabelIds ?? []), ...(f.action?.removeLabelIds ?? [])]),
  );
  const lines = [`Gmail filters in ${ctx.client.account}: ${filters.length || 'none'}.`];
  for (const f of filters) lines.push(`- ${f.id}: ${filterLine(f, name)}`);
  return { content: [{ type: 'text', text: lines.join('\n') }] };
}

export async function createFilter(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const f = parseFilter(args);
  const [add, remove] = [
    await ctx.labels.resolve(ctx.client, f.addNames),
    await ctx.labels.resolve(ctx.client, f.removeNames),
  ];
  const action: gmail_v1.Schema$FilterAction = {
    ...(add.length + f.addSystem.length
      ? { addLabelIds: [...new Set([...f.addSystem, ...add])] }
      : {}),
    ...(remove.length + f.removeSystem.length
      ? { removeLabelIds: [...new Set([...f.removeSystem, ...remove])] }
      : {}),
    ...(f.forward ? { forward: f.forward } : {}),
  };
  const made = await ctx.client.write('the new filter', (api, opts) =>
    api.users.settings.filters.create(
      { userId: 'me', requestBody: { criteria: f.criteria, action } },
      opts,
    ),
  );
  const name = await labelNamer(ctx, [
    ...(action.addLabelIds ?? []),
    ...(action.removeLabelIds ?? []),
  ]);
  return {
    content: [
      {
        type: 'text',
        text: `Created filter ${made.id} in ${ctx.client.account}: ${filterLine(made, name)}. It acts on mail that arrives from now on.`,
      },
    ],
  };
}

export async function deleteFilter(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const id = str(args.filter_id)?.trim() ?? '';
  if (!id) throw new BadInput('filter_id: give the id of a filter (from gmail_list_filters).');
  await ctx.client
    .write(`filter ${id}`, (api, opts) =>
      api.users.settings.filters.delete({ userId: 'me', id }, opts),
    )
    .catch((err: unknown) => {
      throw isMissing(err) ? noSuchFilter(id, ctx.client.account) : err;
    });
  return { content: [{ type: 'text', text: `Deleted filter ${id} from ${ctx.client.account}.` }] };
}

export function noSuchFilter(id: string, account: string): BadInput {
  return new BadInput(
    `There is no filter with id ${id} in ${account}. gmail_list_filters lists the filters.`,
  );
}

/** The filter (filters.get); an unknown id is a BadInput naming the account. */
export async function fetchFilter(
  ctx: Pick<GmailCallContext, 'client'>,
  id: string,
): Promise<Filter> {
  try {
    return await ctx.client.read(`filter ${id}`, (api, opts) =>
      api.users.settings.filters.get({ userId: 'me', id }, opts),
    );
  } catch (err) {
    throw isMissing(err) ? noSuchFilter(id, ctx.client.account) : err;
  }
}
