import { strings } from './context.js';
import { parseFilter, type FilterInput } from './filters.js';

/**
 * What a Gmail call destroys, hides or answers for the user without sending anything anywhere,
 * in words after "This call" (CallContent.effect): the instructed-effect rule flags such a call
 * after a stranger's content addressed the agent (main/provenance/instructed-effects.ts). Read
 * from the arguments as the tools read them: label names as `labels.resolve` matches them (by id
 * or name, any case, trimmed: a system label's id is its name), a filter by parseFilter.
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
    case 'gmail_delete_filter':
      return 'deletes a filter';
    default:
      return undefined;
  }
}

/** The system labels whose change hides mail or answers for the user, and what the change does. */
const HIDING: [label: string, added: string | null, removed: string | null][] = [
  ['INBOX', null, 'takes mail out of the Inbox'],
  ['UNREAD', null, 'marks mail as read'],
  ['SPAM', 'marks mail as spam', 'takes mail out of Spam'],
  ['TRASH', 'moves mail to the Trash', 'takes mail out of the Trash'],
];

function labelEffect(add: string[], remove: string[]): string | undefined {
  const named = (list: string[], label: string) =>
    list.some((n) => n.trim().toUpperCase() === label);
  const parts: string[] = [];
  for (const [label, added, removed] of HIDING) {
    if (added && named(add, label)) parts.push(added);
    if (removed && named(remove, label)) parts.push(removed);
  }
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
  const parts: string[] = [];
  if (f.addSystem.includes('TRASH')) parts.push('moves matching mail to the Trash');
  const removed = [...f.removeSystem, ...f.removeNames.map((n) => n.trim().toUpperCase())];
  if (removed.includes('INBOX')) parts.push('archives matching mail');
  if (removed.includes('UNREAD')) parts.push('marks matching mail as read');
  if (removed.includes('SPAM')) parts.push('never sends matching mail to Spam');
  if (f.addNames.some((n) => n.trim().toUpperCase() === 'TRASH'))
    parts.push('moves matching mail to the Trash');
  return parts.length ? `creates a filter that ${parts.join(' and ')} from now on` : undefined;
}
