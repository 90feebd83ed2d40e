import { describe, expect, it } from 'vitest';
import { DOCX_CONTENT, PDF_PAGES } from '../../../e2e/fixtures/mail/messages.js';
import { makeDocx, makePdf } from '../../../e2e/fixtures/mail/documents.js';
import { extractAttachment, kindOf } from './extract.js';

describe('attachment text extraction', () => {
  it('extracts every page of a PDF', async () => {
    const r = await extractAttachment(makePdf(PDF_PAGES), {
      mimeType: 'application/pdf',
      filename: 'invoice.pdf',
    });
    expect(r).toMatchObject({ ok: true, kind: 'pdf', detail: '2 pages' });
    const text = r.ok ? r.text : '';
    expect(text).toContain('INVOICE 2024-0042');
    expect(text).toContain('Total due: 137.00 EUR');
    expect(text).toMatch(/--- page 2 of 2 ---\nPayment terms: 30 days/);
  });

  it('says so when a PDF has no text layer, and when it is not a PDF at all', async () => {
    const blank = await extractAttachment(makePdf([[]]), {
      mimeType: 'application/pdf',
      filename: 'scan.pdf',
    });
    expect(blank).toEqual({ ok: false, reason: expect.stringMatching(/no text layer/) });
    const broken = await extractAttachment(Buffer.from('%PDF-1.4 garbage'), {
      mimeType: 'application/pdf',
      filename: 'x.pdf',
    });
    expect(broken).toEqual({
      ok: false,
      reason: expect.stringMatching(/^the PDF file could not be read/),
    });
  });

  it('extracts a DOCX as markdown with its heading and table', async () => {
    const r = await extractAttachment(await makeDocx(DOCX_CONTENT), {
      mimeType: 'application/octet-stream',
      filename: 'plan.DOCX',
    });
    expect(r.ok).toBe(true);
    const text = r.ok ? r.text : '';
    expect(text).toContain('# Project plan');
    expect(text).toContain('Milestone one ships in June.');
    expect(text).toContain('| Design | Alice |');
  });

  it('reads text in its charset and HTML as markdown; other types are not extractable', async () => {
    const csv = await extractAttachment(Buffer.from('name;city\nRenée;Zürich', 'latin1'), {
      mimeType: 'text/csv',
      filename: 'a.csv',
      charset: 'iso-8859-1',
    });
    expect(csv).toEqual({ ok: true, kind: 'text', text: 'name;city\nRenée;Zürich' });
    const html = await extractAttachment(
      Buffer.from('<h1>Hi</h1><a href="https://x.example">x</a>'),
      { mimeType: 'text/html', filename: 'a.html' },
    );
    expect(html).toEqual({ ok: true, kind: 'html', text: '# Hi\n\n[x](https://x.example)' });
    expect(kindOf('image/png', 'photo.png')).toBeNull();
    expect(
      await extractAttachment(Buffer.alloc(10), { mimeType: 'application/zip', filename: 'a.zip' }),
    ).toEqual({ ok: false, reason: expect.stringMatching(/cannot extract/) });
    // Sniffed: Gmail often labels PDFs application/octet-stream without an extension.
    expect(kindOf('application/octet-stream', 'download', makePdf([['x']]))).toBe('pdf');
  });
});
