import type { IncomingMessage, ServerResponse } from 'node:http';
import { FIRST_EVENT_WAIT_MS } from './event-stream.js';

/**
 * Serves one /mcp request through a web-standard handler (the SDK's 2026-07-28 leg, which ties
 * a request's cancellation to its Request's signal). 2025-era sessions do not come here: they run
 * on Node's own request and response (session-transport.ts).
 */
export async function serveWeb(
  req: IncomingMessage,
  res: ServerResponse,
  raw: Buffer | undefined,
  parsedBody: unknown,
  handler: (request: Request) => Promise<Response>,
): Promise<void> {
  // Cancels the call when the client goes away before its answer is complete. A response that
  // finished normally also closes; aborting then would only cost a DOMException and its listeners
  // on every call (issue 20).
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  // The body is already parsed and goes to the SDK as `parsedBody`; the web Request need not
  // carry it a second time (undici's body extraction was ≈ 1% of a passthrough call, issue 20).
  const response = await handler(
    webRequest(req, parsedBody === undefined ? raw : undefined, abort.signal),
  );
  await writeResponse(response, res);
}

/**
 * The web-standard Request the SDK's transports take. Built here rather than with
 * @modelcontextprotocol/node's toWebRequest, which re-serializes the parsed body (JSON.stringify
 * and a byte count on every call) and whose package pulls Hono in at start (≈9 MB of idle RSS):
 * the bytes already read are the body, unchanged.
 */
function webRequest(req: IncomingMessage, raw: Buffer | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'transfer-encoding') continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  if (raw) headers.set('content-length', String(raw.length));
  const method = req.method ?? 'GET';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    signal,
    ...(raw && method !== 'GET' && method !== 'HEAD' ? { body: raw } : {}),
  });
}

const LATER = Symbol('later');
type Read = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  // Node holds the headers until the first body write and sends both together.
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.once('close', cancel);
  let ended = false;
  try {
    let next = reader.read();
    if (headers['content-type']?.startsWith('text/event-stream')) {
      const first = await settledWithin(next, afterMs(FIRST_EVENT_WAIT_MS));
      if (first === LATER) res.flushHeaders();
    }
    // A chunk is held until the next read settles or the event loop turns: when the stream closes
    // right behind its last event (a POST's answer), res.end(chunk) sends both in one write.
    let held: Uint8Array | undefined;
    for (;;) {
      const r = held ? await settledWithin(next, nextTurn) : await next;
      if (r === LATER || !r.done) {
        if (held && !res.write(held))
          await new Promise<void>((f) => res.once('drain', f).once('close', f));
        held = undefined;
        if (res.destroyed) break;
        if (r === LATER) continue;
        held = r.value;
        next = reader.read();
        continue;
      }
      ended = true;
      res.end(held);
      break;
    }
  } catch {
    // The client went away mid-stream; nothing to answer.
  } finally {
    res.off('close', cancel);
    if (!ended) {
      // Left early (client gone, or the stream failed): release the stream's source too.
      cancel();
      res.end();
    }
  }
}

/** `read`'s result if it settles before `arm`'s timer fires, else LATER (`read` keeps going). */
function settledWithin(
  read: Promise<Read>,
  arm: (fire: () => void) => () => void,
): Promise<Read | typeof LATER> {
  return new Promise((resolve, reject) => {
    const disarm = arm(() => resolve(LATER));
    read.then(
      (r) => {
        disarm();
        resolve(r);
      },
      (err: unknown) => {
        disarm();
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

const afterMs =
  (ms: number) =>
  (fire: () => void): (() => void) => {
    const t = setTimeout(fire, ms);
    return () => clearTimeout(t);
  };

const nextTurn = (fire: () => void): (() => void) => {
  const i = setImmediate(fire);
  return () => clearImmediate(i);
};
