import fc from 'fast-check';

/**
 * Text built to forge an approval card's sentence: quote characters of every kind and what is drawn
 * like them, line breaks, direction controls, joiners, and the words the card under test itself
 * uses (`cardWords`).
 * Shared by the Calendar and Gmail card properties (card-quotes.property.test.ts): a quoted value
 * must change nothing before it, whatever it closes or imitates.
 */
export function forgingText(cardWords: readonly string[]): fc.Arbitrary<string> {
  return fc
    .array(
      fc.constantFrom(
        ...["'", '’', '‘', '"', '“', '”', '«', '»', '‹', '›', '「', '」'],
        // Drawn as a double quote: ˮ (U+02EE), single marks side by side, commas as marks.
        ...['ˮ', '’’', 'ʼʼ', '``', '\u0313\u0315'],
        ...['\n', '\r\n', '\u2028', '\u202e', '\u2066', '\u200f'],
        ...[' ', ', ', '. '],
        ...cardWords,
      ),
      { minLength: 1, maxLength: 8 },
    )
    .map((p) => p.join(''));
}
