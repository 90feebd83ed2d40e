/**
 * Plain-text helpers for mail bodies: "view in browser" stubs, paging, quoted
 * replies, whitespace clean-up, the charset parameter. No library imports: the
 * light half of content/ that loads at start (lazy.ts).
 */

// What a newsletter's text/plain part says when it is only a pointer to the HTML.
const STUB_PHRASES =
  /view (?:this|it|the|our)?\s*(?:e-?mail|message|newsletter|version)?\s*(?:in|on) (?:your|a|the)? ?(?:web )?browser|web ?version|online version|view (?:it )?online|trouble (?:viewing|reading|seeing)|(?:can(?:no|')?t|unable to) (?:see|view|read) this (?:e-?mail|message)|(?:e-?mail|mail) (?:client|program|reader) (?:does ?n[o']t|cannot|can't) (?:support|display)|html (?:version|e-?mail)/i;

/**
 * True when a text/plain alternative is not worth reading compared with its
 * HTML twin: empty, a "view in browser" pointer, or a small fraction of it.
 */
export function isTextStub(plain: string, htmlTextLength: number): boolean {
  const text = plain.trim();
  if (text.length === 0) return true;
  if (text.length < 600 && STUB_PHRASES.test(text) && htmlTextLength > text.length * 2) return true;
  return htmlTextLength > 2000 && text.length * 10 < htmlTextLength;
}

export interface Page {
  text: string;
  start: number;
  end: number;
  total: number;
}

/**
 * `maxChars` characters of `text` from `offset`, ending on a line or word
 * boundary when one is near, so the next call (offset = end) continues exactly
 * where this one stopped.
 */
export function pageOf(text: string, offset: number, maxChars: number): Page {
  const total = text.length;
  const start = Math.min(Math.max(0, Math.floor(offset)), total);
  let end = Math.min(total, start + Math.max(1, Math.floor(maxChars)));
  if (end < total) {
    const window = text.slice(start, end);
    const floor = Math.floor(window.length * 0.8);
    const nl = window.lastIndexOf('\n');
    const sp = window.lastIndexOf(' ');
    if (nl >= floor) end = start + nl + 1;
    else if (sp >= floor) end = start + sp + 1;
  }
  return { text: text.slice(start, end), start, end, total };
}

/** The line an agent reads under a page: where it is and how to go on. */
export function pageNote(page: Page, tool: string, noun = 'characters'): string {
  if (page.start === 0 && page.end >= page.total) return '';
  if (page.end >= page.total) return `[End: ${noun} ${page.start}–${page.end} of ${page.total}.]`;
  return `[Showing ${noun} ${page.start}–${page.end} of ${page.total}. Call ${tool} again with offset=${page.end} to read on.]`;
}

const ATTRIBUTION =
  /^(?:>\s*)*(?:On\b.{0,300}\bwrote:|Am\b.{0,300}\bschrieb\b.{0,200}:|Le\b.{0,300}\ba écrit\s*:|-{2,}\s*Original Message\s*-{2,}|_{10,})\s*$/i;

/**
 * Cuts the quoted earlier conversation from a reply ("On … wrote:" and the
 * ">" lines after it), for thread views where those messages appear anyway.
 */
export function stripQuotedReply(text: string): { text: string; stripped: boolean } {
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    // Attributions are often wrapped over two lines by the sender's client.
    const one = lines[i]!.trim();
    const two = `${one} ${lines[i + 1]?.trim() ?? ''}`.trim();
    const hit = ATTRIBUTION.test(one) ? 1 : ATTRIBUTION.test(two) && /^On\b/i.test(one) ? 2 : 0;
    if (!hit) continue;
    const rest = lines.slice(i + hit).filter((l) => l.trim() !== '');
    const quoted = rest.filter((l) => l.trimStart().startsWith('>')).length;
    if (rest.length === 0 || quoted / rest.length >= 0.6 || /Original Message|_{10,}/i.test(one)) {
      return { text: lines.slice(0, i).join('\n').trimEnd(), stripped: true };
    }
  }
  // No attribution: a trailing block of quoted lines.
  let cut = lines.length;
  while (cut > 0 && (lines[cut - 1]!.trim() === '' || lines[cut - 1]!.trimStart().startsWith('>')))
    cut--;
  const tail = lines.slice(cut).filter((l) => l.trim().startsWith('>')).length;
  if (cut > 0 && tail >= 2)
    return { text: lines.slice(0, cut).join('\n').trimEnd(), stripped: true };
  return { text, stripped: false };
}

/** A byte count as people read it. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Gmail snippets arrive HTML-escaped ("&#39;", "&amp;"). */
export function decodeEntities(s: string): string {
  const named: Record<string, string> = {
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    nbsp: ' ',
  };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code =
        e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return named[e.toLowerCase()] ?? m;
  });
}

// Zero-width and filler characters newsletters pad their preheaders with.
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD\u061C\u180E]|\u034F/g;

/** Whitespace clean-up shared by every text an agent gets. */
export function tidy(text: string): string {
  return text
    .replace(INVISIBLE, '')
    .replace(/\u00A0/g, ' ')
    .replace(/[ \t]+$/gm, '')
    .replace(/^[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The `charset` parameter of a Content-Type value, if any. */
export function charsetOf(contentType: string | undefined | null): string | undefined {
  const m = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? '');
  return m?.[2];
}
