/**
 * Combining marks stacked on one character (red-team finding R1, docs/security.md "Hidden
 * text"). A mark is drawn on its base, above or below it, each further one beyond the last, and a
 * line box clips none of them ("Zalgo" text): a few letters carrying sixty marks each paint a
 * column of ink over the lines above and below, such as a card's Bcc row above its Subject. No
 * writing stacks more than four on a letter (Vietnamese two, pointed Hebrew with a cantillation
 * mark up to four), so a run of more is named, as an invisible character is.
 *
 * Marks that are also default-ignorable (variation selectors, the combining grapheme joiner) are
 * not counted here: each is named on its own (renderer reveal.ts, main/shell/approval-text.ts).
 */
export const MAX_STACKED_MARKS = 4;

/** A run of more than MAX_STACKED_MARKS combining marks that are not default-ignorable. */
export const STACKED_MARKS = new RegExp(
  `(?:(?!\\p{Default_Ignorable_Code_Point})\\p{M}){${MAX_STACKED_MARKS + 1},}`,
  'u',
);

/** Whether the character starting at `i` of `text` is a combining mark (\p{M}). */
export function markAt(text: string, i: number): boolean {
  const c = text.codePointAt(i);
  return c !== undefined && /\p{M}/u.test(String.fromCodePoint(c));
}
