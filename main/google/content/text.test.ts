import { describe, expect, it } from 'vitest';
import { charsetOf, decodeText, normalizeCharset } from './charset.js';
import { decodeEntities, isTextStub, pageNote, pageOf, stripQuotedReply } from './text.js';

describe('charsets', () => {
  it('reads iso-8859-1 as windows-1252, as the WHATWG Encoding Standard and mail clients do', () => {
    expect(normalizeCharset('ISO-8859-1')).toBe('windows-1252');
    expect(normalizeCharset('"us-ascii"')).toBe('windows-1252');
    expect(
      decodeText(Uint8Array.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]), 'iso-8859-1'),
    ).toBe('Café €5');
    expect(decodeText(Uint8Array.from([0x93, 0x68, 0x69, 0x94, 0x20, 0x96]), 'windows-1252')).toBe(
      '“hi” –',
    );
  });

  it('decodes other charsets through iconv-lite and falls back to UTF-8 for unknown labels', () => {
    expect(decodeText(Uint8Array.from([0x82, 0xa0]), 'Shift_JIS')).toBe('あ');
    expect(decodeText(Buffer.from('Grüße', 'utf8'), 'x-unknown-charset')).toBe('Grüße');
    expect(decodeText(Buffer.from('\uFEFFhi', 'utf8'), undefined)).toBe('hi');
    expect(charsetOf('text/plain; charset="ISO-8859-15"; format=flowed')).toBe('ISO-8859-15');
  });
});

describe('text helpers', () => {
  it('recognises "view in browser" stubs, and not real text parts', () => {
    expect(isTextStub('', 100)).toBe(true);
    expect(isTextStub('View this email in your browser: https://news.example/42', 50_000)).toBe(
      true,
    );
    expect(isTextStub('Having trouble viewing this email? Open it online.', 5000)).toBe(true);
    expect(isTextStub('Hi Alice,\n\nFriday works. See you at 12:30.\n\nCarol', 80)).toBe(false);
    // A real text twin that mentions a browser is still read.
    expect(
      isTextStub(
        'Open the report in your browser and check the numbers for May. '.repeat(20),
        1400,
      ),
    ).toBe(false);
  });

  it('pages text so that following the offsets reassembles it exactly', () => {
    const text = Array.from({ length: 400 }, (_, i) => `Line ${i}: ${'word '.repeat(i % 13)}`).join(
      '\n',
    );
    let offset = 0;
    let joined = '';
    let calls = 0;
    for (;;) {
      const page = pageOf(text, offset, 997);
      expect(page.text.length).toBeLessThanOrEqual(997);
      joined += page.text;
      calls++;
      if (page.end >= page.total) {
        expect(pageNote(page, 'gmail_read')).toMatch(/^\[End: characters \d+–\d+ of \d+\.\]$/);
        break;
      }
      expect(pageNote(page, 'gmail_read')).toContain(`offset=${page.end}`);
      offset = page.end;
    }
    expect(joined).toBe(text);
    expect(calls).toBeGreaterThan(5);
    expect(pageNote(pageOf('short', 0, 100), 'gmail_read')).toBe('');
  });

  it('trims quoted history from replies', () => {
    const reply =
      'Sounds good.\n\nOn Mon, 13 May 2024 at 09:00, Carol <carol@example.org> wrote:\n> Lunch?\n> Friday?';
    expect(stripQuotedReply(reply)).toEqual({ text: 'Sounds good.', stripped: true });
    const wrapped =
      'Yes.\n\nOn Mon, 13 May 2024 at 09:00, Carol Baker\n<carol@example.org> wrote:\n> Lunch?';
    expect(stripQuotedReply(wrapped).text).toBe('Yes.');
    const outlook =
      'Fine by me.\n\n-----Original Message-----\nFrom: Bob\nSent: Monday\n\nold text';
    expect(stripQuotedReply(outlook).text).toBe('Fine by me.');
    const inline = 'See my answers:\n> question one\nanswer one\n> question two\nanswer two';
    expect(stripQuotedReply(inline)).toEqual({ text: inline, stripped: false });
  });

  it('decodes the HTML entities Gmail puts in snippets', () => {
    expect(decodeEntities('It&#39;s &quot;done&quot; &amp; paid &lt;3 &#x20AC;5 &bogus;')).toBe(
      'It\'s "done" & paid <3 €5 &bogus;',
    );
  });
});
