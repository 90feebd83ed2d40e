import { describe, expect, it } from 'vitest';
import { newsletterHtml, RECEIPT_HTML } from '../../../e2e/fixtures/mail/messages.js';
import { htmlToMarkdown } from './html-to-markdown.js';

const TAG = /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>/i;

describe('htmlToMarkdown', () => {
  it('turns an HTML-only receipt into markdown: links and the line-item table kept, no tags, no hidden text', () => {
    const md = htmlToMarkdown(RECEIPT_HTML);
    expect(md).toContain('# Thanks for your order!');
    expect(md).toContain(
      '[View your order](https://shop.example/orders/NW-10482?utm_source=email&utm_medium=receipt)',
    );
    expect(md).toContain('[Start a return](https://shop.example/returns)');
    // The data table, with its header row and alignment, as GFM.
    expect(md).toMatch(/\| Item \| Qty \| Price \|\n\| --- \| --- \| ---: \|/);
    expect(md).toContain('| Trail Runner 2 – size 42 | 1 | €89.00 |');
    // A <br> inside a cell becomes a space, not a tag.
    expect(md).toContain('| Merino socks (3-pack) | 2 | €24.00 |');
    expect(md).toContain('| Ship to | Alice Example, 1 Harbour Road, Dublin |');
    expect(md).not.toMatch(TAG);
    expect(md).not.toContain('is confirmed'); // display:none preheader
    expect(md).not.toContain('alert(1)');
    expect(md).not.toContain('open.gif'); // tracking pixel
    expect(md).not.toContain('font-family'); // <style>
  });

  it('flattens layout tables (nested tables, headings inside) instead of emitting HTML or pipe soup', () => {
    const md = htmlToMarkdown(
      '<table><tr><td><h2>News</h2><p>Body text</p></td><td><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table></td></tr></table>',
    );
    expect(md).toContain('## News');
    expect(md).toContain('Body text');
    expect(md).toMatch(/\| a \| b \|\n\| c \| d \|/);
    expect(md).not.toMatch(TAG);
    expect(md.split('\n').filter((l) => l.includes('News'))).toEqual(['## News']);
  });

  it('converts a 200 KB newsletter: every story link kept, no tags', () => {
    const html = newsletterHtml();
    expect(html.length).toBeGreaterThan(200_000);
    // How fast is the bench's business (issue 19: no wall-clock bounds in unit tests).
    const md = htmlToMarkdown(html);
    expect(md).not.toMatch(TAG);
    for (const i of [1, 50, 101])
      expect(md).toContain(
        `[Read story ${i}](https://news.example/stories/${i}?utm_campaign=weekly-42)`,
      );
    expect(md).toContain('## Story 101: the harbour project, week 101');
    expect(md).not.toContain('This week: the harbour project'); // hidden preheader
    expect(md).not.toContain('.c{color');
    // Markup, styles and tracking URLs go; the stories' text stays.
    expect(md.length).toBeLessThan(html.length * 0.75);
  });

  it('keeps image alt text, drops empty links and non-web hrefs', () => {
    const md = htmlToMarkdown(
      '<p><a href="https://x.example/"><img src="https://x.example/i.png" alt="Shop now"></a> <a href="https://x.example/empty"></a> <a href="javascript:alert(1)">click</a></p>',
    );
    expect(md).toBe('[Shop now](https://x.example/) click');
  });
});
