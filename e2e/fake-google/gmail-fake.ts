import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BATCH_PATH,
  parseBatch,
  renderBatch,
  type SubRequest,
  type SubResponse,
} from './gmail-batch.js';
import { headerValue, parseMessage, walk } from './gmail-mime.js';
import {
  errorBody,
  HttpError,
  matches,
  plainText,
  renderMessage,
  SYSTEM_LABELS,
  type StoredMessage,
} from './gmail-shapes.js';

/**
 * A fake Gmail API v1 on loopback for tests and benchmarks, answering in
 * Google's documented shapes (developers.google.com/gmail/api/reference/rest):
 * messages.list/get (full, metadata, minimal, raw), attachments.get,
 * threads.get, labels.list, drafts.create, messages.send (the raw RFC 822 it
 * received is kept, decoded), modify/batchModify/trash, and Google's error
 * body `{ error: { code, message, errors: [...], status } }` for 400, 401,
 * 403, 404, 429 and 500; and the batch endpoint (gmail-batch.ts), whose calls
 * can fail one by one. It counts requests and the most in flight at once.
 * The `fields` parameter is accepted and not applied (the full object is a
 * superset of any partial response).
 */

export interface FakeAccount {
  email: string;
  token: string;
  /** Only gmail.readonly: every write answers 403 insufficient scopes. */
  readOnly?: boolean;
  /** The name in Gmail's "Send mail as" settings (users.settings.sendAs). */
  displayName?: string;
}

export interface SeedMessage {
  raw: Buffer;
  labelIds?: string[];
  /** Messages with the same key share a thread. */
  thread?: string;
  /** Milliseconds since the epoch; defaults to the Date header. */
  internalDate?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  account?: string;
  /** performance.now() when the request arrived and when its answer was sent. */
  startedAt: number;
  endedAt?: number;
  /** A call inside a batch (not an HTTP request of its own). */
  batched?: boolean;
  /** For a batch request: how many calls it held. */
  batchSize?: number;
}

export interface InjectedFailure {
  /** Which requests fail, e.g. `(r) => r.method === 'GET' && /\/messages\/\w+$/.test(r.path)`. */
  match: (r: RecordedRequest) => boolean;
  status: 400 | 401 | 403 | 404 | 429 | 500 | 503;
  /** How many matching requests fail; default 1. */
  times?: number;
  retryAfter?: number;
  reason?: string;
}

export class GmailFake {
  readonly requests: RecordedRequest[] = [];
  /** Every message sent through messages.send, as the raw RFC 822 bytes received. */
  readonly sent: { account: string; raw: Buffer; threadId?: string; id: string }[] = [];
  readonly drafts: { account: string; raw: Buffer; threadId?: string; id: string }[] = [];
  inflight = 0;
  maxInflight = 0;
  /** Added to every response, to model a network round trip. */
  latencyMs: number;
  /** Calls of one batch answered before the rest get 429 (Gmail's per-user concurrency); unset: no limit. */
  batchConcurrency: number | undefined;
  private server: Server | undefined;
  private readonly messages = new Map<string, StoredMessage>();
  private readonly attachmentIds = new Map<string, { messageId: string; partId: string }>();
  private readonly userLabels = new Map<string, { id: string; name: string }[]>();
  private failures: (InjectedFailure & { left: number })[] = [];
  private nextId = 0x18f2a4c1b0000000n;
  private url = '';

  constructor(
    private readonly accounts: FakeAccount[],
    options: { latencyMs?: number } = {},
  ) {
    this.latencyMs = options.latencyMs ?? 0;
    this.batchConcurrency = undefined;
  }

  /** The API root for `rootUrl` (ends with '/'). */
  get root(): string {
    return this.url;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

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
    const id = `Label_${list.length + 1}${String(list.length * 7919).padStart(4, '0')}`;
    list.push({ id, name });
    this.userLabels.set(account, list);
    return id;
  }

  message(id: string): { labelIds: string[]; threadId: string } | undefined {
    return this.messages.get(id);
  }

  /** Makes the next matching requests fail with Google's error body. */
  fail(f: InjectedFailure): void {
    this.failures.push({ ...f, left: f.times ?? 1 });
  }

  /** Calls answered, batched ones included (a batch itself is counted too, as POST /batch/gmail/v1). */
  count(pred: (r: RecordedRequest) => boolean = () => true): number {
    return this.requests.filter(pred).length;
  }

  /** HTTP requests received (a batch is one). */
  httpRequests(): number {
    return this.requests.filter((r) => !r.batched).length;
  }

  /**
   * The longest chain of HTTP requests each sent only after the previous one
   * was answered: how many round trips of latency a client waited in sequence.
   */
  roundTrips(): number {
    const reqs = this.requests.filter((r) => !r.batched).sort((a, b) => a.startedAt - b.startedAt);
    const depth: number[] = [];
    reqs.forEach((r, i) => {
      let best = 0;
      for (let j = 0; j < i; j++)
        if ((reqs[j]!.endedAt ?? Infinity) <= r.startedAt) best = Math.max(best, depth[j]!);
      depth.push(best + 1);
    });
    return Math.max(0, ...depth);
  }

  resetCounters(): void {
    this.requests.length = 0;
    this.maxInflight = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inflight++;
    this.maxInflight = Math.max(this.maxInflight, this.inflight);
    const url = new URL(req.url ?? '/', 'http://fake');
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      startedAt: performance.now(),
    };
    this.requests.push(rec);
    let answer: SubResponse & { raw?: { contentType: string; body: Buffer } };
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const account = this.accounts.find((a) => a.token === token);
      if (!account) throw new HttpError(401);
      rec.account = account.email;
      if (rec.method === 'POST' && rec.path === BATCH_PATH) {
        // One HTTP round trip; every part is answered (and may fail) on its own.
        const subs = parseBatch(req.headers['content-type'], Buffer.concat(chunks));
        rec.batchSize = subs.length;
        answer = this.injected(rec) ?? {
          status: 200,
          raw: renderBatch(
            subs,
            subs.map((sub, i) => this.serveBatched(sub, i, account)),
          ),
        };
      } else {
        answer = this.serve(rec, account, Buffer.concat(chunks));
      }
    } catch (err) {
      const { status, body } = errorBody(err);
      answer = { status, body };
    }
    if (answer.raw)
      res.writeHead(200, { 'content-type': answer.raw.contentType }).end(answer.raw.body);
    else if (answer.body === undefined) res.writeHead(answer.status, answer.headers).end();
    else
      res
        .writeHead(answer.status, {
          'content-type': 'application/json; charset=UTF-8',
          ...answer.headers,
        })
        .end(JSON.stringify(answer.body));
    this.inflight--;
    rec.endedAt = performance.now();
  }

  /** One call, alone or inside a batch: injected failures first, then the API itself. */
  private serve(rec: RecordedRequest, account: FakeAccount, raw: Buffer): SubResponse {
    const failed = this.injected(rec);
    if (failed) return failed;
    try {
      const body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
      const result = this.route(rec, account, body);
      return result === undefined ? { status: 204 } : { status: 200, body: result };
    } catch (err) {
      const { status, body } = errorBody(err);
      return { status, body };
    }
  }

  /** The answer of an injected failure matching this request, if one is left. */
  private injected(rec: RecordedRequest): SubResponse | undefined {
    const f = this.failures.find((x) => x.left > 0 && x.match(rec));
    if (!f) return undefined;
    f.left--;
    return {
      ...errorBody(new HttpError(f.status, undefined, f.reason)),
      ...(f.retryAfter !== undefined ? { headers: { 'Retry-After': String(f.retryAfter) } } : {}),
    };
  }

  /**
   * A call inside a batch, recorded with `batched`. Past `batchConcurrency`
   * parts Gmail answers 429 "Too many concurrent requests for user" for the
   * rest (the documented per-user concurrency limit); the client retries those.
   */
  private serveBatched(sub: SubRequest, index: number, account: FakeAccount): SubResponse {
    const url = new URL(sub.target, 'http://fake');
    const rec: RecordedRequest = {
      method: sub.method,
      path: url.pathname,
      query: url.searchParams,
      account: account.email,
      startedAt: performance.now(),
      batched: true,
    };
    this.requests.push(rec);
    const out =
      this.batchConcurrency !== undefined && index >= this.batchConcurrency
        ? {
            status: 429,
            body: errorBody(
              new HttpError(429, 'Too many concurrent requests for user.', 'rateLimitExceeded'),
            ).body,
          }
        : this.serve(rec, account, sub.body);
    rec.endedAt = performance.now();
    return out;
  }

  private route(r: RecordedRequest, account: FakeAccount, body: Record<string, unknown>): unknown {
    const m = /^\/gmail\/v1\/users\/([^/]+)\/(.+)$/.exec(r.path);
    if (!m || (m[1] !== 'me' && decodeURIComponent(m[1]!) !== account.email))
      throw new HttpError(404);
    const rest = m[2]!.split('/').map(decodeURIComponent);
    const write = r.method !== 'GET';
    if (write && account.readOnly) throw new HttpError(403);
    const [a, b, c, d] = rest;
    if (r.method === 'GET' && a === 'messages' && rest.length === 1)
      return this.list(account.email, r.query);
    if (r.method === 'GET' && a === 'messages' && rest.length === 2)
      return this.render(this.find(account.email, b!), r.query);
    if (r.method === 'GET' && a === 'messages' && c === 'attachments' && d)
      return this.attachment(account.email, b!, d);
    if (r.method === 'GET' && a === 'threads' && rest.length === 2)
      return this.thread(account.email, b!, r.query);
    if (r.method === 'GET' && a === 'settings' && b === 'sendAs' && rest.length === 2)
      return { sendAs: [this.sendAsOf(account)] };
    if (r.method === 'GET' && a === 'labels' && rest.length === 1)
      return { labels: this.labels(account.email) };
    if (r.method === 'POST' && a === 'messages' && b === 'send')
      return this.receive(account.email, body, 'sent');
    if (r.method === 'POST' && a === 'drafts' && rest.length === 1)
      return this.receive(account.email, (body.message ?? {}) as Record<string, unknown>, 'draft');
    if (r.method === 'POST' && a === 'messages' && b === 'batchModify')
      return this.batchModify(account.email, body);
    if (r.method === 'POST' && a === 'messages' && c === 'modify')
      return this.modify(this.find(account.email, b!), body);
    if (r.method === 'POST' && a === 'messages' && c === 'trash')
      return this.modify(this.find(account.email, b!), {
        addLabelIds: ['TRASH'],
        removeLabelIds: ['INBOX'],
      });
    // Permanent delete needs https://mail.google.com/, which Airlock never holds.
    if (r.method === 'DELETE' || (a === 'messages' && b === 'batchDelete'))
      throw new HttpError(403);
    throw new HttpError(404);
  }

  /** The account's own address as Gmail lists it under "Send mail as" (primary and default). */
  private sendAsOf(account: FakeAccount): Record<string, unknown> {
    return {
      sendAsEmail: account.email,
      displayName: account.displayName ?? '',
      replyToAddress: '',
      signature: '',
      isPrimary: true,
      isDefault: true,
    };
  }

  private find(account: string, id: string): StoredMessage {
    if (!/^[0-9a-f]{16}$/.test(id)) throw new HttpError(400);
    const msg = this.messages.get(id);
    if (!msg || msg.account !== account) throw new HttpError(404);
    return msg;
  }

  private list(account: string, q: URLSearchParams): unknown {
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
    const max = Math.min(500, Number(q.get('maxResults') ?? 100) || 100);
    const start = Number(Buffer.from(q.get('pageToken') ?? '', 'base64url').toString() || 0);
    const page = all.slice(start, start + max);
    return {
      ...(page.length ? { messages: page.map((m) => ({ id: m.id, threadId: m.threadId })) } : {}),
      ...(start + max < all.length
        ? { nextPageToken: Buffer.from(String(start + max)).toString('base64url') }
        : {}),
      resultSizeEstimate: all.length,
    };
  }

  private render(msg: StoredMessage, q: URLSearchParams): Record<string, unknown> {
    return renderMessage(msg, q, (part) => {
      // Real attachment ids are long (300+ characters) and differ between responses.
      const aid = `ANGjdJ${randomBytes(240).toString('base64url')}`;
      this.attachmentIds.set(aid, { messageId: msg.id, partId: part.partId });
      return aid;
    });
  }

  private attachment(account: string, messageId: string, attachmentId: string): unknown {
    const msg = this.find(account, messageId);
    const ref = this.attachmentIds.get(attachmentId);
    if (!ref || ref.messageId !== msg.id) throw new HttpError(400, 'Invalid attachment token');
    const part = [...walk(msg.root)].find((p) => p.partId === ref.partId)!;
    return { size: part.bytes.length, data: part.bytes.toString('base64url') };
  }

  private thread(account: string, id: string, q: URLSearchParams): unknown {
    if (!/^[0-9a-f]{16}$/.test(id)) throw new HttpError(400);
    const msgs = [...this.messages.values()]
      .filter((m) => m.account === account && m.threadId === id)
      .sort((x, y) => x.internalDate - y.internalDate);
    if (msgs.length === 0) throw new HttpError(404);
    return { id, historyId: '4242', messages: msgs.map((m) => this.render(m, q)) };
  }

  private labels(account: string): Record<string, unknown>[] {
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

  private receive(account: string, body: Record<string, unknown>, kind: 'sent' | 'draft'): unknown {
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
      {
        raw,
        labelIds: kind === 'sent' ? ['SENT'] : ['DRAFT'],
        internalDate: Date.now(),
        ...(requested ? { thread: 't' } : {}),
      },
      threads,
    );
    const record = { account, raw, id, ...(requested ? { threadId: requested } : {}) };
    if (kind === 'sent') {
      this.sent.push(record);
      return { id, threadId, labelIds: ['SENT'] };
    }
    const draftId = `r${BigInt('0x' + id)
      .toString()
      .slice(-19)}`;
    this.drafts.push({ ...record, id: draftId });
    return { id: draftId, message: { id, threadId, labelIds: ['DRAFT'] } };
  }

  private modify(msg: StoredMessage, body: Record<string, unknown>): unknown {
    const known = new Set(this.labels(msg.account).map((l) => l.id as string));
    const add = (body.addLabelIds as string[] | undefined) ?? [];
    const remove = (body.removeLabelIds as string[] | undefined) ?? [];
    for (const l of [...add, ...remove])
      if (!known.has(l)) throw new HttpError(400, `Invalid label: ${l}`, 'invalidArgument');
    msg.labelIds = [...new Set([...msg.labelIds.filter((l) => !remove.includes(l)), ...add])];
    return { id: msg.id, threadId: msg.threadId, labelIds: msg.labelIds };
  }

  private batchModify(account: string, body: Record<string, unknown>): undefined {
    const ids = (body.ids as string[] | undefined) ?? [];
    if (ids.length === 0) throw new HttpError(400, 'No message ids', 'invalidArgument');
    for (const id of ids) this.modify(this.find(account, id), body);
    return undefined;
  }
}
