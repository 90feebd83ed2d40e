import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonTooDeep, MAX_JSON_DEPTH } from '../platform/json-depth.js';

/**
 * Request guards, applied in this order by the gateway (issue 2, item 6):
 * Host → Origin → bearer token → body limit. They defend against DNS
 * rebinding (GHSA-w48q-cv73-mx4w): a page on evil.example that resolves to
 * 127.0.0.1 still sends `Host: evil.example` and its own Origin.
 */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export function hostAllowed(host: string | undefined): boolean {
  return typeof host === 'string' && LOOPBACK_HOST.test(host);
}

/** An absent Origin is fine (non-browser clients); a present one must be a loopback http(s) origin. */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    LOOPBACK_NAMES.has(url.hostname.toLowerCase())
  );
}

export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  // A test and the token cut out, not a match: its array was made on every request (issue 34,
  // wave 3 session 32). What follows "Bearer" is whitespace, the token (no whitespace in it) and
  // whitespace, and `trim` drops exactly what `\s` matches (ECMA-262: WhiteSpace and
  // LineTerminator both), so this is the capture. guards.bearer.property.test.ts holds it to it.
  return BEARER.test(header) ? header.slice(6).trim() : null;
}
const BEARER = /^Bearer\s+[A-Za-z0-9._~+/=-]+\s*$/i;

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/**
 * Reads the body up to `limit` bytes. A declared Content-Length over the
 * limit is refused before reading; a stream that grows past it is cut off as
 * soon as it crosses, so an oversized body is never buffered whole.
 *
 * On plain 'data'/'end' listeners rather than `for await`: the async iterator costs an
 * end-of-stream watcher, an async resource and a promise per chunk, on every /mcp POST
 * (issue 34, about 2% of the gateway's CPU per passthrough call). What it did on the way out
 * is kept: a body past the limit destroys the request, and a client that hangs up mid-body
 * fails it with ERR_STREAM_PREMATURE_CLOSE (http-server.ts treats that as the client's business).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError());
  // Its resolvers without an executor function (issue 34: one function less per POST; ES2024,
  // Node 22+; tsconfig.base.json names ES2024.Promise for it).
  const { promise, resolve, reject } = Promise.withResolvers<Buffer>();
  const chunks: Buffer[] = [];
  let size = 0;
  // Also the 'end' listener itself ('end' is emitted with no argument): one function less on
  // every POST's path than a wrapper calling settle(undefined) (issue 34).
  const settle = (err?: Error) => {
    req.off('data', onData).off('end', settle).off('error', settle).off('close', onClose);
    if (err) reject(err);
    else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) return void chunks.push(chunk);
    req.pause();
    settle(new BodyTooLargeError());
    req.destroy();
  };
  const onClose = () => {
    const err = new Error('Premature close') as Error & { code: string };
    err.code = 'ERR_STREAM_PREMATURE_CLOSE';
    settle(err);
  };
  // A request that ended or went away before this call emits nothing more: answer now, as the
  // async iterator did (its end-of-stream watcher saw the state, not only the events).
  if (req.readableEnded) resolve(Buffer.alloc(0));
  else if (req.destroyed) onClose();
  else req.on('data', onData).on('end', settle).on('error', settle).on('close', onClose);
  return promise;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    // A 404 quotes the path it was sent: never read as anything but JSON (red-team wave 4).
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

export function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): void {
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);
}

/** True for a JSON-RPC 2.0 message or a non-empty batch of them. */
export function isJsonRpcShaped(body: unknown): boolean {
  if (Array.isArray(body)) return body.length > 0 && body.every(batchMember);
  // One message, the everyday body, is checked in place (issue 34: not a closure made and called
  // per POST).
  return (
    !!body &&
    typeof body === 'object' &&
    (body as Record<string, unknown>).jsonrpc === '2.0' &&
    (typeof (body as Record<string, unknown>).method === 'string' ||
      'result' in body ||
      'error' in body)
  );
}

/** A batch's member: one message (not a batch in a batch). */
const batchMember = (m: unknown): boolean => !Array.isArray(m) && isJsonRpcShaped(m);

/**
 * The depth bound on request bodies is the one on servers' answers (platform/json-depth.ts):
 * deeper bodies are refused before parsing (issue 17, item 8).
 */
export { jsonTooDeep, MAX_JSON_DEPTH };

export type ParsedBody =
  { ok: true; value: unknown } | { ok: false; code: number; message: string };

/** JSON.parse with the depth check first; the failure carries the JSON-RPC error to answer. */
export function parseJsonBody(raw: Buffer): ParsedBody {
  if (jsonTooDeep(raw)) {
    return {
      ok: false,
      code: -32600,
      message: `Invalid Request: the JSON is nested deeper than ${MAX_JSON_DEPTH} levels; Airlock refuses it without parsing.`,
    };
  }
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return { ok: false, code: -32700, message: 'Parse error: the body is not valid JSON' };
  }
}
