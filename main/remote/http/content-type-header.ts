import type { IncomingMessage } from 'node:http';

/**
 * A response's Content-Type as the stock SDK client's fetch gives it (`headers.get`): every
 * `Content-Type` line, in order, joined with ", " (undici 6.28 `HeadersList.append`, the Fetch
 * standard's "combine"). node:http keeps only the first of a repeated Content-Type (its
 * `matchKnownFields` drops the rest), so an answer the SDK refuses as an unexpected content type
 * — `application/json` twice is `application/json, application/json` to it — was read here as
 * JSON. The SDK's other response headers (`mcp-session-id`, `www-authenticate`, `dpop-nonce`,
 * `content-encoding`) node:http already joins as fetch does.
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
