import { randomBytes } from 'node:crypto';
import { GoogleToolError, type GoogleAccountAccess } from '../account-access.js';
import { classifyResponse, isRetriable, type GoogleFailure } from '../failure.js';
import { libs } from '../lazy.js';
import { sleep, type RetryPolicy } from './client.js';
import { toToolError } from './errors.js';

/**
 * Gmail's batch endpoint (developers.google.com/gmail/api/guides/batch): up
 * to 100 GETs in one `POST /batch/gmail/v1` round trip instead of one request
 * each (issue 18.5). The body is `multipart/mixed`, one `application/http`
 * part per call, and so is the answer; each answered part has its own status,
 * so a call can fail alone. Parts that failed for a reason worth retrying
 * (429 "Too many concurrent requests for user", 5xx) go again in one smaller
 * batch after a backoff; the rest become per-call errors. The answer is parsed
 * with meros (a maintained multipart/mixed reader); the inner HTTP response
 * of each part is three lines of our own.
 */

/** Gmail advises batches of at most 50 (the hard limit is 100). */
export const BATCH_SIZE = 50;

export interface BatchCall {
  /** Path and query below the API root, e.g. `gmail/v1/users/me/messages/ID?format=full`. */
  path: string;
  /** What the call is about, for error texts ("message 18c…"). */
  what: string;
}

export type BatchResult<T> = { ok: true; data: T } | { ok: false; error: GoogleToolError };

interface PartAnswer {
  status: number;
  headers: Headers;
  body: string;
}

export class GmailBatch {
  constructor(
    private readonly access: GoogleAccountAccess,
    private readonly account: string,
    private readonly retry: RetryPolicy,
    private readonly signal?: AbortSignal,
    /** Told about each round with rate-limited parts. */
    private readonly onThrottle?: () => void,
  ) {}

  /** Runs every call, BATCH_SIZE per request, the requests in parallel; results in call order. */
  async run<T>(calls: readonly BatchCall[]): Promise<BatchResult<T>[]> {
    const results = new Array<BatchResult<T>>(calls.length);
    let pending = calls.map((_, i) => i);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const retryLater: { index: number; f: GoogleFailure }[] = [];
      const chunks: number[][] = [];
      for (let i = 0; i < pending.length; i += BATCH_SIZE)
        chunks.push(pending.slice(i, i + BATCH_SIZE));
      await Promise.all(
        chunks.map(async (chunk) => {
          const answers = await this.send(chunk.map((i) => calls[i]!));
          chunk.forEach((index, k) => {
            const a = answers[k];
            const call = calls[index]!;
            if (a && a.status >= 200 && a.status < 300) {
              results[index] = { ok: true, data: (a.body ? JSON.parse(a.body) : {}) as T };
              return;
            }
            const f = a
              ? classifyResponse(a.status, a.body, a.headers)
              : classifyResponse(500, { error: { message: 'Gmail left this call unanswered.' } });
            if (isRetriable(f) && attempt < this.retry.attempts) retryLater.push({ index, f });
            else results[index] = { ok: false, error: this.error(call, f) };
          });
        }),
      );
      if (retryLater.length === 0) break;
      if (retryLater.some((r) => r.f.kind === 'rate-limited')) this.onThrottle?.();
      const hint = Math.max(0, ...retryLater.map((r) => r.f.retryAfterSeconds ?? 0));
      if (hint > this.retry.maxWaitSeconds) {
        for (const r of retryLater)
          results[r.index] = { ok: false, error: this.error(calls[r.index]!, r.f) };
        break;
      }
      const backoff = this.retry.baseMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
      await sleep(Math.max(backoff, hint * 1000), this.signal);
      pending = retryLater.map((r) => r.index);
    }
    return results;
  }

  private error(call: BatchCall, f: GoogleFailure): GoogleToolError {
    return toToolError(null, { account: this.account, what: call.what }, f);
  }

  /**
   * One batch request; the whole request is retried like a read when Google
   * answers it (not its parts) with 429 or 5xx, and a 401 gets one refresh.
   */
  private async send(calls: BatchCall[]): Promise<(PartAnswer | undefined)[]> {
    const root = this.access.apiRoot();
    const boundary = `batch_airlock_${randomBytes(9).toString('base64url')}`;
    const body =
      calls
        .map((c, i) => {
          const u = new URL(c.path, root);
          return `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <item-${i}>\r\n\r\nGET ${u.pathname}${u.search}\r\nAccept: application/json\r\n\r\n`;
        })
        .join('') + `--${boundary}--\r\n`;
    for (let attempt = 1; ; attempt++) {
      let token = await this.access.accessToken(this.account);
      const post = () =>
        fetch(new URL('batch/gmail/v1', root), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': `multipart/mixed; boundary=${boundary}`,
          },
          body,
          ...(this.signal ? { signal: this.signal } : {}),
        });
      let res: Response;
      try {
        res = await post();
        if (res.status === 401 && this.access.tokenRejected) {
          await res.body?.cancel();
          this.access.tokenRejected(this.account, token);
          token = await this.access.accessToken(this.account);
          res = await post();
        }
      } catch (err) {
        throw toToolError(err, { account: this.account, what: `${calls.length} messages` });
      }
      if (res.ok) return this.parse(res, calls.length);
      const f = classifyResponse(res.status, await res.text().catch(() => ''), res.headers);
      const wait = f.retryAfterSeconds ?? 0;
      if (!isRetriable(f) || attempt >= this.retry.attempts || wait > this.retry.maxWaitSeconds)
        throw toToolError(null, { account: this.account, what: `${calls.length} messages` }, f);
      if (f.kind === 'rate-limited') this.onThrottle?.();
      const backoff = this.retry.baseMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
      await sleep(Math.max(backoff, wait * 1000), this.signal);
    }
  }

  /** Each part's inner HTTP response, placed by its Content-ID (`<response-item-N>`), else by order. */
  private async parse(res: Response, n: number): Promise<(PartAnswer | undefined)[]> {
    const { meros } = await libs.meros();
    const parts = await meros<unknown>(res);
    const out = new Array<PartAnswer | undefined>(n);
    if (parts instanceof Response) return out; // not multipart: every call counts as unanswered
    let next = 0;
    for await (const part of parts) {
      const cid = /item-(\d+)>?$/.exec(part.headers['content-id'] ?? '')?.[1];
      const at = cid !== undefined ? Number(cid) : next;
      next = at + 1;
      const text = typeof part.body === 'string' ? part.body : JSON.stringify(part.body);
      if (at < n) out[at] = innerResponse(text);
    }
    return out;
  }
}

/** "HTTP/1.1 404 Not Found\r\nContent-Type: …\r\n\r\n{…}" → status, headers, body. */
function innerResponse(text: string): PartAnswer | undefined {
  const split = /\r?\n\r?\n/.exec(text);
  const head = split ? text.slice(0, split.index) : text;
  const body = split ? text.slice(split.index + split[0].length).trim() : '';
  const [statusLine = '', ...lines] = head.split(/\r?\n/);
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(statusLine.trim())?.[1];
  if (!status) return undefined;
  const headers = new Headers();
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
  }
  return { status: Number(status), headers, body };
}
