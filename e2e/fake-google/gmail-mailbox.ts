import { randomBytes } from 'node:crypto';
import { headerValue, parseMessage, walk } from './gmail-mime.js';
import {
  HttpError,
  matches,
  plainText,
  renderMessage,
  SYSTEM_LABELS,
  type StoredMessage,
} from './gmail-shapes.js';

/**
 * One page of a list answer: `maxResults` (default `fallback`, at most 500 as Gmail allows) from
 * the offset an opaque `pageToken` carries; `next` is the token of the page after, if any.
 */
export function pageOf<T>(
  all: T[],
  q: URLSearchParams,
  fallback: number,
): { items: T[]; next?: string } {
  const max = Math.min(500, Number(q.get('maxResults') ?? fallback) || fallback);
  const start = Number(Buffer.from(q.get('pageToken') ?? '', 'base64url').toString() || 0);
  const items = all.slice(start, start + max);
  return start + max < all.length
    ? { items, next: Buffer.from(String(start + max)).toString('base64url') }
    : { items };
}

export interface SeedMessage {
  raw: Buffer;
  labelIds?: string[];
  /** Messages with the same key share a thread. */
  thread?: string;
  /** Milliseconds since the epoch; defaults to the Date header. */
  internalDate?: number;
}

/**
 * The mailboxes behind the fake Gmail API (gmail-fake.ts): stored messages,
 * labels, what was sent and drafted, and the operations the API routes to,
 * in Google's documented shapes.
 */
export class GmailMailbox {
  /** Every message sent through messages.send, as the raw RFC 822 bytes received. */
  readonly sent: { account: string; raw: Buffer; threadId?: string; id: string }[] = [];
  private readonly messages = new Map<string, StoredMessage>();
  private readonly attachmentIds = new Map<string, { messageId: string; partId: string }>();
  /** Each account's own labels (gmail-settings.ts creates, renames and deletes them). */
  readonly userLabels = new Map<string, { id: string; name: string }[]>();
  private labelSeq = 0;
  private nextId = 0x18f2a4c1b0000000n;

  private newId(): string {
    this.nextId += 0x1a3n;
    return this.nextId.toString(16);
  }

  /** Stores a message in the account's mailbox; returns its id and thread id. */
  add(
    account: string,
    seed: SeedMessage,
    threads: Map<string, string> = new Map(),
  ): { id: string; threadId: string } {
    const root = parseMessage(seed.raw);
    const id = this.newId();
    let threadId = seed.thread ? threads.get(seed.thread) : undefined;
    if (!threadId) {
      threadId = id;
      if (seed.thread) threads.set(seed.thread, threadId);
    }
    const date = Date.parse(headerValue(root.headers, 'date'));
    this.messages.set(id, {
      id,
      threadId,
      account,
      labelIds: seed.labelIds ?? ['INBOX'],
      internalDate: seed.internalDate ?? (Number.isNaN(date) ? Date.now() : date),
      raw: seed.raw,
      root,
      text: plainText(root),
    });
    return { id, threadId };
  }

  addLabel(account: string, name: string): string {
    const list = this.userLabels.get(account) ?? [];
    this.labelSeq++;
    const id = `Label_${this.labelSeq}${String((this.labelSeq - 1) * 7919).padStart(4, '0')}`;
    list.push({ id, name });
    this.userLabels.set(account, list);
    return id;
  }

  message(id: string): { labelIds: string[]; threadId: string } | undefined {
    return this.messages.get(id);
  }

  find(account: string, id: string): StoredMessage {
    if (!/^[0-9a-f]{16}$/.test(id)) throw new HttpError(400);
    const msg = this.messages.get(id);
    if (!msg || msg.account !== account) throw new HttpError(404);
    return msg;
  }

  list(account: string, q: URLSearchParams): unknown {
    const query = q.get('q') ?? '';
    const includeSpamTrash =
      q.get('includeSpamTrash') === 'true' || /\bin:(trash|spam|anywhere)\b/.test(query);
    const labelFilter = q.getAll('labelIds');
    const all = [...this.messages.values()]
      .filter((m) => m.account === account)
      .filter((m) => includeSpamTrash || !m.labelIds.some((l) => l === 'TRASH' || l === 'SPAM'))
      .filter((m) => labelFilter.every((l) => m.labelIds.includes(l)))
      .filter((m) => matches(m, query, this.labels(account)))
      .sort((x, y) => y.internalDate - x.internalDate);
    const page = pageOf(all, q, 100);
    return {
      ...(page.items.length
        ? { messages: page.items.map((m) => ({ id: m.id, threadId: m.threadId })) }
        : {}),
      ...(page.next ? { nextPageToken: page.next } : {}),
      resultSizeEstimate: all.length,
    };
  }

  render(msg: StoredMessage, q: URLSearchParams): Record<string, unknown> {
    return renderMessage(msg, q, (part) => {
      // Real attachment ids are long (300+ characters) and differ between responses.
      const aid = `ANGjdJ${randomBytes(240).toString('base64url')}`;
      this.attachmentIds.set(aid, { messageId: msg.id, partId: part.partId });
      return aid;
    });
  }

  attachment(account: string, messageId: string, attachmentId: string): unknown {
    const msg = this.find(account, messageId);
    const ref = this.attachmentIds.get(attachmentId);
    if (!ref || ref.messageId !== msg.id) throw new HttpError(400, 'Invalid attachment token');
    const part = [...walk(msg.root)].find((p) => p.partId === ref.partId)!;
    return { size: part.bytes.length, data: part.bytes.toString('base64url') };
  }

  thread(account: string, id: string, q: URLSearchParams): unknown {
    if (!/^[0-9a-f]{16}$/.test(id)) throw new HttpError(400);
    const msgs = [...this.messages.values()]
      .filter((m) => m.account === account && m.threadId === id)
      .sort((x, y) => x.internalDate - y.internalDate);
    if (msgs.length === 0) throw new HttpError(404);
    return { id, historyId: '4242', messages: msgs.map((m) => this.render(m, q)) };
  }

  labels(account: string): Record<string, unknown>[] {
    return [
      ...SYSTEM_LABELS.map((l) => ({
        id: l,
        name: l,
        type: 'system',
        messageListVisibility: 'hide',
        labelListVisibility: 'labelHide',
      })),
      ...(this.userLabels.get(account) ?? []).map((l) => ({
        ...l,
        type: 'user',
        messageListVisibility: 'show',
        labelListVisibility: 'labelShow',
      })),
    ];
  }

  /**
   * A message given as `{ raw, threadId? }` (users.messages.send, users.drafts.create/update):
   * 400 without `raw`, 404 for a thread the account does not have, as Gmail answers.
   */
  store(
    account: string,
    body: Record<string, unknown>,
    labelIds: string[],
  ): { id: string; threadId: string; raw: Buffer; requested?: string } {
    if (typeof body.raw !== 'string' || !body.raw)
      throw new HttpError(
        400,
        "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
        'invalidArgument',
      );
    const raw = Buffer.from(body.raw, 'base64url');
    const requested = typeof body.threadId === 'string' ? body.threadId : undefined;
    const threads = new Map<string, string>();
    if (requested) {
      if (
        ![...this.messages.values()].some((m) => m.account === account && m.threadId === requested)
      )
        throw new HttpError(404);
      threads.set('t', requested);
    }
    const { id, threadId } = this.add(
      account,
      { raw, labelIds, internalDate: Date.now(), ...(requested ? { thread: 't' } : {}) },
      threads,
    );
    return { id, threadId, raw, ...(requested ? { requested } : {}) };
  }

  /** users.messages.send: the message is stored with SENT and kept, as received, in `sent`. */
  send(account: string, body: Record<string, unknown>): unknown {
    const { id, threadId, raw, requested } = this.store(account, body, ['SENT']);
    this.sent.push({ account, raw, id, ...(requested ? { threadId: requested } : {}) });
    return { id, threadId, labelIds: ['SENT'] };
  }

  /** Drops a message for good (a draft's message, when the draft is replaced or deleted). */
  remove(id: string): void {
    this.messages.delete(id);
  }

  /** The stored message, for the draft operations (gmail-drafts.ts). */
  stored(id: string): StoredMessage | undefined {
    return this.messages.get(id);
  }

  /** Every message of the account, newest first, for list operations. */
  all(account: string): StoredMessage[] {
    return [...this.messages.values()]
      .filter((m) => m.account === account)
      .sort((x, y) => y.internalDate - x.internalDate);
  }

  modify(msg: StoredMessage, body: Record<string, unknown>): unknown {
    const known = new Set(this.labels(msg.account).map((l) => l.id as string));
    const add = (body.addLabelIds as string[] | undefined) ?? [];
    const remove = (body.removeLabelIds as string[] | undefined) ?? [];
    for (const l of [...add, ...remove])
      if (!known.has(l)) throw new HttpError(400, `Invalid label: ${l}`, 'invalidArgument');
    msg.labelIds = [...new Set([...msg.labelIds.filter((l) => !remove.includes(l)), ...add])];
    return { id: msg.id, threadId: msg.threadId, labelIds: msg.labelIds };
  }

  batchModify(account: string, body: Record<string, unknown>): undefined {
    const ids = (body.ids as string[] | undefined) ?? [];
    if (ids.length === 0) throw new HttpError(400, 'No message ids', 'invalidArgument');
    for (const id of ids) this.modify(this.find(account, id), body);
    return undefined;
  }
}
