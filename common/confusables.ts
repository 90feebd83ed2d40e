/**
 * Letters drawn like Latin ones, as the Latin letter they are taken for: the data of `skeleton`
 * (common/lookalike.ts). Modelled on the UTS #39 confusables data ("Unicode Security Mechanisms",
 * section 4, confusables.txt, the MA table), reduced to what a reader of a short English start
 * would take for a Latin letter; no maintained confusables package is among the project's
 * dependencies. NFKC already folds full-width, mathematical, circled and squared letters, and
 * combining marks are dropped before this table is read, so neither needs an entry here; the
 * enclosed letters NFKC does not fold are (ENCLOSED_ROWS).
 *
 * Two tables, since lower-casing loses a look: Greek Β and Cyrillic В are drawn as B, but
 * lower-case to β and в, which are not. UPPER is read before lower-casing, LOWER after it.
 */
type Row = [target: string, codePoints: number[]];

/** Capitals (read before lower-casing) drawn as a Latin capital: Greek, Cyrillic, Cherokee, Lisu. */
const UPPER_ROWS: Row[] = [
  // Latin capital I is drawn as l in the sans-serif fonts tool lists use (UTS #39: I → l).
  ['l', [0x0049, 0x0399, 0x0406, 0x04c0, 0x13de, 0xa4f2]],
  ['a', [0x0391, 0x0410, 0x13aa, 0xa4ee]],
  ['b', [0x0392, 0x0412, 0x13f4, 0xa4d0]],
  ['c', [0x03f9, 0x0421, 0x13df, 0xa4da]],
  ['d', [0x13a0, 0xa4d3]],
  ['e', [0x0395, 0x0415, 0x13ac, 0xa4f0]],
  ['g', [0x13c0, 0xa4d6]],
  ['h', [0x0397, 0x041d, 0x13bb, 0xa4e7]],
  ['j', [0x037f, 0x0408, 0x13ab, 0xa4d9]],
  ['k', [0x039a, 0x041a, 0x13e6, 0xa4d7]],
  ['m', [0x039c, 0x041c, 0x13b7, 0xa4df]],
  ['n', [0x039d, 0xa4e0]],
  ['o', [0x039f, 0x041e, 0x0555, 0xa4f3]],
  ['p', [0x03a1, 0x0420, 0x13e2, 0xa4d1]],
  ['r', [0x13a1, 0xa4e3]],
  ['s', [0x0405, 0x13da, 0xa4e2]],
  ['t', [0x03a4, 0x0422, 0x13a2, 0xa4d4]],
  ['v', [0x13d9, 0xa4e6]],
  ['w', [0x13b3, 0xa4ea]],
  ['x', [0x03a7, 0x0425, 0xa4eb]],
  ['y', [0x03a5, 0x04ae, 0xa4ec]],
  ['z', [0x0396, 0x13c3, 0xa4dc]],
  ['f', [0xa4dd]],
  ['u', [0xa4f4]],
];

/** Lower-case letters (read after lower-casing) drawn as a Latin letter. */
const LOWER_ROWS: Row[] = [
  // Greek, Cyrillic, IPA and small capitals; Cherokee's small letters (U+AB70…) with their capitals.
  ['a', [0x0251, 0x03b1, 0x0430, 0x237a, 0x1d00, 0xab7a]],
  ['b', [0x0184, 0x0185, 0x044c, 0x0299, 0x13fc]],
  ['c', [0x03f2, 0x0441, 0x1d04, 0x217d, 0xabaf]],
  ['d', [0x0501, 0x1d05, 0x217e, 0xab70]],
  ['e', [0x0435, 0x03b5, 0x1d07, 0x212e, 0xab7c]],
  ['f', [0xa730]],
  ['g', [0x0261, 0x0262, 0x0581, 0xab90]],
  ['h', [0x04bb, 0x0570, 0x029c, 0xab8b]],
  // i and l are one letter here: I, l, 1 and | are drawn alike, and "AirIock" must meet "Airlock".
  [
    'l',
    [
      0x0069, 0x0131, 0x0269, 0x026a, 0x03b9, 0x0456, 0x04cf, 0x01c0, 0x007c, 0x2223, 0x0031,
      0x0661, 0x06f1, 0x05c0, 0x0627, 0x07ca, 0x2d4f, 0x029f, 0x0142, 0x019a, 0x026b, 0x217c,
      0x2170, 0xab75, 0xabae,
    ],
  ],
  ['j', [0x03f3, 0x0458, 0x0237, 0x1d0a, 0xab7b]],
  ['k', [0x03ba, 0x03f0, 0x043a, 0x1d0b, 0xabb6]],
  ['m', [0x043c, 0x1d0d, 0x217f, 0xab87]],
  ['n', [0x043f, 0x0578, 0x0274]],
  [
    'o',
    [
      0x03bf, 0x043e, 0x0585, 0x03c3, 0x1d0f, 0x0030, 0x00f8, 0x0e50, 0x0ed0, 0x0966, 0x09e6,
      0x0b66,
    ],
  ],
  ['p', [0x03c1, 0x0440, 0x03f1, 0x1d18, 0xabb2]],
  ['q', [0x051b, 0x0566]],
  ['r', [0x0433, 0x0280, 0x1d26, 0xab71]],
  ['s', [0x0455, 0xa731, 0x01bd, 0xabaa]],
  ['t', [0x1d1b, 0xab72]],
  ['u', [0x03c5, 0x057d, 0x1d1c]],
  ['v', [0x03bd, 0x0475, 0x1d20, 0x2174, 0xaba9]],
  ['w', [0x051d, 0x0561, 0x1d21, 0xab83]],
  ['x', [0x03c7, 0x0445, 0x2179]],
  ['y', [0x03b3, 0x0443, 0x04af, 0x028f]],
  ['z', [0x1d22, 0xab93]],
];

function table(rows: Row[]): ReadonlyMap<string, string> {
  const m = new Map<string, string>();
  for (const [target, cps] of rows) for (const cp of cps) m.set(String.fromCodePoint(cp), target);
  return m;
}

/**
 * Enclosed capitals NFKC leaves as they are (they have no compatibility decomposition), each drawn
 * as its letter in a box or disc: negative circled 🅐 (U+1F150), negative squared 🅰 (U+1F170)
 * and the regional indicators 🇦 (U+1F1E6), which are boxed letters where no flag pairs them.
 */
const ENCLOSED_ROWS: Row[] = [...'abcdefghijklmnopqrstuvwxyz'].map((l, i) => [
  l === 'i' ? 'l' : l,
  [0x1f150 + i, 0x1f170 + i, 0x1f1e6 + i],
]);

export const CONFUSABLE_UPPER = table([...UPPER_ROWS, ...ENCLOSED_ROWS]);
export const CONFUSABLE_LOWER = table(LOWER_ROWS);
