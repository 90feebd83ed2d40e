import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../../common/contract';
import { ApprovalRecord } from './ApprovalRecord';

/**
 * The Activity page's record of an approval shows its effect — the card's sentence, which holds
 * the agent's words and strangers' (a subject, an invitation's title) — as the card does: an
 * invisible or direction-changing character named, not acting (an override reordered the record
 * of what was approved), and more than four combining marks on a character named, not drawn over
 * the rows above. It was shown raw.
 */

const base: ApprovalView = {
  id: 'a1',
  agent: 'claude',
  tool: 'gmail_send',
  effect: '',
  arguments: { to: 'bob@example.com' },
  inputSchema: { type: 'object' },
  state: 'approved',
  createdAt: '2026-01-01T00:00:00Z',
  expiresAt: '2026-01-01T00:05:00Z',
};

const record = (effect: string) =>
  renderToStaticMarkup(<ApprovalRecord approval={{ ...base, effect }} />);

// The characters the card names that act unseen: direction controls and zero-width ones.
const ACTING = /[\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\ufeff]/u;
// Five marks drawn on one character (non-spacing or enclosing).
const STACK = /(?:(?!\p{Default_Ignorable_Code_Point})[\p{Mn}\p{Me}]){5,}/u;

describe('the Activity page names hidden characters in an approval’s effect', () => {
  it('an override, a zero-width space and a stack of marks are named', () => {
    const html = record(
      `Send "Invoice \u202e0009 :dna" to bob@example.com\u200b. H${'\u030d'.repeat(40)}i`,
    );
    expect(html).not.toMatch(ACTING);
    expect(html).not.toMatch(STACK);
    expect(html).toContain('RLO');
    expect(html).toContain('ZWSP');
    expect(html).toContain('MARKS×40');
  });

  it('property: whatever an effect holds, no such character acts and no stack is drawn', () => {
    const piece = fc.constantFrom(
      'Delete ',
      'Title: ',
      "'",
      '\u202e',
      '\u2066',
      '\u200b',
      '\u200f',
      '\ufeff',
      '\u0301'.repeat(5),
      'a',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const html = record(parts.join(''));
        expect(html).not.toMatch(ACTING);
        expect(html).not.toMatch(STACK);
      }),
      { numRuns: 200 },
    );
  });
});
