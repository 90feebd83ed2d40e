import { HttpError } from './gmail-shapes.js';

/**
 * Request size as Gmail treats it. A JSON body (`raw` inside messages.send, drafts.create and
 * drafts.update) is refused past Google's request payload limit with 400 "Request payload size
 * exceeds the limit: 5242880 bytes." (the answer real Google gives; the limit is not in the
 * reference and has been seen lower, e.g. googleapis/google-api-dotnet-client#856). Whole messages
 * go to the media upload URI instead — `POST /upload/gmail/v1/users/{userId}/messages/send`,
 * `POST …/drafts`, `PUT …/drafts/{id}` — with `uploadType=media` (the body is the message,
 * Content-Type message/*) or `uploadType=multipart` (multipart/related: the JSON metadata, then
 * the message), up to 35 MB (developers.google.com/gmail/api/guides/uploads; the methods'
 * reference pages, "Upload": maximum file size 35MB, accepted media MIME types message/*).
 */

export const JSON_PAYLOAD_LIMIT = 5_242_880;
export const UPLOAD_LIMIT = 35 * 1024 * 1024;
const UPLOAD_PREFIX = '/upload/gmail/v1/';

/** An upload turned into the call the JSON endpoint would take: its path and JSON body. */
export interface Unwrapped {
  path: string;
  body: Record<string, unknown>;
}

/** Checks a JSON body's size; null when the request is not an upload, else the call it carries. */
export function unwrapUpload(
  method: string,
  path: string,
  query: URLSearchParams,
  contentType: string | undefined,
  raw: Buffer,
): Unwrapped | null {
  if (!path.startsWith(UPLOAD_PREFIX)) {
    if (raw.length > JSON_PAYLOAD_LIMIT)
      throw new HttpError(
        400,
        `Request payload size exceeds the limit: ${JSON_PAYLOAD_LIMIT} bytes.`,
      );
    return null;
  }
  const target = `/gmail/v1/${path.slice(UPLOAD_PREFIX.length)}`;
  const kind = /^\/gmail\/v1\/users\/[^/]+\/(messages\/send|drafts|drafts\/[^/]+)$/.exec(
    target,
  )?.[1];
  const allowed =
    (kind === 'messages/send' && method === 'POST') ||
    (kind === 'drafts' && method === 'POST') ||
    (kind?.startsWith('drafts/') === true && kind !== 'drafts/send' && method === 'PUT');
  if (!allowed) throw new HttpError(404);
  if (raw.length > UPLOAD_LIMIT) throw new HttpError(400, 'Media is too large.');
  let meta: Record<string, unknown> = {};
  let message: Buffer;
  const type = (contentType ?? '').toLowerCase();
  if (query.get('uploadType') === 'media') {
    if (!type.startsWith('message/'))
      throw new HttpError(
        400,
        `Media type '${type}' is not supported. Valid media types: [message/*]`,
      );
    message = raw;
  } else if (query.get('uploadType') === 'multipart') {
    const parts = multipartRelated(type, contentType ?? '', raw);
    if (parts.length !== 2 || !parts[0]!.type.startsWith('application/json'))
      throw new HttpError(400, 'Invalid multipart request with 0 mime parts.');
    if (!parts[1]!.type.startsWith('message/'))
      throw new HttpError(
        400,
        `Media type '${parts[1]!.type}' is not supported. Valid media types: [message/*]`,
      );
    meta = JSON.parse(parts[0]!.body.toString('utf8')) as Record<string, unknown>;
    message = parts[1]!.body;
  } else throw new HttpError(400, 'Invalid upload type.');
  const rawField = message.toString('base64url');
  if (kind === 'messages/send') return { path: target, body: { ...meta, raw: rawField } };
  const m = (meta.message ?? {}) as Record<string, unknown>;
  return { path: target, body: { ...meta, message: { ...m, raw: rawField } } };
}

/** The parts of a multipart/related body (RFC 2387): each part's Content-Type and bytes. */
function multipartRelated(
  lower: string,
  contentType: string,
  raw: Buffer,
): { type: string; body: Buffer }[] {
  if (!lower.startsWith('multipart/related')) throw new HttpError(400, 'Bad content type.');
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw new HttpError(400, 'Missing boundary.');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { type: string; body: Buffer }[] = [];
  let at = raw.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (raw.subarray(start, start + 2).toString() === '--') break; // the close delimiter
    const next = raw.indexOf(delimiter, start);
    if (next < 0) throw new HttpError(400, 'Unterminated multipart body.');
    const part = raw.subarray(start + 2, next); // after the CRLF ending the delimiter line
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) throw new HttpError(400, 'A multipart part has no headers.');
    const headers = part.subarray(0, split).toString('latin1');
    let body = part.subarray(split + 4);
    // The CRLF before the next delimiter belongs to the delimiter (RFC 2046 §5.1.1).
    if (body.subarray(-2).toString() === '\r\n') body = body.subarray(0, -2);
    const type = /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim().toLowerCase() ?? '';
    parts.push({ type, body });
    at = next;
  }
  return parts;
}
