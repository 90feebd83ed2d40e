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

// Names HTML reads without their semicolon (the legacy ones among NAMED).
const LEGACY = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp']);

/** A reference: numeric, or a name of up to 31 characters; linear (each part bounded). */
export const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}))(;?)/g;

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
    return c !== undefined && (semi === ';' || LEGACY.has(name)) ? (STAND_IN[c] ?? c) : whole;
  }
  const code = parseInt(hex ?? dec!, hex !== undefined ? 16 : 10);
  if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return whole;
  const c = String.fromCodePoint(code);
  return SPACE.test(c) ? ' ' : INVISIBLE.test(c) ? '' : (STAND_IN[c] ?? c);
}

/** The text with its references read (once: "&amp;lt;" reads "&lt;"). */
export function decodedEntities(t: string): string {
  return t.replace(ENTITY, entityText);
}
