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
 * The longest start of `text` no longer than `max` (measured by `measure`, code points unless
 * told) that ends between two grapheme clusters: never half a surrogate pair, never a letter
 * without its marks, never part of an emoji sequence. Empty when the first cluster is longer.
 */
export function textPrefix(
  text: string,
  max: number,
  measure: (s: string) => number = codePoints,
): string {
  // A limit that is no number (NaN) keeps nothing, as `slice(0, NaN)` did before this cutter.
  if (!(max >= 0)) return '';
  if (measure(text) <= max) return text;
  let used = 0;
  let end = 0;
  // Lazily segmented: a text of megabytes is read no further than its cut.
  for (const { segment } of GRAPHEMES.segment(text)) {
    const size = measure(segment);
    if (used + size > max) break;
    used += size;
    end += segment.length;
  }
  return text.slice(0, end);
}

/** `text` cut to at most `max` code points, "…" included, at a cluster boundary (textPrefix). */
export function cutText(text: string, max: number): string {
  return codePoints(text) <= max ? text : `${textPrefix(text, Math.max(0, max - 1))}…`;
}
