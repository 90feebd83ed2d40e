import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BATCH_PATH,
  parseBatch,
  renderBatch,
  type SubRequest,
  type SubResponse,
} from './gmail-batch.js';
import { GmailDrafts, NOT_MINE } from './gmail-drafts.js';
import { GmailMailbox, type SeedMessage } from './gmail-mailbox.js';
import { GmailSettings } from './gmail-settings.js';
import { errorBody, HttpError } from './gmail-shapes.js';
import {
  InjectedFailures,
  roundTrips,
  type InjectedFailure,
  type RecordedRequest,
} from './gmail-requests.js';
import { unwrapUpload } from './gmail-upload.js';

export type { SeedMessage } from './gmail-mailbox.js';
export type { InjectedFailure, RecordedRequest } from './gmail-requests.js';

/**
 * A fake Gmail API v1 on loopback for tests and benchmarks, answering in
 * Google's documented shapes (developers.google.com/gmail/api/reference/rest):
 * messages.list/get (full, metadata, minimal, raw), attachments.get,
 * threads.get, labels and settings (labels, filters, forwarding addresses,
 * send-as: gmail-settings.ts), drafts (create, list, get, update, send, delete:
 * gmail-drafts.ts), messages.send (the raw RFC 822 it received is kept,
 * decoded), modify/batchModify/trash, and Google's error
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
  /** Granted without gmail.settings.basic: filter changes answer 403 insufficient scopes. */
  noSettingsScope?: boolean;
}

export class GmailFake {
  readonly requests: RecordedRequest[] = [];
  readonly box = new GmailMailbox();
  /** Every message sent through messages.send, as the raw RFC 822 bytes received. */
  readonly sent = this.box.sent;
  readonly draftStore = new GmailDrafts(this.box, this.box.sent);
  /** Labels, filters, forwarding addresses and send-as (gmail-settings.ts). */
  readonly settings = new GmailSettings(this.box);
  /** Every draft as created or last updated (the raw RFC 822 received). */
  readonly drafts = this.draftStore.log;
  inflight = 0;
  maxInflight = 0;
  /** Added to every response, to model a network round trip. */
  latencyMs: number;
  /** Calls of one batch answered before the rest get 429 (Gmail's per-user concurrency); unset: no limit. */
  batchConcurrency: number | undefined;
  private server: Server | undefined;
  private readonly failures = new InjectedFailures();
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

  /** Stores a message in the account's mailbox; returns its id and thread id. */
  add(
    account: string,
    seed: SeedMessage,
    threads?: Map<string, string>,
  ): { id: string; threadId: string } {
    return this.box.add(account, seed, threads);
  }

  addLabel(account: string, name: string): string {
    return this.box.addLabel(account, name);
  }

  message(id: string): { labelIds: string[]; threadId: string } | undefined {
    return this.box.message(id);
  }

  /** One more token Google accepts for an account (a refreshed access token). */
  addToken(email: string, token: string): void {
    const a = this.accounts.find((x) => x.email === email);
    if (a) this.accounts.push({ ...a, token });
  }

  /** Makes the next matching requests fail with Google's error body. */
  fail(f: InjectedFailure): void {
    this.failures.add(f);
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
    return roundTrips(this.requests);
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
        answer = this.failures.answer(rec) ?? {
          status: 200,
          raw: renderBatch(
            subs,
            subs.map((sub, i) => this.serveBatched(sub, i, account)),
          ),
        };
      } else {
        const body = Buffer.concat(chunks);
        rec.bodyBytes = body.length;
        // JSON bodies past Google's payload limit are refused; an upload carries a whole message.
        const upload = unwrapUpload(
          rec.method,
          rec.path,
          rec.query,
          req.headers['content-type'],
          body,
        );
        if (upload) {
          rec.upload = rec.query.get('uploadType') ?? '';
          rec.path = upload.path;
        }
        answer = this.serve(rec, account, body, upload?.body);
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
  private serve(
    rec: RecordedRequest,
    account: FakeAccount,
    raw: Buffer,
    parsed?: Record<string, unknown>,
  ): SubResponse {
    const failed = this.failures.answer(rec);
    if (failed) return failed;
    try {
      const body =
        parsed ?? (raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {});
      const result = this.route(rec, account, body);
      return result === undefined ? { status: 204 } : { status: 200, body: result };
    } catch (err) {
      const { status, body } = errorBody(err);
      return { status, body };
    }
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
      return this.box.list(account.email, r.query);
    if (r.method === 'GET' && a === 'messages' && rest.length === 2)
      return this.box.render(this.box.find(account.email, b!), r.query);
    if (r.method === 'GET' && a === 'messages' && c === 'attachments' && d)
      return this.box.attachment(account.email, b!, d);
    if (r.method === 'GET' && a === 'threads' && rest.length === 2)
      return this.box.thread(account.email, b!, r.query);
    const set = this.settings.route(r.method, rest, account, body);
    if (set !== NOT_MINE) return set;
    if (r.method === 'POST' && a === 'messages' && b === 'send')
      return this.box.send(account.email, body);
    const drafted = this.draftStore.route(r.method, rest, account.email, body, r.query);
    if (drafted !== NOT_MINE) return drafted;
    if (r.method === 'POST' && a === 'messages' && b === 'batchModify')
      return this.box.batchModify(account.email, body);
    if (r.method === 'POST' && a === 'messages' && c === 'modify')
      return this.box.modify(this.box.find(account.email, b!), body);
    if (r.method === 'POST' && a === 'messages' && c === 'trash')
      return this.box.modify(this.box.find(account.email, b!), {
        addLabelIds: ['TRASH'],
        removeLabelIds: ['INBOX'],
      });
    // Permanent delete needs https://mail.google.com/, which Airlock never holds.
    if (r.method === 'DELETE' || (a === 'messages' && b === 'batchDelete'))
      throw new HttpError(403);
    throw new HttpError(404);
  }
}
