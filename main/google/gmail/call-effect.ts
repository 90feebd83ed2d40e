import { strings } from './context.js';
import { parseFilter, type FilterInput } from './filters.js';

/**
 * What a Gmail call destroys, hides or answers for the user without sending anything anywhere,
 * in words after "This call" (CallContent.effect): the instructed-effect rule flags such a call
 * after a stranger's content addressed the agent (main/provenance/instructed-effects.ts). Read
 * from the arguments as the tools read them: label names as `labels.resolve` matches them (by id
 * or name, any case, trimmed: a system label's id is its name, and no user label may take a
 * system label's name — Gmail API guide "Manage labels", "Types of labels"), a filter by
 * parseFilter.
 */
export function gmailEffect(tool: string, args: Record<string, unknown>): string | undefined {
  switch (tool) {
    case 'gmail_trash':
      return 'moves mail to the Trash';
    case 'gmail_archive':
      return 'archives mail (takes it out of the Inbox)';
    case 'gmail_modify_labels':
      return labelEffect(strings(args.add_labels), strings(args.remove_labels));
    case 'gmail_create_filter':
      return filterEffect(args);
    case 'gmail_delete_draft':
      return 'deletes a draft';
    // Gmail replaces a draft whole (draft-tools.ts): the user's text before it is gone.
    case 'gmail_update_draft':
      return "replaces a draft's recipients, text and attachments";
    case 'gmail_delete_label':
      return 'deletes a label';
    // users.labels.patch renames the label under its id: the mail stays on it, but the user
    // finds it (and her label list shows it) only under the new name, which the agent chose.
    case 'gmail_rename_label':
      return 'renames a label, so mail filed under it is found only under the new name';
    case 'gmail_delete_filter':
      return 'deletes a filter';
    default:
      return undefined;
  }
}

/** What a change of one system label does, on the messages named and in a filter's words. */
interface Hiding {
  label: string;
  added?: [messages: string, filter: string];
  removed?: [messages: string, filter: string];
}

const toTab = (tab: string): Hiding => ({
  label: `CATEGORY_${tab.toUpperCase()}`,
  added: [
    `moves mail to the ${tab} tab (out of Primary)`,
    `moves matching mail to the ${tab} tab (out of Primary)`,
  ],
});

/**
 * The system labels whose change hides mail or answers for the user. Gmail API guide "Manage
 * labels", "Types of labels": INBOX, SPAM, TRASH, UNREAD, STARRED, IMPORTANT and the CATEGORY_*
 * labels "can be manually applied" (users.messages.batchModify addLabelIds / removeLabelIds, and a
 * filter's FilterAction, users.settings.filters); CATEGORY_PERSONAL is the Primary tab, the
 * others the Social, Promotions, Updates and Forums tabs. Unstarring or un-marking important
 * drops mail from the views the user keeps for what matters (Starred, Priority Inbox), and
 * another tab takes it out of the Primary one she reads; the opposite changes hide nothing.
 */
const HIDING: Hiding[] = [
  { label: 'INBOX', removed: ['takes mail out of the Inbox', 'archives matching mail'] },
  { label: 'UNREAD', removed: ['marks mail as read', 'marks matching mail as read'] },
  {
    label: 'SPAM',
    added: ['marks mail as spam', 'marks matching mail as spam'],
    removed: ['takes mail out of Spam', 'never sends matching mail to Spam'],
  },
  {
    label: 'TRASH',
    added: ['moves mail to the Trash', 'moves matching mail to the Trash'],
    removed: ['takes mail out of the Trash', 'takes matching mail out of the Trash'],
  },
  { label: 'STARRED', removed: ['unstars mail', 'unstars matching mail'] },
  {
    label: 'IMPORTANT',
    removed: ['marks mail as not important', 'never marks matching mail as important'],
  },
  {
    label: 'CATEGORY_PERSONAL',
    removed: ['moves mail out of the Primary tab', 'moves matching mail out of the Primary tab'],
  },
  toTab('Social'),
  toTab('Promotions'),
  toTab('Updates'),
  toTab('Forums'),
];

/** What adding `add` and removing `remove` hides; `which` picks the words (0 messages, 1 filter). */
function hidingParts(add: string[], remove: string[], which: 0 | 1): string[] {
  // As labels.resolve reads a name (labels.ts labelsNamed): trimmed, lower-cased, and equal to a
  // label's id or name — a system label's id is its name. Upper-casing instead would differ
  // ("\u212Aey" lower-cases to "key", but does not upper-case to "KEY").
  const named = (list: string[], label: string) =>
    list.some((n) => n.trim().toLowerCase() === label.toLowerCase());
  const parts: string[] = [];
  for (const h of HIDING) {
    if (h.added && named(add, h.label)) parts.push(h.added[which]);
    if (h.removed && named(remove, h.label)) parts.push(h.removed[which]);
  }
  return parts;
}

function labelEffect(add: string[], remove: string[]): string | undefined {
  const parts = hidingParts(add, remove, 0);
  return parts.length ? parts.join(' and ') : undefined;
}

/** What a filter does to mail from now on that hides it or answers for the user. */
function filterEffect(args: Record<string, unknown>): string | undefined {
  let f: FilterInput;
  try {
    f = parseFilter(args);
  } catch {
    return undefined; // Refused before it runs (validateArgs).
  }
  // The action createFilter sends: the flags' system labels and the names, resolved alike.
  const parts = hidingParts(
    [...f.addSystem, ...f.addNames],
    [...f.removeSystem, ...f.removeNames],
    1,
  );
  return parts.length
    ? `creates a filter that ${[...new Set(parts)].join(' and ')} from now on`
    : undefined;
}
