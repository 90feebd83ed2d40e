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
 * Marks are counted as the ink is drawn, composed or not (NFD): a precomposed letter carries its
 * own (ᾯ, U+1FAF, is Ω and three) and a mark may be several (U+0344 is U+0308 U+0301); counted
 * as code points, ᾯ with four more, or four U+16128 (three each), passed as short runs.
 *
 * Marks that are also default-ignorable (variation selectors, the combining grapheme joiner) are
 * not counted here: each is named on its own (renderer reveal.ts, main/shell/approval-text.ts).
 */
export const MAX_STACKED_MARKS = 4;

/** A mark drawn on its character: non-spacing or enclosing, not default-ignorable. */
const DRAWN = '(?:(?!\\p{Default_Ignorable_Code_Point})[\\p{Mn}\\p{Me}])';
const DRAWN_ONE = new RegExp(`^${DRAWN}$`, 'u');

/**
 * Drawn marks that are several in their canonical decomposition (U+0344 is U+0308 U+0301; Tibetan
 * U+0F73 two; Gurung Khema U+16126 three). stacked-marks.test.ts holds this list to every code
 * point, and no character carries more than three of its own, so a run of one mark outside it is
 * never a stack and costs nothing to skip.
 */
export const MANY_MARKS =
  '[\\u0344\\u0c48\\u0f73\\u0f75\\u0f76\\u0f78\\u0f81\\u0f93\\u0f9d\\u0fa2\\u0fa7\\u0fac\\u0fb9\\u{1112e}\\u{1112f}\\u{16121}-\\u{16128}]';

/**
 * Where a stack may be, for `isStack` to decide: a run of two or more drawn marks, or one that is
 * several. Never two adjacent matches: a run is matched whole.
 */
export const STACK_CANDIDATE = new RegExp(`${DRAWN}{2,}|${DRAWN}*${MANY_MARKS}${DRAWN}*`, 'u');

/** Whether `s` begins with a drawn mark (a STACK_CANDIDATE match does; a variation selector does not). */
export function startsWithDrawnMark(s: string): boolean {
  const c = s.codePointAt(0);
  return c !== undefined && DRAWN_ONE.test(String.fromCodePoint(c));
}

/** Drawn marks in `s` as its canonical decomposition holds them (NFD): ᾯ (U+1FAF) is Ω and three. */
function drawnMarks(s: string): number {
  let n = 0;
  for (const c of s.normalize('NFD')) if (DRAWN_ONE.test(c)) n++;
  return n;
}

/**
 * Whether the run of drawn marks `run` found at `index` of `text` stacks more than
 * MAX_STACKED_MARKS on its character, counting those the character carries itself — composed
 * (NFC) or not, a stack is the same ink: ᾯ with two more is five above and below an Ω. The
 * character before a run is its base unless it is itself a mark (a keycap's U+20E3 ends an
 * emoji, which is drawn as a picture).
 */
export function isStack(text: string, index: number, run: string): boolean {
  // Each drawn mark is at least one in its decomposition (stacked-marks.test.ts, every code
  // point): a long run is a stack without decomposing it (a 4 MiB run of marks).
  if (run.length > 2 * MAX_STACKED_MARKS || [...run].length > MAX_STACKED_MARKS) return true;
  let own = 0;
  if (index > 0) {
    const pair = index > 1 && /[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(index - 2, index));
    const base = text.slice(index - (pair ? 2 : 1), index);
    if (!/\p{M}/u.test(base)) own = drawnMarks(base);
  }
  return own + drawnMarks(run) > MAX_STACKED_MARKS;
}

/** Whether `text` holds a stack of marks (isStack), as reveal.ts names them. */
export function hasStackedMarks(text: string): boolean {
  for (const m of text.matchAll(new RegExp(STACK_CANDIDATE.source, 'gu')))
    if (isStack(text, m.index, m[0])) return true;
  return false;
}

/** Whether the character starting at `i` of `text` is a combining mark (\p{M}). */
export function markAt(text: string, i: number): boolean {
  const c = text.codePointAt(i);
  return c !== undefined && /\p{M}/u.test(String.fromCodePoint(c));
}
