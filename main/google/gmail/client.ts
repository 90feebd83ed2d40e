import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { gmail_v1, MethodOptions } from '@googleapis/gmail';
import type { GoogleAccountAccess } from '../account-access.js';
import { libs } from '../lazy.js';
import { reauthOn401 } from '../reauth.js';
import { classify, isRetriable } from '../failure.js';
import { GmailBatch, type BatchCall, type BatchResult } from './batch.js';
import { toToolError } from './errors.js';

export type GmailApi = gmail_v1.Gmail;

export interface RetryPolicy {
  /** Tries in all for a read (first try included). */
  attempts: number;
  /** First backoff; doubles each time, with jitter. */
  baseMs: number;
  /** A Retry-After longer than this is passed on to the agent rather than waited out. */
  maxWaitSeconds: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 400, maxWaitSeconds: 20 };

const apis = new Map<string, GmailApi>();
/**
 * One typed client per API root; the token travels per request, so one client
 * serves every account. @googleapis/gmail loads on the first call (issue 2).
 */
export async function gmailApi(rootUrl: string): Promise<GmailApi> {
  let api = apis.get(rootUrl);
  if (!api) {
    const { gmail } = await libs.gmail();
    api = apis.get(rootUrl) ?? gmail({ version: 'v1', rootUrl });
    apis.set(rootUrl, api);
  }
  return api;
}

/**
 * Gmail calls for one account: a fresh bearer token per request, our own
 * retry for reads (429 and 5xx with backoff, honouring Retry-After; issue 6)
 * and none for writes, since Gmail has no idempotency key and a retried send
 * could go out twice. Every failure leaves as a GoogleToolError.
 */
export class GmailClient {
  constructor(
    private readonly access: GoogleAccountAccess,
    readonly account: string,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly signal?: AbortSignal,
  ) {}

  private async options(): Promise<MethodOptions> {
    const token = await this.access.accessToken(this.account);
    // gaxios would retry on its own by default; retries are decided here instead.
    return {
      headers: { Authorization: `Bearer ${token}` },
      // Per call as well: googleapis-common applies the client's rootUrl to a method's JSON URL
      // but not to its media upload URL (/upload/gmail/v1/…, upload.ts), which the generated
      // method builds from this option or Google's own host.
      rootUrl: this.access.apiRoot(),
      retry: false,
      adapter: replayable(reauthOn401(this.access, this.account)),
      ...(this.signal ? { signal: this.signal } : {}),
    };
  }

  private api(): Promise<GmailApi> {
    return gmailApi(this.access.apiRoot());
  }

  /** A read, retried on rate limits and server errors. `onThrottle` hears about each rate limit. */
  async read<T>(
    what: string,
    call: (api: GmailApi, opts: MethodOptions) => Promise<{ data: T }>,
    onThrottle?: () => void,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await call(await this.api(), await this.options())).data;
      } catch (err) {
        const f = classify(err);
        if (!isRetriable(f) || attempt >= this.retry.attempts)
          throw toToolError(err, { account: this.account, what }, f);
        if (f.kind === 'rate-limited') onThrottle?.();
        if (f.retryAfterSeconds !== undefined && f.retryAfterSeconds > this.retry.maxWaitSeconds) {
          throw toToolError(err, { account: this.account, what }, f);
        }
        const backoff = this.retry.baseMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
        await sleep(Math.max(backoff, (f.retryAfterSeconds ?? 0) * 1000), this.signal);
      }
    }
  }

  /**
   * Many reads in as few round trips as Gmail allows (batch.ts): results in
   * call order, each a value or that call's own GoogleToolError.
   */
  batch<T>(calls: readonly BatchCall[], onThrottle?: () => void): Promise<BatchResult<T>[]> {
    return new GmailBatch(this.access, this.account, this.retry, this.signal, onThrottle).run<T>(
      calls,
    );
  }

  /** A write: exactly one request. */
  async write<T>(
    what: string,
    call: (api: GmailApi, opts: MethodOptions) => Promise<{ data: T }>,
  ): Promise<T> {
    try {
      return (await call(await this.api(), await this.options())).data;
    } catch (err) {
      throw toToolError(err, { account: this.account, what });
    }
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

type Adapter = NonNullable<MethodOptions['adapter']>;

/**
 * A streamed request body — a media upload (upload.ts), which googleapis-common hands over as a
 * stream — read into memory before it is sent (the message is in memory already, at most 35 MB),
 * so that the one resend after a 401 (reauthOn401) carries the whole message again rather than a
 * spent stream.
 */
function replayable(next: Adapter): Adapter {
  return async (options, send) => {
    // gaxios has already made `body` (what fetch sends) from `data`; both name the same stream.
    const body: unknown = options.body;
    if (!(body instanceof Readable)) return next(options, send);
    const whole = await buffer(body);
    return next({ ...options, body: whole, data: whole }, send);
  };
}
