import { NOT_MINE } from './gmail-drafts.js';
import type { GmailMailbox } from './gmail-mailbox.js';
import { HttpError, SYSTEM_LABELS } from './gmail-shapes.js';

export interface FakeFilter {
  id: string;
  criteria: Record<string, unknown>;
  action: { addLabelIds?: string[]; removeLabelIds?: string[]; forward?: string };
}

/**
 * The fake's labels and settings, after Gmail's reference
 * (developers.google.com/gmail/api/reference/rest/v1/users.labels and users.settings.filters,
 * users.settings.forwardingAddresses, users.settings.sendAs):
 *
 * - labels `list` → `{ labels }`; `get` → the Label with messagesTotal/messagesUnread/
 *   threadsTotal/threadsUnread; `create` (POST) / `patch` (PATCH) / `update` (PUT) → the Label,
 *   409 ALREADY_EXISTS "Label name exists or conflicts" for a name in use (any case);
 *   `delete` → empty, and the label is gone from every message. System labels cannot be
 *   changed or deleted (400), unknown ids answer 404.
 * - filters `list` → `{ filter: [...] }` (the key is singular, and absent when there are
 *   none); `get`; `create` → the Filter with its new id; `delete` → empty. create and delete need
 *   the gmail.settings.basic scope (403 without it). A filter needs criteria and an action
 *   (400); label ids in its action must exist (400); `forward` must be one of the account's
 *   forwarding addresses with verificationStatus "accepted" ("If the forwarding email address
 *   doesn't adhere to one of these rules, setting up forwarding using the API fails" —
 *   guides/forwarding_settings; the error text is the fake's own).
 * - forwardingAddresses `list` → `{ forwardingAddresses: [{ forwardingEmail, verificationStatus }] }`.
 */
export class GmailSettings {
  readonly filters = new Map<string, FakeFilter[]>();
  readonly forwarding = new Map<
    string,
    { forwardingEmail: string; verificationStatus: string }[]
  >();
  private seq = 0;

  constructor(private readonly box: GmailMailbox) {}

  route(
    method: string,
    rest: string[],
    account: { email: string; displayName?: string; noSettingsScope?: boolean },
    body: Record<string, unknown>,
  ): unknown {
    const [a, b, c] = rest;
    if (a === 'labels') return this.labels(method, rest.slice(1), account.email, body);
    if (a !== 'settings') return NOT_MINE;
    if (method === 'GET' && b === 'sendAs' && rest.length === 2)
      return {
        sendAs: [
          {
            sendAsEmail: account.email,
            displayName: account.displayName ?? '',
            replyToAddress: '',
            signature: '',
            isPrimary: true,
            isDefault: true,
          },
        ],
      };
    if (method === 'GET' && b === 'forwardingAddresses' && rest.length === 2)
      return { forwardingAddresses: this.forwarding.get(account.email) ?? [] };
    if (b !== 'filters') return NOT_MINE;
    const list = this.filters.get(account.email) ?? [];
    this.filters.set(account.email, list);
    if (method === 'GET' && rest.length === 2) return list.length ? { filter: list } : {};
    if (method === 'GET' && c) return this.filter(list, c);
    // filters.create and filters.delete: "Requires the following OAuth scope: gmail.settings.basic".
    if (method !== 'GET' && account.noSettingsScope) throw new HttpError(403);
    if (method === 'POST' && rest.length === 2) return this.createFilter(account.email, list, body);
    if (method === 'DELETE' && c) {
      list.splice(list.indexOf(this.filter(list, c)), 1);
      return undefined;
    }
    return NOT_MINE;
  }

  private filter(list: FakeFilter[], id: string): FakeFilter {
    const f = list.find((x) => x.id === id);
    if (!f) throw new HttpError(404);
    return f;
  }

  private createFilter(
    account: string,
    list: FakeFilter[],
    body: Record<string, unknown>,
  ): unknown {
    const criteria = (body.criteria ?? {}) as Record<string, unknown>;
    const action = (body.action ?? {}) as FakeFilter['action'];
    if (!Object.values(criteria).some((v) => v !== undefined && v !== '' && v !== false))
      throw new HttpError(400, "Filter doesn't have any criteria", 'invalidArgument');
    const labels = [...(action.addLabelIds ?? []), ...(action.removeLabelIds ?? [])];
    if (labels.length === 0 && !action.forward)
      throw new HttpError(400, "Filter doesn't have any actions", 'invalidArgument');
    const known = new Set(this.box.labels(account).map((l) => l.id as string));
    for (const l of labels)
      if (!known.has(l))
        throw new HttpError(400, `Invalid label ${l} in AddLabelIds`, 'invalidArgument');
    if (action.forward) {
      const ok = (this.forwarding.get(account) ?? []).some(
        (f) =>
          f.forwardingEmail.toLowerCase() === action.forward!.toLowerCase() &&
          f.verificationStatus === 'accepted',
      );
      if (!ok)
        throw new HttpError(
          400,
          'Forwarding address not verified for this account',
          'failedPrecondition',
        );
    }
    if (list.length >= 1000) throw new HttpError(400, 'Too many filters', 'invalidArgument');
    const filter: FakeFilter = {
      id: `ANe1Bm${String(++this.seq).padStart(6, '0')}`,
      criteria,
      action,
    };
    list.push(filter);
    return filter;
  }

  private labels(
    method: string,
    rest: string[],
    account: string,
    body: Record<string, unknown>,
  ): unknown {
    const mine = this.box.userLabels.get(account) ?? [];
    this.box.userLabels.set(account, mine);
    const [id] = rest;
    if (method === 'GET' && !id) return { labels: this.box.labels(account) };
    if (method === 'POST' && !id) {
      const name = this.checkName(account, body.name);
      this.box.addLabel(account, name);
      return this.label(account, mine.at(-1)!.id);
    }
    if (!id || rest.length > 1) return NOT_MINE;
    if (method === 'GET') return this.label(account, id);
    if (SYSTEM_LABELS.includes(id))
      throw new HttpError(
        400,
        'Invalid update request: system labels cannot be changed',
        'invalidArgument',
      );
    const own = mine.find((l) => l.id === id);
    if (!own) throw new HttpError(404);
    if (method === 'PATCH' || method === 'PUT') {
      if (body.name !== undefined || method === 'PUT')
        own.name = this.checkName(account, body.name, id);
      return this.label(account, id);
    }
    if (method === 'DELETE') {
      mine.splice(mine.indexOf(own), 1);
      for (const m of this.box.all(account)) m.labelIds = m.labelIds.filter((l) => l !== id);
      return undefined;
    }
    return NOT_MINE;
  }

  private checkName(account: string, name: unknown, self?: string): string {
    if (typeof name !== 'string' || !name.trim())
      throw new HttpError(400, 'Invalid label name', 'invalidArgument');
    const taken = this.box
      .labels(account)
      .some((l) => l.id !== self && String(l.name).toLowerCase() === name.trim().toLowerCase());
    if (taken) throw new HttpError(409);
    return name.trim();
  }

  /** A Label with its counts (labels.get). */
  private label(account: string, id: string): Record<string, unknown> {
    const l = this.box.labels(account).find((x) => x.id === id);
    if (!l) throw new HttpError(404);
    const msgs = this.box.all(account).filter((m) => m.labelIds.includes(id));
    const threads = new Set(msgs.map((m) => m.threadId));
    const unread = msgs.filter((m) => m.labelIds.includes('UNREAD'));
    return {
      ...l,
      messagesTotal: msgs.length,
      messagesUnread: unread.length,
      threadsTotal: threads.size,
      threadsUnread: new Set(unread.map((m) => m.threadId)).size,
    };
  }
}
