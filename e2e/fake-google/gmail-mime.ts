import { decodeWords } from 'postal-mime';

/**
 * The fake's reading of stored RFC 822 messages into Gmail's `MessagePart`
 * tree (developers.google.com/gmail/api/reference/rest/v1/users.messages#MessagePart):
 * headers with RFC 2047 words decoded, `body.data` = the part's bytes after
 * transfer decoding (still in the part's charset), base64url. Test code: it
 * reads the well-formed fixtures Airlock's tests build, not arbitrary mail.
 */

export interface FakePart {
  partId: string;
  mimeType: string;
  filename: string;
  headers: { name: string; value: string }[];
  /** Transfer-decoded bytes of a leaf part. */
  bytes: Buffer;
  parts: FakePart[];
}

function splitHead(raw: string): { head: string; body: string } {
  const m = /\r?\n\r?\n/.exec(raw);
  if (!m) return { head: raw, body: '' };
  return { head: raw.slice(0, m.index), body: raw.slice(m.index + m[0].length) };
}

function parseHeaders(head: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const line of head.split(/\r?\n(?![ \t])/)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    // Raw 8-bit header bytes are taken as UTF-8 (RFC 6532); encoded words are decoded like Gmail does.
    const value = Buffer.from(
      line
        .slice(i + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
      'latin1',
    ).toString('utf8');
    out.push({ name: line.slice(0, i).trim(), value: decodeWords(value) });
  }
  return out;
}

export function headerValue(headers: { name: string; value: string }[], name: string): string {
  return headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value ?? '';
}

/** `type/sub; a=b; c="d"` (and RFC 2231 `name*=utf-8''...`) → value and lower-cased params. */
export function parseParams(value: string): { value: string; params: Record<string, string> } {
  const [first, ...rest] = value.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  const params: Record<string, string> = {};
  for (const p of rest) {
    const m = /^\s*([^=\s]+)\s*=\s*(.*?)\s*$/.exec(p);
    if (!m) continue;
    let key = m[1]!.toLowerCase();
    let val = m[2]!.replace(/^"(.*)"$/, '$1');
    if (key.endsWith('*')) {
      key = key.slice(0, -1);
      const ext = /^([^']*)'[^']*'(.*)$/.exec(val);
      if (ext) val = decodeURIComponent(ext[2]!);
    }
    params[key] = val;
  }
  return { value: (first ?? '').trim().toLowerCase(), params };
}

function decodeQuotedPrintable(s: string): Buffer {
  const bytes: number[] = [];
  const text = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

function transferDecode(body: string, encoding: string): Buffer {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return Buffer.from(body, 'latin1');
  }
}

function parsePart(raw: string, partId: string): FakePart {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const type = parseParams(headerValue(headers, 'content-type') || 'text/plain; charset=us-ascii');
  const disposition = parseParams(headerValue(headers, 'content-disposition'));
  const filename = disposition.params.filename ?? type.params.name ?? '';
  const part: FakePart = {
    partId,
    mimeType: type.value,
    filename,
    headers,
    bytes: Buffer.alloc(0),
    parts: [],
  };
  const boundary = type.params.boundary;
  if (type.value.startsWith('multipart/') && boundary) {
    const esc = boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pieces = body.split(new RegExp(`(?:^|\\r?\\n)--${esc}(?:--)?[ \\t]*(?=\\r?\\n|$)`));
    // pieces[0] is the preamble and the last the epilogue (RFC 2046 §5.1.1).
    const children = pieces.slice(1, -1).map((p) => p.replace(/^\r?\n/, ''));
    part.parts = children.map((c, i) => parsePart(c, partId === '' ? String(i) : `${partId}.${i}`));
    return part;
  }
  part.bytes = transferDecode(body, headerValue(headers, 'content-transfer-encoding') || '7bit');
  return part;
}

export function parseMessage(raw: Buffer): FakePart {
  return parsePart(raw.toString('latin1'), '');
}

/** All parts, depth first. */
export function* walk(part: FakePart): Generator<FakePart> {
  yield part;
  for (const p of part.parts) yield* walk(p);
}
