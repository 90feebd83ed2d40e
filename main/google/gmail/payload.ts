import type { gmail_v1 } from '@googleapis/gmail';
import { decodeWords } from 'postal-mime';
import { charsetOf, isTextStub, tidy } from '../content/text.js';
import { libs } from '../lazy.js';

/**
 * Reading Gmail's parsed message (`format=full`): a tree of parts whose
 * `body.data` is the part's bytes after transfer decoding, base64url, still
 * in the part's own charset (developers.google.com/gmail/api/reference/rest/v1/users.messages#MessagePart).
 */

export type Part = gmail_v1.Schema$MessagePart;

export function header(part: Part | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const value = part?.headers?.find((h) => h.name?.toLowerCase() === wanted)?.value ?? undefined;
  // Gmail decodes RFC 2047 words itself; some paths leave them in, so decode again (a no-op otherwise).
  return value !== undefined && value.includes('=?') ? decodeWords(value) : value;
}

export function base64urlBytes(data: string | null | undefined): Uint8Array {
  return data ? new Uint8Array(Buffer.from(data, 'base64url')) : new Uint8Array();
}

export interface AttachmentInfo {
  filename: string;
  mimeType: string;
  size: number;
  attachmentId?: string;
  partId: string;
  inline: boolean;
  charset?: string;
}

function isAttachment(part: Part): boolean {
  return !!part.filename || /^\s*attachment/i.test(header(part, 'content-disposition') ?? '');
}

/** Every part Gmail treats as an attachment (it has a file name), depth-first in message order. */
export function attachmentsOf(payload: Part | undefined): AttachmentInfo[] {
  const out: AttachmentInfo[] = [];
  const walk = (part: Part | undefined) => {
    if (!part) return;
    if (isAttachment(part) && !part.mimeType?.startsWith('multipart/')) {
      const disposition = header(part, 'content-disposition') ?? '';
      out.push({
        filename: part.filename || `part-${part.partId ?? out.length}`,
        mimeType: (part.mimeType ?? 'application/octet-stream').toLowerCase(),
        size: part.body?.size ?? 0,
        ...(part.body?.attachmentId ? { attachmentId: part.body.attachmentId } : {}),
        partId: part.partId ?? '',
        inline: /^\s*inline/i.test(disposition) || (!disposition && !!header(part, 'content-id')),
        ...(charsetOf(header(part, 'content-type'))
          ? { charset: charsetOf(header(part, 'content-type'))! }
          : {}),
      });
    }
    for (const child of part.parts ?? []) walk(child);
  };
  walk(payload);
  return out;
}

export interface Body {
  text: string;
  /** Which part the text came from. */
  source: 'plain' | 'html' | 'none';
}

/** Fetches a body kept out of line (`body.attachmentId` instead of `body.data`). */
export type DataFetcher = (attachmentId: string) => Promise<Uint8Array>;

async function partText(part: Part, fetch?: DataFetcher): Promise<string> {
  let bytes = base64urlBytes(part.body?.data);
  if (bytes.length === 0 && part.body?.attachmentId && fetch)
    bytes = await fetch(part.body.attachmentId);
  const { decodeText } = await libs.charset();
  return decodeText(bytes, charsetOf(header(part, 'content-type')));
}

/** Cheap visible-text length of HTML, to judge a text/plain twin without converting. */
function roughTextLength(html: string): number {
  return html
    .replace(/<(style|script|head)[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&[a-z0-9#]+;/gi, ' ')
    .replace(/\s+/g, ' ').length;
}

interface Candidate {
  kind: 'plain' | 'html';
  raw: string;
}

async function candidates(part: Part, fetch?: DataFetcher): Promise<Candidate[]> {
  if (isAttachment(part)) return [];
  const type = (part.mimeType ?? '').toLowerCase();
  if (type === 'text/plain') return [{ kind: 'plain', raw: await partText(part, fetch) }];
  if (type === 'text/html') return [{ kind: 'html', raw: await partText(part, fetch) }];
  if (type === 'multipart/alternative') {
    // RFC 2046 §5.1.4: alternatives in increasing faithfulness; take the last of each kind.
    const all = (await Promise.all((part.parts ?? []).map((p) => choose(p, fetch)))).filter(
      (c): c is Candidate => c !== null,
    );
    const plain = all.filter((c) => c.kind === 'plain').at(-1);
    const html = all.filter((c) => c.kind === 'html').at(-1);
    if (plain && (!html || !isTextStub(plain.raw, roughTextLength(html.raw)))) return [plain];
    return html ? [html] : [];
  }
  if (type === 'multipart/related') {
    // RFC 2387: the root is the first part (the `start` parameter is rare in mail).
    const root = part.parts?.[0];
    return root ? candidates(root, fetch) : [];
  }
  if (type.startsWith('multipart/')) {
    return (await Promise.all((part.parts ?? []).map((p) => candidates(p, fetch)))).flat();
  }
  return [];
}

async function choose(part: Part, fetch?: DataFetcher): Promise<Candidate | null> {
  const found = await candidates(part, fetch);
  if (found.length === 0) return null;
  if (found.length === 1) return found[0]!;
  // A mixed part inside an alternative: read it as one text.
  return { kind: 'plain', raw: (await Promise.all(found.map(render))).join('\n\n') };
}

async function render(c: Candidate): Promise<string> {
  if (c.kind === 'plain') return tidy(c.raw.replace(/\r\n?/g, '\n'));
  const { htmlToMarkdown } = await libs.markdown();
  return htmlToMarkdown(c.raw);
}

/**
 * The readable body: the text/plain part unless it is empty or only a
 * "view in browser" stub, else the HTML as markdown (issue 6, gmail_read).
 */
export async function bodyOf(payload: Part | undefined, fetch?: DataFetcher): Promise<Body> {
  if (!payload) return { text: '', source: 'none' };
  const found = await candidates(payload, fetch);
  if (found.length === 0) return { text: '', source: 'none' };
  const texts = await Promise.all(found.map(render));
  return {
    text: texts.filter(Boolean).join('\n\n'),
    source: found.some((c) => c.kind === 'html') ? 'html' : 'plain',
  };
}
