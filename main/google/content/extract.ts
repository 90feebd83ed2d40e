import PostalMime from 'postal-mime';
import { libs } from '../lazy.js';
import { tidy } from './text.js';

/** Attachment bytes → text for an agent: PDF, DOCX, plain text, HTML and attached e-mails. */

export type AttachmentKind = 'pdf' | 'docx' | 'text' | 'html' | 'email';

export type Extracted =
  { ok: true; kind: AttachmentKind; text: string; detail?: string } | { ok: false; reason: string };

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const TEXT_TYPES =
  /^(text\/(?!html)|application\/(json|xml|csv|x-yaml|yaml|ld\+json|javascript|x-sh|sql)|message\/delivery-status)/i;
const TEXT_EXTENSIONS =
  /\.(txt|text|md|markdown|csv|tsv|json|xml|yaml|yml|log|ini|cfg|conf|ics|vcf|sql|js|ts|py|sh|eml\.txt)$/i;

/** What an attachment is, from its type, its name and its first bytes (Gmail often says application/octet-stream). */
export function kindOf(
  mimeType: string,
  filename: string,
  head?: Uint8Array,
): AttachmentKind | null {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  const name = filename.toLowerCase();
  if (type === 'application/pdf' || name.endsWith('.pdf')) return 'pdf';
  if (type === DOCX_TYPE || name.endsWith('.docx')) return 'docx';
  if (type === 'text/html' || /\.html?$/.test(name)) return 'html';
  if (type === 'message/rfc822' || name.endsWith('.eml')) return 'email';
  if (TEXT_TYPES.test(type) || TEXT_EXTENSIONS.test(name)) return 'text';
  if (head && head.length >= 5 && Buffer.from(head.subarray(0, 5)).toString('latin1') === '%PDF-')
    return 'pdf';
  return null;
}

export async function extractAttachment(
  bytes: Uint8Array,
  info: { mimeType: string; filename: string; charset?: string },
): Promise<Extracted> {
  const kind = kindOf(info.mimeType, info.filename, bytes);
  if (!kind)
    return {
      ok: false,
      reason: `Airlock cannot extract text from ${info.mimeType || 'this type of'} files`,
    };
  try {
    switch (kind) {
      case 'pdf':
        return await pdf(bytes);
      case 'docx': {
        // mammoth → HTML (keeps headings, lists and tables) → the same markdown as HTML mail.
        const [{ default: mammoth }, { htmlToMarkdown }] = await Promise.all([
          libs.mammoth(),
          libs.markdown(),
        ]);
        const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
        return { ok: true, kind, text: htmlToMarkdown(value) };
      }
      case 'html': {
        const [{ decodeText }, { htmlToMarkdown }] = await Promise.all([
          libs.charset(),
          libs.markdown(),
        ]);
        return { ok: true, kind, text: htmlToMarkdown(decodeText(bytes, info.charset)) };
      }
      case 'email':
        return await email(bytes);
      case 'text': {
        const { decodeText } = await libs.charset();
        return { ok: true, kind, text: tidy(decodeText(bytes, info.charset)) };
      }
    }
  } catch (err) {
    return {
      ok: false,
      reason: `the ${kind.toUpperCase()} file could not be read (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}

async function pdf(bytes: Uint8Array): Promise<Extracted> {
  const { extractText: extractPdfText, getDocumentProxy } = await libs.unpdf();
  // pdf.js may detach the buffer it is given: hand it a copy. verbosity 0 keeps its warnings off stderr.
  const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  let totalPages: number;
  let text: string[];
  try {
    ({ totalPages, text } = await extractPdfText(doc, { mergePages: false }));
  } finally {
    await doc.loadingTask.destroy();
  }
  const pages = text.map((t) => tidy(t));
  if (pages.every((p) => p === '')) {
    return {
      ok: false,
      reason: `the PDF (${totalPages} page${totalPages === 1 ? '' : 's'}) has no text layer — probably scanned images`,
    };
  }
  const body =
    pages.length === 1
      ? pages[0]!
      : pages.map((p, i) => `--- page ${i + 1} of ${totalPages} ---\n${p}`).join('\n\n');
  return {
    ok: true,
    kind: 'pdf',
    text: body,
    detail: `${totalPages} page${totalPages === 1 ? '' : 's'}`,
  };
}

async function email(bytes: Uint8Array): Promise<Extracted> {
  const mail = await PostalMime.parse(bytes);
  const who = (a?: { name?: string; address?: string }) =>
    a ? (a.name ? `${a.name} <${a.address ?? ''}>` : (a.address ?? '')) : '';
  const head = [
    `From: ${who(mail.from)}`,
    mail.to?.length ? `To: ${mail.to.map(who).join(', ')}` : '',
    mail.date ? `Date: ${mail.date}` : '',
    `Subject: ${mail.subject ?? ''}`,
  ].filter(Boolean);
  const body = mail.text?.trim()
    ? tidy(mail.text)
    : mail.html
      ? (await libs.markdown()).htmlToMarkdown(mail.html)
      : '';
  const files = mail.attachments.map((a) => a.filename ?? a.mimeType).filter(Boolean);
  if (files.length) head.push(`Attachments: ${files.join(', ')}`);
  return { ok: true, kind: 'email', text: `${head.join('\n')}\n\n${body}` };
}
