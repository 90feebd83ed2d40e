import type { IncomingMessage } from 'node:http';

/**
 * A response's Content-Type as the stock SDK client's fetch gives it (`headers.get`): every
 * `Content-Type` line, in order, joined with ", " (undici 6.28 `HeadersList.append`, the Fetch
 * standard's "combine"). node:http keeps only the first of a repeated Content-Type (its
 * `matchKnownFields` drops the rest), so an answer the SDK refuses as an unexpected content type
 * — `application/json` twice is `application/json, application/json` to it — was read here as
 * JSON. The SDK's other response headers (`mcp-session-id`, `www-authenticate`, `dpop-nonce`,
 * `content-encoding`) node:http already joins as fetch does; `location`, which the SDK's
 * same-origin redirect handling reads, node:http drops as it drops Content-Type (`joinedHeader`).
 *
 * A scan of `rawHeaders` (node:http fills it before the answer is handed on; `headers` is built
 * from it lazily), by name length first: ≈ 15–20 ns an answer of five or six header lines, where
 * `headers['content-type']` is ≈ 3 (docs/remote.md). Undefined without
 * one. sdk-reader.socket.property.test.ts holds the readers' choice and refusal equal to the
 * SDK's over generated repeated headers.
 */
export function contentType(res: IncomingMessage): string | undefined {
  const raw = res.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 12) continue;
    // The two usual spellings first: `toLowerCase` makes a string (≈ 10 ns of the scan's ≈ 25).
    if (name !== 'content-type' && name !== 'Content-Type' && name.toLowerCase() !== 'content-type')
      continue;
    value = value === undefined ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}

/**
 * The response headers node:http keeps only the first of (Node 22 `_http_incoming.js`
 * `matchKnownFields`: its "drop duplicates" case), which fetch joins with ", " like any other.
 */
const FIRST_ONLY = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'referer',
  'host',
  'authorization',
  'proxy-authorization',
  'if-modified-since',
  'if-unmodified-since',
  'from',
  'location',
  'max-forwards',
  'retry-after',
  'etag',
  'last-modified',
  'server',
  'age',
  'expires',
]);

/**
 * Whether node:http's `headers[key]` (`key` in lower case) may differ from fetch's
 * `headers.get(key)` by dropping repeated lines: then read it with `joinedHeader`.
 */
export function firstOnly(key: string): boolean {
  return FIRST_ONLY.has(key);
}

/**
 * Header `key` (lower case) as fetch's `headers.get` gives it: every line of it, in order,
 * joined with ", ". Read on demand only (a 3xx's Location, review of h-rd): not on every answer.
 */
export function joinedHeader(res: IncomingMessage, key: string): string | undefined {
  if (key === 'content-type') return contentType(res);
  const raw = res.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== key.length || name.toLowerCase() !== key) continue;
    value = value === undefined ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}
