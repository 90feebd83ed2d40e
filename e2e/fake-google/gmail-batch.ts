import { randomBytes } from 'node:crypto';
import { HttpError } from './gmail-shapes.js';

/**
 * Gmail's batch endpoint, as documented at
 * developers.google.com/gmail/api/guides/batch: `POST /batch/gmail/v1` with a
 * `multipart/mixed` body whose parts are `Content-Type: application/http`,
 * each holding one HTTP request ("GET /gmail/v1/users/me/messages/ID"); the
 * outer Authorization applies to every part; at most 100 calls. The answer is
 * `multipart/mixed` too, one `application/http` part per call, in order, with
 * `Content-ID: <response-ID>` for a request part's `Content-ID: <ID>`; each
 * part carries its own status, so one call can fail (404, 429) while the
 * others succeed. Written independently of the client's parser on purpose.
 */

export const BATCH_PATH = '/batch/gmail/v1';
export const MAX_BATCH_CALLS = 100;

export interface SubRequest {
  method: string;
  /** Path and query, as in the part's request line. */
  target: string;
  headers: Record<string, string>;
  body: Buffer;
  contentId?: string;
}

export interface SubResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The parts of a batch request; HttpError(400) for anything Google would refuse. */
export function parseBatch(contentType: string | undefined, raw: Buffer): SubRequest[] {
  const m = /^multipart\/mixed\s*;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary)
    throw new HttpError(
      400,
      'Batch requests must be multipart/mixed with a boundary.',
      'badRequest',
    );
  const text = raw.toString('latin1');
  const delimiter = `--${boundary}`;
  const start = text.indexOf(delimiter);
  const end = text.indexOf(`${delimiter}--`);
  if (start < 0 || end < start)
    throw new HttpError(400, 'Batch body has no closing boundary.', 'badRequest');
  const parts = text
    .slice(start + delimiter.length, end)
    .split(new RegExp(`\\r?\\n${escapeRe(delimiter)}`))
    .map((p) => p.replace(/^[ \t]*\r?\n/, ''));
  if (parts.length > MAX_BATCH_CALLS)
    throw new HttpError(
      400,
      `A batch request may contain at most ${MAX_BATCH_CALLS} calls.`,
      'invalidArgument',
    );
  return parts.map((part) => {
    const [head, inner] = splitHead(part);
    const partHeaders = headerMap(head);
    if (!/^application\/http\b/i.test(partHeaders['content-type'] ?? ''))
      throw new HttpError(
        400,
        'Each batch part must be Content-Type: application/http.',
        'badRequest',
      );
    const [requestHead, body] = splitHead(inner);
    const [line = '', ...headerLines] = requestHead.split(/\r?\n/);
    const rl = /^([A-Z]+) (\/\S*)(?: HTTP\/1\.1)?$/.exec(line.trim());
    if (!rl) throw new HttpError(400, `Bad request line in a batch part: ${line}`, 'badRequest');
    const cid = /^<?([^>]*)>?$/.exec(partHeaders['content-id'] ?? '')?.[1];
    return {
      method: rl[1]!,
      target: rl[2]!,
      headers: headerMap(headerLines.join('\n')),
      body: Buffer.from(body.replace(/\r?\n$/, ''), 'latin1'),
      ...(cid ? { contentId: cid } : {}),
    };
  });
}

/** The multipart/mixed answer for the sub-responses, in request order. */
export function renderBatch(
  requests: SubRequest[],
  responses: SubResponse[],
): { contentType: string; body: Buffer } {
  const boundary = `batch_${randomBytes(12).toString('base64url')}`;
  const chunks = responses.map((r, i) => {
    const cid = requests[i]?.contentId;
    const payload = r.body === undefined ? '' : JSON.stringify(r.body);
    const headers = {
      ...(payload ? { 'Content-Type': 'application/json; charset=UTF-8' } : {}),
      ...r.headers,
    };
    return [
      `--${boundary}`,
      'Content-Type: application/http',
      ...(cid ? [`Content-ID: <response-${cid}>`] : []),
      '',
      `HTTP/1.1 ${r.status} ${REASONS[r.status] ?? ''}`.trimEnd(),
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      '',
      payload,
    ].join('\r\n');
  });
  return {
    contentType: `multipart/mixed; boundary=${boundary}`,
    body: Buffer.from(`${chunks.join('\r\n')}\r\n--${boundary}--\r\n`, 'utf8'),
  };
}

function splitHead(s: string): [string, string] {
  const m = /\r?\n\r?\n/.exec(s);
  return m ? [s.slice(0, m.index), s.slice(m.index + m[0].length)] : [s, ''];
}

function headerMap(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
