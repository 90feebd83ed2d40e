// Where text shown to someone is cut: the tray's labels, notifications, a card's quoted values,
// a result cut for the agent, a server's stderr in a status line. One cutter, so no cut anywhere
// splits a character: between the halves of a surrogate pair it left a lone surrogate (no Unicode
// text: JSON over UTF-8, RFC 8259 §8.1, gets U+FFFD or a decoder error), and between a letter and
// its combining marks, or inside an emoji sequence, it showed another character (é as e, 👩‍👧 as 👩).

/** Grapheme clusters (UAX #29 extended grapheme clusters): what a reader takes for one character. */
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How long a text is, in code points (what a reader counts, not UTF-16 units). */
export const codePoints = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
};

/** How long a text is, in UTF-16 code units (a string's `length`). */
export const codeUnits = (s: string): number => s.length;

/**
 * How far before a cut the cluster it falls in is looked for, in UTF-16 units. Segmenting the
 * whole text up to the cut cost O(cut) on every result cut for the agent — tens of milliseconds
 * at the default 20,000 characters, over half a second at 1,000,000, on the main thread — where a
 * slice had cost nothing. UAX #29 decides a boundary from the characters next to it, but for
 * regional indicators (GB12/13, counted back by regionalRun) and the emoji and Indic sequences of
 * GB11 and GB9c, whose look-back stays inside one cluster: so a window this long gives the true
 * boundary for any cluster shorter than it. The longest emoji sequence is 35 units; a longer
 * cluster (a "zalgo" run of a million marks is one) is cut where the window begins, between code
 * points, as plain text would be.
 */
export const CLUSTER_WINDOW = 256;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
/** Whether a surrogate pair starts at `i`: one code point of two units. */
const pairAt = (s: string, i: number) =>
  isHigh(s.charCodeAt(i)) && i + 1 < s.length && isLow(s.charCodeAt(i + 1));
/** Whether a regional indicator (U+1F1E6–U+1F1FF, a flag's half) ends at `i` (exclusive). */
const regionalBefore = (s: string, i: number) =>
  i >= 2 &&
  s.charCodeAt(i - 2) === 0xd83c &&
  s.charCodeAt(i - 1) >= 0xdde6 &&
  s.charCodeAt(i - 1) <= 0xddff;

/**
 * The longest start of `text` no longer than `max` (measured by `measure`, code points unless
 * told) that ends between two grapheme clusters: never half a surrogate pair, never a letter
 * without its marks, never part of an emoji sequence. Empty when the first cluster is longer.
 * Reads the text up to the cut once, and segments only CLUSTER_WINDOW units of it.
 */
export function textPrefix(
  text: string,
  max: number,
  measure: (s: string) => number = codePoints,
): string {
  // A limit that is no number (NaN) keeps nothing, as `slice(0, NaN)` did before this cutter.
  if (!(max >= 0)) return '';
  if (measure(text) <= max) return text;
  return text.slice(0, clusterStart(text, fitEnd(text, max, measure)));
}

/** Where the longest start of whole code points within `max` ends (a UTF-16 index before text's end). */
function fitEnd(text: string, max: number, measure: (s: string) => number): number {
  if (measure === codeUnits) {
    const end = Math.floor(max);
    return end > 0 && pairAt(text, end - 1) ? end - 1 : end;
  }
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const next = end + (pairAt(text, end) ? 2 : 1);
    used += measure(text.slice(end, next));
    if (used > max) break;
    end = next;
  }
  return end;
}

/** Where the cluster holding the code point at `at` begins (see CLUSTER_WINDOW). */
function clusterStart(text: string, at: number): number {
  let from = Math.max(0, at - CLUSTER_WINDOW);
  if (from > 0 && isLow(text.charCodeAt(from)) && isHigh(text.charCodeAt(from - 1))) from--;
  // Regional indicators pair from the start of their run (GB12/13): a window that begins on the
  // second of a pair takes the first too, or every flag after it would be read split in two.
  if (pairAt(text, from) && regionalBefore(text, from + 2)) {
    let run = 0;
    for (let i = from; regionalBefore(text, i); i -= 2) run++;
    if (run % 2 === 1) from -= 2;
  }
  const upTo = at + (pairAt(text, at) ? 2 : 1);
  return from + GRAPHEMES.segment(text.slice(from, upTo)).containing(at - from)!.index;
}

/** `text` cut to at most `max` code points, "…" included, at a cluster boundary (textPrefix). */
export function cutText(text: string, max: number): string {
  return codePoints(text) <= max ? text : `${textPrefix(text, Math.max(0, max - 1))}…`;
}
