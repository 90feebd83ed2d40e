import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { tidy } from './text.js';

// tidy lives in text.ts so plain-text paths need not load turndown (lazy.ts); kept exported here too.
export { tidy };

/**
 * HTML mail → markdown an agent can read: links and data tables kept (GFM),
 * layout tables flattened, styles, scripts, hidden preheaders and tracking
 * pixels dropped, and no HTML tags left over (issue 6, "gmail_read").
 */

/** The slice of the DOM (turndown's domino in Node) these rules touch. */
interface El {
  nodeName: string;
  parentNode: El | null;
  childNodes: ArrayLike<El>;
  rows?: ArrayLike<El>;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): El | null | undefined;
}

const DROPPED = new Set([
  'STYLE',
  'SCRIPT',
  'HEAD',
  'TITLE',
  'META',
  'LINK',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'IFRAME',
  'OBJECT',
  'BUTTON',
  'INPUT',
  'SELECT',
  'TEXTAREA',
  'MAP',
]);
const TABLE_PARTS = new Set(['TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'TD', 'TH']);
// Blocks that cannot live in a GFM table cell: a table holding them is page layout.
const LAYOUT_BLOCKS = 'table, h1, h2, h3, h4, h5, h6, ul, ol, blockquote, hr, pre, code';

function isHidden(node: El): boolean {
  if (node.hasAttribute('hidden') || node.getAttribute('aria-hidden') === 'true') return true;
  const style = (node.getAttribute('style') ?? '').toLowerCase().replace(/\s+/g, '');
  // Newsletter preheaders hide with display:none, mso-hide:all (Outlook) or a zero-size box.
  return (
    /(^|;)(display:none|visibility:hidden|mso-hide:all)/.test(style) ||
    (/max-height:0/.test(style) && /overflow:hidden/.test(style))
  );
}

function closestTable(node: El): El | null {
  for (let n: El | null = node; n; n = n.parentNode) if (n.nodeName === 'TABLE') return n;
  return null;
}

const layoutCache = new WeakMap<El, boolean>();
function isLayoutTable(table: El | null): boolean {
  if (!table) return true;
  let cached = layoutCache.get(table);
  if (cached === undefined) {
    const rows = Array.from(table.rows ?? []);
    const columns = Math.max(
      0,
      ...rows.map(
        (r) =>
          Array.from(r.childNodes).filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH').length,
      ),
    );
    // domino's querySelector answers undefined, not null, when nothing matches.
    cached = rows.length < 2 || columns < 2 || Boolean(table.querySelector(LAYOUT_BLOCKS));
    layoutCache.set(table, cached);
  }
  return cached;
}

function cellIndex(cell: El): number {
  return Array.from(cell.parentNode?.childNodes ?? [])
    .filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH')
    .indexOf(cell);
}

function build(): TurndownService {
  const td = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    hr: '---',
  });
  td.use(gfm);
  // Rules added later win (turndown checks its rule list newest first), so these override GFM's.
  td.addRule('airlockImage', {
    filter: 'img',
    // Alt text only: image URLs are mostly tracking pixels and CDN noise, and cost tokens.
    replacement: (_c, node) => {
      const alt = ((node as unknown as El).getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      return alt ? td.escape(alt) : '';
    },
  });
  td.addRule('airlockLink', {
    filter: (node) =>
      node.nodeName === 'A' && (node as unknown as El).getAttribute('href') !== null,
    replacement: (content, node) => {
      const href = ((node as unknown as El).getAttribute('href') ?? '').trim();
      const text = content.replace(/\s*\n\s*/g, ' ').trim();
      if (!text) return '';
      if (!/^(https?:|mailto:|tel:)/i.test(href)) return text;
      return `[${text}](${href.replace(/[()\s]/g, encodeURIComponent)})`;
    },
  });
  td.addRule('airlockLayoutTable', {
    filter: (node) =>
      TABLE_PARTS.has(node.nodeName) &&
      isLayoutTable(
        node.nodeName === 'TABLE' ? (node as unknown as El) : closestTable(node as unknown as El),
      ),
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  td.addRule('airlockTableCell', {
    filter: (node) =>
      (node.nodeName === 'TD' || node.nodeName === 'TH') &&
      !isLayoutTable(closestTable(node as unknown as El)),
    // GFM's own cell rule writes line breaks as <br>; a plain space keeps the output tag-free.
    replacement: (content, node) => {
      const el = node as unknown as El;
      let text = content
        .replace(/\s*\n+\s*/g, ' ')
        .trim()
        .replace(/\|/g, '\\|');
      const span = Number(el.getAttribute('colspan') ?? 1);
      for (let i = 1; i < span && i < 50; i++) text += ' |';
      return (cellIndex(el) === 0 ? '| ' : ' ') + (text || ' ') + ' |';
    },
  });
  td.addRule('airlockDropped', {
    filter: (node) => DROPPED.has(node.nodeName.toUpperCase()) || isHidden(node as unknown as El),
    replacement: () => '',
  });
  return td;
}

let service: TurndownService | undefined;

/** HTML (a whole document or a fragment) → markdown without HTML tags. */
export function htmlToMarkdown(html: string): string {
  service ??= build();
  const markdown = service.turndown(html);
  return tidy(markdown);
}
