import type { gmail_v1 } from '@googleapis/gmail';
import { BadInput } from './compose.js';
import type { GmailClient } from './client.js';

export type Label = gmail_v1.Schema$Label;

const TTL_MS = 5 * 60_000;

/** The labels `wanted` names, each once: by id or name, any case. */
function labelsNamed(labels: readonly Label[], wanted: string): Label[] {
  const key = wanted.trim().toLowerCase();
  const hits = labels.filter((l) => l.id?.toLowerCase() === key || l.name?.toLowerCase() === key);
  return [...new Map(hits.map((l) => [l.id, l])).values()];
}

/**
 * The one label `wanted` names: by id or name, any case (Gmail names are unique without regard
 * to case). A string that is one label's name and another's id (a user label named "label_5"
 * beside the label whose id is Label_5) names two: whichever came first in the list would be
 * acted on while the card shows the agent's string, so it is refused (BadInput) instead, saying
 * which strings name each of them alone (the id "Label_5" is no way out: it is the same string
 * in another case). Every lookup (the card's peek, the precheck, the action) goes through here.
 */
export function matchLabel(
  labels: readonly Label[],
  wanted: string,
  account: string,
): Label | undefined {
  const hits = labelsNamed(labels, wanted);
  if (hits.length > 1) {
    const alone = hits.flatMap((l) => {
      const h = [l.name, l.id].find((x) => x && labelsNamed(labels, x).length === 1);
      return h ? [`"${h}"`] : [];
    });
    const which = alone.length
      ? `To say which, use ${alone.join(' or ')} (each names only that label), or rename the label whose name looks like an id.`
      : 'Rename the label whose name looks like an id, then try again.';
    throw new BadInput(
      `"${wanted}" names more than one label in ${account}: ${hits
        .map((l) => `"${l.name}" (id ${l.id})`)
        .join(', ')}. ${which}`,
    );
  }
  return hits[0];
}

/** Each account's labels, fetched when first needed and kept a few minutes. */
export class LabelDirectory {
  private readonly cache = new Map<string, { at: number; labels: Promise<Label[]> }>();
  private readonly loaded = new Map<string, Label[]>();

  list(client: GmailClient, fresh = false): Promise<Label[]> {
    const hit = this.cache.get(client.account);
    if (hit && !fresh && Date.now() - hit.at < TTL_MS) return hit.labels;
    const labels = client
      .read('the label list', (api, opts) => api.users.labels.list({ userId: 'me' }, opts))
      .then((d) => {
        const list = d.labels ?? [];
        this.loaded.set(client.account, list);
        return list;
      });
    this.cache.set(client.account, { at: Date.now(), labels });
    labels.catch(() => this.cache.delete(client.account));
    return labels;
  }

  /** The account's labels changed (created, renamed, deleted): read them afresh next time. */
  invalidate(account: string): void {
    this.cache.delete(account);
    this.loaded.delete(account);
  }

  /** The labels last read for this account, without a request (for approval texts). */
  peek(account: string, wanted: string): Label | undefined {
    try {
      return matchLabel(this.loaded.get(account) ?? [], wanted, account);
    } catch {
      return undefined; // ambiguous: the card shows the agent's string; the call is refused
    }
  }

  /** A label by name or id, any case; undefined when there is none, BadInput when it names two. */
  async find(client: GmailClient, wanted: string): Promise<Label | undefined> {
    return matchLabel(await this.list(client), wanted, client.account);
  }

  /** Label ids → names for display; system ids (INBOX, UNREAD) are their own names. */
  async names(client: GmailClient, ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!ids.some((id) => id.startsWith('Label_'))) return out;
    for (const l of await this.list(client)) if (l.id && l.name) out.set(l.id, l.name);
    return out;
  }

  /** Names (or ids), any case → ids; a name that does not exist is a BadInput listing what does. */
  async resolve(client: GmailClient, wanted: readonly string[]): Promise<string[]> {
    if (wanted.length === 0) return [];
    const labels = await this.list(client);
    return wanted.map((w) => {
      const hit = matchLabel(labels, w, client.account);
      if (!hit?.id) {
        const known = labels
          .map((l) => l.name)
          .filter(Boolean)
          .join(', ');
        throw new BadInput(
          `There is no label "${w}" in ${client.account}. Labels: ${known}. (gmail_create_label creates one.)`,
        );
      }
      return hit.id;
    });
  }
}
