import type { SubResponse } from './gmail-batch.js';
import { errorBody, HttpError } from './gmail-shapes.js';

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
  /** A media upload (`/upload/gmail/v1/…`): its uploadType; the path is the method's own. */
  upload?: string;
  /** The request body's size in bytes. */
  bodyBytes?: number;
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

/** Failures a test injected (GmailFake.fail), each answering its matching requests until used up. */
export class InjectedFailures {
  private failures: (InjectedFailure & { left: number })[] = [];

  add(f: InjectedFailure): void {
    this.failures.push({ ...f, left: f.times ?? 1 });
  }

  /** The answer of an injected failure matching this request, if one is left. */
  answer(rec: RecordedRequest): SubResponse | undefined {
    const f = this.failures.find((x) => x.left > 0 && x.match(rec));
    if (!f) return undefined;
    f.left--;
    return {
      ...errorBody(new HttpError(f.status, undefined, f.reason)),
      ...(f.retryAfter !== undefined ? { headers: { 'Retry-After': String(f.retryAfter) } } : {}),
    };
  }
}

/**
 * The longest chain of HTTP requests each sent only after the previous one
 * was answered: how many round trips of latency a client waited in sequence.
 */
export function roundTrips(requests: readonly RecordedRequest[]): number {
  const reqs = requests.filter((r) => !r.batched).sort((a, b) => a.startedAt - b.startedAt);
  const depth: number[] = [];
  reqs.forEach((r, i) => {
    let best = 0;
    for (let j = 0; j < i; j++)
      if ((reqs[j]!.endedAt ?? Infinity) <= r.startedAt) best = Math.max(best, depth[j]!);
    depth.push(best + 1);
  });
  return Math.max(0, ...depth);
}
