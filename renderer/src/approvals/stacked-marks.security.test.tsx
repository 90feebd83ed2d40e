import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ArgumentsView } from './ArgumentsView';
import { RGI_EMOJI } from '../../../common/emoji';
import { hasStackedMarks } from '../../../common/stacked-marks';
import { chunkText, hasHidden, reveal, revealPlain } from './reveal';

/**
 * Combining marks stacked on one letter draw over the lines around it (red-team finding R1).
 * A mark is drawn on its base character, above or below it; each further mark is drawn beyond
 * the last, and nothing in a line box clips them ("Zalgo" text). A subject or argument of a
 * few letters each carrying 60 marks above paints a column of ink over the card's rows above it
 * — the Bcc row sits just above the Subject — while the text itself holds no invisible or
 * direction-changing character, so the card named nothing (and the native prompts offered Allow:
 * main/shell/stacked-marks.security.test.ts).
 * No script stacks more than four marks on a letter in writing (Vietnamese two, pointed Hebrew
 * with cantillation up to four): a run of five or more is named, as the invisible characters are.
 */

const ABOVE = '\u030d'; // COMBINING VERTICAL LINE ABOVE
const BELOW = '\u0329'; // COMBINING VERTICAL LINE BELOW
const stacked = (word: string, n: number) =>
  [...word].map((c) => c + ABOVE.repeat(n) + BELOW.repeat(n)).join('');
// Five marks drawn on one character (non-spacing or enclosing), outside the named runs.
const STACK = /(?:(?!\p{Default_Ignorable_Code_Point})[\p{Mn}\p{Me}]){5,}/u;

describe('the card names stacked combining marks', () => {
  it('a subject whose letters carry 120 marks each reads as its letters and a named run', () => {
    const text = stacked('Hi', 60);
    expect(hasHidden(text)).toBe(true);
    expect(revealPlain(text)).toBe('H⟦MARKS×120⟧i⟦MARKS×120⟧');
    const html = renderToStaticMarkup(
      <ArgumentsView args={{ bcc: 'evil@evil.test', subject: `Lunch? ${text}` }} />,
    );
    expect(html).not.toMatch(STACK);
    expect(html).toContain('MARKS×120');
  });

  it('writing with a few marks per letter is drawn as it is', () => {
    for (const t of [
      'Tiếng Việt có dấu', // two marks: circumflex + acute (decomposed below)
      'Tie\u0302\u0301ng Vie\u0323\u0302t',
      'בְּרֵאשִׁ֖ית', // pointed Hebrew with a cantillation mark
      'नमस्ते',
      '1️⃣ ❤️',
      // Burmese: five marks in a row, three of them spacing (Mc), which take their own place.
      'ဈေးလျှော့ မျှော့',
    ])
      expect(hasHidden(t)).toBe(false);
  });

  it('a letter’s own marks count: composed or not, the same stack is named', () => {
    // ᾯ (U+1FAF) is Ω with three marks: two more make five, as Ω with five would.
    expect(revealPlain('\u1faf\u0301\u0300')).toBe('\u1faf⟦MARKS×2⟧');
    expect(revealPlain('\u1faf\u0301\u0300'.normalize('NFD'))).toBe('Ω⟦MARKS×5⟧');
    expect(hasHidden('\u1faf\u0301')).toBe(false);
  });

  it('a variation selector among marks, which may carry a hidden text, is named on its own', () => {
    // Counted into the run, it was only a number in "MARKS×6".
    const text = 'x' + ABOVE.repeat(2) + '\u{e0100}' + ABOVE.repeat(3);
    expect(revealPlain(text)).toBe('x' + ABOVE.repeat(2) + '⟦U+E0100⟧' + ABOVE.repeat(3));
  });

  it('property: no run of five marks reaches the card, whole or cut into blocks (fixed seed)', () => {
    const piece = fc.oneof(
      fc.constantFrom('a', 'é', ' ', '\n', '\u200b', '\u{1d165}'),
      fc
        .tuple(
          fc.constantFrom(ABOVE, BELOW, '\u0489', '\u034f', '\ufe0f', '\u{1d167}', '\u102c'),
          fc.integer({ min: 1, max: 12 }),
        )
        .map(([m, n]) => m.repeat(n)),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.integer({ min: 1, max: 30 }),
        (pieces, size) => {
          const text = pieces.join('');
          const blocks = chunkText(text, size);
          expect(blocks.join('')).toBe(text);
          for (const b of blocks.slice(1))
            expect(/^\p{M}/u.test(b) && /\p{M}$/u.test(blocks[blocks.indexOf(b) - 1]!)).toBe(false);
          const shown = (t: string) =>
            reveal(t)
              .map((p) => ('mark' in p ? '[]' : p.text))
              .join('');
          expect(shown(text)).not.toMatch(STACK);
          expect(blocks.map(revealPlain).join('')).toBe(revealPlain(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('property: the card names a stack exactly when the prompts refuse Allow for one (fixed seed)', () => {
    // main/shell/approval-text.ts reads a text as hasStackedMarks with each emoji one picture.
    const prompts = (t: string) => hasStackedMarks(t.replace(RGI_EMOJI, '\ufffc'));
    const card = (t: string) => reveal(t).some((p) => 'mark' in p && p.mark.startsWith('MARKS'));
    const piece = fc.oneof(
      fc.constantFrom(
        'a',
        'é',
        '\u1faf',
        '😀',
        '1\ufe0f\u20e3',
        '❤️',
        '\ufe0f',
        '\u200b',
        '\u102c',
      ),
      fc
        .tuple(fc.constantFrom(ABOVE, BELOW, '\u0344', '\u20dd'), fc.integer({ min: 1, max: 6 }))
        .map(([m, n]) => m.repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const t = pieces.join('');
        expect(card(t)).toBe(prompts(t));
      }),
      { numRuns: 2000 },
    );
  });
});
