/**
 * The direction controls (Bidi_Control, UAX #9) by their short names, as the approval window and
 * the card text name them instead of letting them act: one inside a value turns the text after
 * it around.
 */
export const BIDI_NAMES: Readonly<Record<string, string>> = {
  '\u061c': 'ALM',
  '\u200e': 'LRM',
  '\u200f': 'RLM',
  '\u202a': 'LRE',
  '\u202b': 'RLE',
  '\u202c': 'PDF',
  '\u202d': 'LRO',
  '\u202e': 'RLO',
  '\u2066': 'LRI',
  '\u2067': 'RLI',
  '\u2068': 'FSI',
  '\u2069': 'PDI',
};
