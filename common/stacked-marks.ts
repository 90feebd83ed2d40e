/**
 * Combining marks stacked on one character (red-team finding R1, docs/security.md "Hidden
 * text"). A mark is drawn on its base, above or below it, each further one beyond the last, and a
 * line box clips none of them ("Zalgo" text): a few letters carrying sixty marks each paint a
 * column of ink over the lines above and below, such as a card's Bcc row above its Subject. No
 * writing stacks more than four on a letter (Vietnamese two, pointed Hebrew with a cantillation
 * mark up to four), so a run of more is named, as an invisible character is.
 *
 * Only marks drawn on the character count — non-spacing (Mn) and enclosing (Me). A spacing mark
 * (Mc) takes its own place on the line as a letter does, and breaks the run: Burmese writes
 * five marks in a row in everyday words (လျှော့, "reduce": ျ ှ ေ ာ ့, three of them spacing), which
 * counted as a stack were named and kept from the native prompts' Allow.
 *
 * Marks that are also default-ignorable (variation selectors, the combining grapheme joiner) are
 * not counted here: each is named on its own (renderer reveal.ts, main/shell/approval-text.ts).
 */
export const MAX_STACKED_MARKS = 4;

/** A run of more than MAX_STACKED_MARKS non-spacing or enclosing marks, not default-ignorable. */
export const STACKED_MARKS = new RegExp(
  `(?:(?!\\p{Default_Ignorable_Code_Point})[\\p{Mn}\\p{Me}]){${MAX_STACKED_MARKS + 1},}`,
  'u',
);

/** Whether the character starting at `i` of `text` is a combining mark (\p{M}). */
export function markAt(text: string, i: number): boolean {
  const c = text.codePointAt(i);
  return c !== undefined && /\p{M}/u.test(String.fromCodePoint(c));
}
