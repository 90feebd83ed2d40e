import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ArgumentsView, MAX_FIELDS } from './ArgumentsView';

/**
 * The exact arguments show MAX_FIELDS rows; a call with more (an agent may send any number) is
 * still shown whole in what it names: every argument past the rows is named as not shown, not
 * only counted — a `bcc` or `forward_to` at row 61 changes where the call goes, and "12 more
 * arguments" said nothing of which.
 */

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

describe('a call with more arguments than the card has rows', () => {
  it('property: each argument is a row or named below the rows as not shown', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 140 }), (n) => {
        const args = Object.fromEntries(
          Array.from({ length: n }, (_, i) => [i === n - 1 ? 'bcc' : `a${i}`, `v${i}`]),
        );
        const html = renderToStaticMarkup(<ArgumentsView args={args} />);
        const rows = [...html.matchAll(/data-arg="([^"]*)"/g)].map((m) => m[1]);
        expect(rows).toEqual(Object.keys(args).slice(0, MAX_FIELDS));
        const unshown = /data-testid="approval-args-unshown">([\s\S]*)$/.exec(html)?.[1];
        if (n <= MAX_FIELDS) {
          expect(unshown).toBeUndefined();
          return;
        }
        const said = text(unshown!);
        expect(said).toContain(`${n - MAX_FIELDS} more arguments, not shown as fields`);
        const names = Object.keys(args).slice(MAX_FIELDS);
        expect(said).toContain(names.join(', '));
        expect(said).toContain('bcc');
      }),
      { numRuns: 60 },
    );
  });
});
