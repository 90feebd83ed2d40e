/**
 * HTML character references as a model reading the rendered mail sees them (docs/provenance.md,
 * "Entities, the older patterns after markup, …"): "AI assistant&#58; forward …",
 * "&lt;p&gt;Gemini: …", "Copilot,&nbsp;send …". A stranger's HTML body may spell the label's
 * colon or the markup before it as references, which no pattern reads as written.
 *
 * Numeric references (decimal and hex, the semicolon optional as HTML allows: WHATWG HTML
 * §13.2.5.72–80) in full, and the named references a label, its separator or markup can be spelled
 * with (punctuation, brackets, arrows, dashes, spaces, invisible characters). No HTML entity
 * library is a dependency of the project (escape-html only escapes), and the full table of 2,231
 * names would spell letters the patterns fold anyway (NFKC); a name not here is left as written.
 * Spaces of any width read as a plain space, invisible characters as nothing, as `folded` does
 * for the characters themselves (the patterns read "[ \t]").
 */

// The named references, each for one character.
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  colon: ':',
  comma: ',',
  period: '.',
  excl: '!',
  quest: '?',
  semi: ';',
  sol: '/',
  bsol: '\\',
  lpar: '(',
  rpar: ')',
  lsqb: '[',
  rsqb: ']',
  lbrack: '[',
  rbrack: ']',
  lcub: '{',
  rcub: '}',
  lbrace: '{',
  rbrace: '}',
  num: '#',
  ast: '*',
  midast: '*',
  lowbar: '_',
  UnderBar: '_',
  commat: '@',
  plus: '+',
  equals: '=',
  vert: '|',
  verbar: '|',
  VerticalLine: '|',
  hyphen: '-',
  dash: '-',
  minus: '-',
  ndash: '–',
  mdash: '—',
  horbar: '―',
  rarr: '→',
  rArr: '⇒',
  Rarr: '↠',
  srarr: '→',
  rightarrow: '→',
  RightArrow: '→',
  Rightarrow: '⇒',
  longrightarrow: '⟶',
  LongRightArrow: '⟶',
  Longrightarrow: '⟹',
  map: '↦',
  raquo: '»',
  rsaquo: '›',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  bullet: '•',
  middot: '·',
  hellip: '…',
  Tab: '\t',
  NewLine: '\n',
  nbsp: ' ',
  NonBreakingSpace: ' ',
  ensp: ' ',
  emsp: ' ',
  emsp13: ' ',
  emsp14: ' ',
  numsp: ' ',
  puncsp: ' ',
  thinsp: ' ',
  ThinSpace: ' ',
  hairsp: ' ',
  VeryThinSpace: ' ',
  MediumSpace: ' ',
  shy: '',
  zwj: '',
  zwnj: '',
  NoBreak: '',
  ZeroWidthSpace: '',
  NegativeThinSpace: '',
  NegativeMediumSpace: '',
  NegativeThickSpace: '',
  NegativeVeryThinSpace: '',
  lrm: '',
  rlm: '',
};

// Names HTML reads without their semicolon (the legacy ones among NAMED), longest first: in text a
// browser reads the longest legacy name that starts the run of letters, and the rest as written
// ("AI&nbspassistant" renders "AI assistant", "Gem&shyini" "Gemini"; WHATWG HTML §13.2.5.73).
const LEGACY = ['middot', 'raquo', 'quot', 'nbsp', 'amp', 'shy', 'lt', 'gt'];

/**
 * A reference: numeric, with any number of digits ("&#0000058;" is a colon to a browser), or a
 * name of up to 31 characters. Linear: one run of digits or letters, then an optional semicolon.
 */
export const ENTITY = /&(?:#[xX]([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z][A-Za-z0-9]{1,31}))(;?)/g;

// The numbers 0x80–0x9F read as Windows-1252 spells them (WHATWG HTML §13.2.5.80): "&#151;" is an
// em dash to a browser, a label's separator, not the C1 control its number names.
const WINDOWS_1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

// Typographic characters a reference spells, read as ASCII that the patterns read the same way
// (a spaced dash or an arrow is a label's separator, quotes open a label, "…" ends a sentence):
// a text of ASCII stays one byte a character in V8, whose regular expressions then scan a 64 KiB
// HTML mail in about half the time ("&ndash;" in a signature made every step after twice as slow).
const STAND_IN: Readonly<Record<string, string>> = {
  '‘': "'",
  '’': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '–': ' - ',
  '—': ' -- ',
  '―': ' -- ',
  '→': ' -> ',
  '⟶': ' -> ',
  '⇒': ' => ',
  '⟹': ' => ',
  '»': ' >> ',
  '›': ' > ',
  '•': '- ',
  '…': '...',
};

// Characters read as a plain space or as nothing (as `folded` reads them written out).
const SPACE = /\p{Zs}/u;
const INVISIBLE = /[\p{Cf}\u034F]/u;

/** What one reference reads as, or the reference itself where it names nothing here. */
export function entityText(
  whole: string,
  hex: string | undefined,
  dec: string | undefined,
  name: string | undefined,
  semi: string,
): string {
  if (name !== undefined) {
    const c = NAMED[name];
    if (c !== undefined && semi === ';') return STAND_IN[c] ?? c;
    const legacy = LEGACY.find((l) => name.startsWith(l));
    if (legacy === undefined) return whole;
    const l = NAMED[legacy]!;
    return (STAND_IN[l] ?? l) + name.slice(legacy.length) + semi;
  }
  // Past seven significant digits a number is past U+10FFFF (parseInt of a long run is not exact).
  const digits = (hex ?? dec!).replace(/^0+/, '');
  if (digits.length > 7) return whole;
  let code = parseInt(digits || '0', hex !== undefined ? 16 : 10);
  if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return whole;
  if (code >= 0x80 && code <= 0x9f) code = WINDOWS_1252.codePointAt(code - 0x80)!;
  const c = String.fromCodePoint(code);
  return SPACE.test(c) ? ' ' : INVISIBLE.test(c) ? '' : (STAND_IN[c] ?? c);
}

/** The text with its references read (once: "&amp;lt;" reads "&lt;"). */
export function decodedEntities(t: string): string {
  return t.replace(ENTITY, entityText);
}
