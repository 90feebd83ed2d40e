import { headerValue } from './gmail-mime.js';
import { pageOf, type GmailMailbox } from './gmail-mailbox.js';
import { HttpError, matches } from './gmail-shapes.js';

/** What a route answers when the request is not one of its own. */
export const NOT_MINE = Symbol('not mine');

export interface DraftRecord {
  account: string;
  raw: Buffer;
  threadId?: string;
  /** The draft id. */
  id: string;
}

/**
 * The fake's drafts, after Gmail's users.drafts reference
 * (developers.google.com/gmail/api/reference/rest/v1/users.drafts):
 *
 * - `create` POST drafts `{ message: { raw, threadId? } }` → `{ id, message: { id, threadId, labelIds } }`
 * - `list` GET drafts `?maxResults (default 100, max 500)&pageToken&q&includeSpamTrash`
 *   → `{ drafts: [{ id, message: { id, threadId } }], nextPageToken?, resultSizeEstimate }`
 * - `get` GET drafts/{id} `?format` → `{ id, message: <Message in that format> }`
 * - `update` PUT drafts/{id} `{ message: { raw, threadId? } }` → the Draft; "Replaces a draft's
 *   content": the draft id stays, the message is a new one (a new message id).
 * - `send` POST drafts/send `{ id }` → the sent Message `{ id, threadId, labelIds }`; "Sends the
 *   specified, existing draft to the recipients in the To, Cc, and Bcc headers": without any,
 *   400 "Recipient address required". The draft is gone afterwards.
 * - `delete` DELETE drafts/{id} → empty; "Immediately and permanently deletes the specified
 *   draft. Does not simply trash it."
 *
 * An id the account has no draft for answers 404 "Requested entity was not found.".
 */
export class GmailDrafts {
  /** Every draft as created or last updated (raw as received), for assertions. */
  readonly log: DraftRecord[] = [];
  private readonly live = new Map<string, { account: string; messageId: string }>();

  constructor(
    private readonly box: GmailMailbox,
    private readonly sent: { account: string; raw: Buffer; threadId?: string; id: string }[],
  ) {}

  /** A draft as if the user had saved it in Gmail (any raw message, e.g. one without recipients). */
  seed(account: string, raw: Buffer, threadId?: string): { id: string; messageId: string } {
    const d = this.create(account, {
      message: { raw: raw.toString('base64url'), ...(threadId ? { threadId } : {}) },
    }) as { id: string; message: { id: string } };
    return { id: d.id, messageId: d.message.id };
  }

  /** The draft's current message id, or undefined once sent or deleted. */
  messageOf(draftId: string): string | undefined {
    return this.live.get(draftId)?.messageId;
  }

  route(
    method: string,
    rest: string[],
    account: string,
    body: Record<string, unknown>,
    q: URLSearchParams,
  ): unknown {
    const [a, b] = rest;
    if (a !== 'drafts' || rest.length > 2) return NOT_MINE;
    if (method === 'POST' && rest.length === 1) return this.create(account, body);
    if (method === 'GET' && rest.length === 1) return this.list(account, q);
    if (method === 'POST' && b === 'send') return this.send(account, body);
    if (rest.length !== 2) return NOT_MINE;
    if (method === 'GET') return this.get(account, b!, q);
    if (method === 'PUT') return this.update(account, b!, body);
    if (method === 'DELETE') return this.delete(account, b!);
    return NOT_MINE;
  }

  private find(account: string, id: string): { account: string; messageId: string } {
    const d = this.live.get(id);
    if (!d || d.account !== account) throw new HttpError(404);
    return d;
  }

  private message(body: Record<string, unknown>): Record<string, unknown> {
    return (body.message ?? {}) as Record<string, unknown>;
  }

  private create(account: string, body: Record<string, unknown>, draftId?: string): unknown {
    const msg = this.box.store(account, this.message(body), ['DRAFT']);
    const id =
      draftId ??
      `r${BigInt('0x' + msg.id)
        .toString()
        .slice(-19)}`;
    this.live.set(id, { account, messageId: msg.id });
    this.log.push({
      account,
      raw: msg.raw,
      id,
      ...(msg.requested ? { threadId: msg.requested } : {}),
    });
    return { id, message: { id: msg.id, threadId: msg.threadId, labelIds: ['DRAFT'] } };
  }

  private list(account: string, q: URLSearchParams): unknown {
    const query = q.get('q') ?? '';
    const labels = this.box.labels(account);
    const all = [...this.live.entries()]
      .filter(([, d]) => d.account === account)
      .map(([id, d]) => ({ id, m: this.box.stored(d.messageId)! }))
      .filter(({ m }) => matches(m, query, labels))
      .sort((x, y) => y.m.internalDate - x.m.internalDate);
    const page = pageOf(all, q, 100);
    return {
      ...(page.items.length
        ? {
            drafts: page.items.map((d) => ({
              id: d.id,
              message: { id: d.m.id, threadId: d.m.threadId },
            })),
          }
        : {}),
      ...(page.next ? { nextPageToken: page.next } : {}),
      resultSizeEstimate: all.length,
    };
  }

  private get(account: string, id: string, q: URLSearchParams): unknown {
    const d = this.find(account, id);
    return { id, message: this.box.render(this.box.stored(d.messageId)!, q) };
  }

  private update(account: string, id: string, body: Record<string, unknown>): unknown {
    const d = this.find(account, id);
    const created = this.create(account, body, id);
    this.box.remove(d.messageId);
    return created;
  }

  private send(account: string, body: Record<string, unknown>): unknown {
    const id = typeof body.id === 'string' ? body.id : '';
    if (!id) throw new HttpError(400, 'Invalid draft', 'invalidArgument');
    const d = this.find(account, id);
    const m = this.box.stored(d.messageId)!;
    const recipients = ['to', 'cc', 'bcc'].map((h) => headerValue(m.root.headers, h).trim());
    if (!recipients.some(Boolean))
      throw new HttpError(400, 'Recipient address required', 'invalidArgument');
    m.labelIds = ['SENT'];
    this.live.delete(id);
    const requested = this.log.findLast((r) => r.id === id)?.threadId;
    this.sent.push({
      account,
      raw: m.raw,
      id: m.id,
      ...(requested ? { threadId: requested } : {}),
    });
    return { id: m.id, threadId: m.threadId, labelIds: m.labelIds };
  }

  private delete(account: string, id: string): undefined {
    const d = this.find(account, id);
    this.live.delete(id);
    this.box.remove(d.messageId);
    return undefined;
  }
}
