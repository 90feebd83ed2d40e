import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../common/contract';
import { ArgumentsView } from './ArgumentsView';
import { reveal, revealPlain } from './reveal';

/**
 * A hostile agent hides text on the approval card (audit, issue 17 item 8).
 *
 * - Invisible carriers: variation selectors (U+FE00–FE0F, U+E0100–E01EF) and tag characters
 *   (U+E0000–E007F) draw as nothing yet carry any text — "See you at noon" with a secret spelled
 *   in selectors reads as the greeting alone, so the user approves sending the secret. The card
 *   named bidi and zero-width characters but not variation selectors (they are marks, Mn, not
 *   format characters), and named each tag character as "␠×2", two spaces.
 * - Argument names: the card showed each name as is, so `to\u200b` read as a second `to`, and an
 *   override reordered a name; only the values were revealed.
 */

/** `secret` spelled in variation selectors, one per byte. */
const inSelectors = (secret: string) =>
  [...new TextEncoder().encode(secret)]
    .map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16))
    .join('');
const inTags = (secret: string) =>
  [...secret].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');

const marks = (text: string) => reveal(text).flatMap((p) => ('mark' in p ? [p.mark] : []));

describe('the card names invisible carriers of text', () => {
  it('a secret in variation selectors: one mark per selector, each with its code point', () => {
    const hidden = inSelectors('sk-7f');
    const shown = revealPlain(`See you at noon${hidden}`);
    expect(shown.startsWith('See you at noon⟦')).toBe(true);
    expect(marks(`See you at noon${hidden}`)).toEqual([
      'U+E0163', // 's' (0x73) − 16 + 0xE0100
      'U+E015B',
      'U+E011D',
      'U+E0127',
      'U+E0156',
    ]);
  });

  it('a secret in tag characters: named as the tags they are, never as spaces', () => {
    expect(marks(`ok${inTags('key')}`)).toEqual(['U+E006B', 'U+E0065', 'U+E0079']);
    expect(revealPlain(`ok${inTags('k')}!`)).toBe('ok⟦U+E006B⟧!');
  });

  it('an argument’s name is revealed like its value', () => {
    const html = renderToStaticMarkup(
      <ArgumentsView
        args={{ to: 'evil@evil.test', 'to\u200b': 'boss@example.com', '\u202emoc': 'x' }}
      />,
    );
    const names = [...html.matchAll(/<dt[^>]*>(.*?)<\/dt>/g)].map((m) => m[1]!);
    expect(names).toHaveLength(3);
    expect(names[0]).not.toContain('hidden-char');
    expect(names[1]).toMatch(/data-testid="hidden-char"[^>]*>ZWSP</);
    expect(names[2]).toMatch(/data-testid="hidden-char"[^>]*>RLO</);
    expect(names.join('')).not.toMatch(/[\u200b\u202e]/);
  });
});

describe('the card names words that mix Latin letters with look-alikes', () => {
  const noteOf = (args: Record<string, unknown>) => {
    const html = renderToStaticMarkup(<ArgumentsView args={args} />);
    return /data-testid="lookalike"[^>]*>(.*?)<\/mark>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '');
  };

  it('ceo@exаmple.com (Cyrillic а): the note names the word, the letter, its script and code point', () => {
    const note = noteOf({ to: 'ceo@ex\u0430mple.com' });
    expect(note).toContain('“ceo@ex\u0430mple.com” has Cyrillic \u0430 U+0430');
  });

  it('plain Latin, or Cyrillic words on their own, get no note', () => {
    expect(noteOf({ to: 'ceo@example.com' })).toBeUndefined();
    expect(noteOf({ body: 'Привет, мир — see you at 10' })).toBeUndefined();
  });

  it('a mixed word past the clip, or across the cut between two blocks, is still named', async () => {
    // With no line break in a block's second half, the cut between blocks falls at 1,000
    // characters (BLOCK_CHARS): here right after the Cyrillic а of "аpple.com", so each half on
    // its own is a word of one script.
    const body = `${'x'.repeat(998)} \u0430pple.com ${'z\n'.repeat(3000)}`;
    const { chunkText } = await import('./reveal');
    expect(chunkText(body, 1000)[0]!.endsWith(' \u0430')).toBe(true);
    const note = noteOf({ body });
    expect(note).toContain('“\u0430pple.com” has Cyrillic \u0430 U+0430');
  });
});

/** Every code point Unicode calls default-ignorable (UAX #44), computed from the property itself. */
const IGNORABLE: number[] = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  if (/\p{Default_Ignorable_Code_Point}/u.test(String.fromCodePoint(cp))) IGNORABLE.push(cp);
}

describe('property: nothing default-ignorable reaches the card unnamed', () => {
  it('over generated values mixing text and ignorable code points (fixed seed)', () => {
    expect(IGNORABLE.length).toBeGreaterThan(4000); // U+E0000–E0FFF alone is 4,096
    let withHidden = 0;
    const piece = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom(...IGNORABLE).map((cp) => String.fromCodePoint(cp)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        const parts = reveal(text);
        const shown = parts.flatMap((p) => ('mark' in p ? [] : [p.text])).join('');
        // No ignorable character is left to act in the text, and no pair is cut in two.
        expect(/\p{Default_Ignorable_Code_Point}/u.test(shown)).toBe(false);
        expect(
          /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(shown),
        ).toBe(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text));
        if (/\p{Default_Ignorable_Code_Point}/u.test(text)) withHidden++;
      }),
      { seed: 20261203, numRuns: 2000 },
    );
    console.log(
      `reveal property: ${withHidden} of 2000 generated values held ignorable code points`,
    );
    expect(withHidden).toBeGreaterThan(1000);
  });
});

describe('a preview laid out from the arguments names those it does not show', () => {
  it('a third-party mailer whose real recipients are in `recipients`: the preview says so', async () => {
    const { SummaryView } = await import('./SummaryView');
    const approval = {
      id: 'a1',
      agent: 'agent',
      tool: 'mailer__send',
      thirdParty: true,
      effect: 'Run "send" on mailer',
      arguments: {
        to: 'boss@example.com',
        subject: 'Q3 numbers',
        body: 'As discussed.',
        recipients: ['eve@evil.test'],
      },
      inputSchema: { type: 'object' },
      state: 'pending',
      createdAt: '2026-01-01T00:00:00Z',
      expiresAt: '2026-01-01T00:05:00Z',
    } as ApprovalView;
    const html = renderToStaticMarkup(<SummaryView approval={approval} />);
    expect(html).toContain('data-testid="summary-email"');
    expect(html).toMatch(/<dt>Not in this preview<\/dt><dd><span>recipients<\/span><\/dd>/);
  });
});

/**
 * Review of the audit: the card and the native prompts read emoji the same way (common/emoji.ts).
 * ❤️ (U+2764 U+FE0F) and 👨‍👩‍👧 (joined by ZWJ) draw their selector and joiners; one left over
 * after the sequence draws nothing and is named. A braille blank, refused by the prompts, is named
 * here, where they send the user.
 */
describe('emoji sequences are drawn, hidden text after them is named', () => {
  it('❤️, 👨‍👩‍👧, 🏴󠁧󠁢󠁥󠁮󠁧󠁿 and 1️⃣ carry no mark', () => {
    expect(marks('Thanks ❤️ 👨‍👩‍👧 🏴󠁧󠁢󠁥󠁮󠁧󠁿 1️⃣')).toEqual([]);
  });
  it('selectors, a joiner or tags left over after an emoji are named', () => {
    expect(marks(`❤️${inSelectors('k')}`)).toEqual(['U+E015B']);
    expect(marks('🙂\u200Dx')).toHaveLength(1);
    expect(marks(`🏴${inTags('ab')}`)).toEqual(['U+E0061', 'U+E0062']);
  });
  it('a braille blank (U+2800) is named', () => {
    expect(marks('bob@example.com\u2800')).toEqual(['U+2800']);
  });
});
