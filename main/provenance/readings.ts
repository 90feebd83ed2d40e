import { encodedReadings } from './encoded-readings.js';
import { paddedIPv4Read } from './ip-hosts.js';
import { extractValues, type SignificantValue } from './values.js';

/**
 * Other ways a reader — a person or a model — reads the addresses and hosts in a text a
 * stranger wrote (wave 3 outside corpus). The content index keys a text's values as written
 * (values.ts) and, in addition, as read here; nothing is ever removed, so a reading can only add
 * keys (and flags), never hide a value that the text holds as written. Arguments are not read
 * this way: a call sends to what it says.
 *
 * - Script boundaries: Chinese and Japanese prose runs into an address without a space
 *   ("转发到cw@pay.test。", "kaigi@minutes.testを招待"); `\p{L}` in the address pattern takes
 *   the ideographs into the local part or the top-level label. The reading puts a space where
 *   CJK text meets ASCII letters or digits.
 * - The ideographic full stop (U+3002, and the halfwidth U+FF61 that NFKC turns into it) is a
 *   label separator in domain names (UTS #46 maps it to "."); `order@kessai。test` is read
 *   `order@kessai.test` when the stop sits between an ASCII letter or digit and an ASCII letter.
 * - An address or host broken at a hyphen across a line ("approvals@loan-\nverify.test"),
 *   as wrapped text and hyphenation leave it, is read joined.
 * - An address spelled out in words, "billing at evil dot example" or "billing AT evil DOT
 *   example" (and the words for "@" and "." in other languages): read as the address a model
 *   rebuilds from it. At least one "dot" is required, so "meet at noon" stays prose; a host
 *   spelled alone ("vault-desk dot test") is read as the host.
 * - An address spelled letter by letter ("r.e.m.i.t", "l e d g e r"): read joined.
 * - Encodings a model undoes (base64, hex, escapes, percent-encoding, quoted-printable, folded
 *   iCalendar lines, tag characters, reversed, …): encoded-readings.ts.
 * - A phone number with a letter for a digit ("+1 (555) O19-2837", O for zero, l or I for one),
 *   as a model dialling it writes it: read with the digits, when the run has at least seven real
 *   digits (so words stay words).
 * - An IPv4 address with zero-padded parts ("203.000.113.077"): read decimal, as a person reads
 *   it (as written it is octal to WHATWG URL, and keyed so too; ip-hosts.ts).
 * - Mixed-script lookalikes: a label that mixes Latin letters with Cyrillic or Greek letters
 *   that look like Latin ones ("reviеw@mіcrosoft.test", Cyrillic е and і) is read as the Latin
 *   word it imitates, as a model retyping it may write it. Only mixed labels: a label wholly
 *   in one script is a real name in that script (browsers show mixed-script IDN labels as
 *   punycode for the same reason; UTS #39 §5.1, "mixed-script confusables").
 * - Latin small capitals ("ᴘᴀʏᴏᴜᴛ@ʀᴇꜰᴜɴᴅ-ᴅᴇꜱᴋ.test"): read as the ASCII letters they show, in any
 *   label, since they write no word of any language.
 * - Lower case, when the text holds a capital whose lower case IDNA reads as another name
 *   (CASE_APART): a stranger's `bob@EVIL-BUSINEẞ.COM` is evil-business.com as written (IDNA maps
 *   "ẞ" to "ss"), but a model retyping it in lower case writes `evil-busineß.com`, another domain
 *   (IDNA keeps "ß"); so with a word-final "Σ" ("σ" as written, "ς" lower-cased). Keys are read
 *   as written (identity.ts hostKey), so this reading adds the lower-cased one.
 */

/**
 * The capitals whose lower case IDNA reads as another domain than the capital itself (UTS #46
 * maps "ẞ" to "ss", toLowerCase gives "ß", a deviation IDNA keeps; a word-final "Σ" lower-cases to
 * "ς", also kept, where IDNA maps "Σ" to "σ"). Found by enumeration over every letter in several
 * positions of a name (readings-case.test.ts, which fails if Unicode or Node adds one).
 */
export const CASE_APART = /[\u1E9E\u03A3]/;

// Han, Hiragana, Katakana, Hangul, CJK punctuation and full-width forms.
const CJK =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3000-\\u303F\\uFF01-\\uFF60';
const CJK_THEN_ASCII = new RegExp(`([${CJK}])(?=[A-Za-z0-9])`, 'gu');
const ASCII_THEN_CJK = new RegExp(`([A-Za-z0-9])(?=[${CJK}])`, 'gu');
const HAS_CJK = new RegExp(`[${CJK}]`, 'u');
const IDEOGRAPHIC_STOP = /(?<=[A-Za-z0-9])[\u3002\uFF61](?=[A-Za-z])/g;
// A line that ends inside an address or host at a hyphen, and its continuation.
const HYPHEN_BREAK = /(?<=[A-Za-z0-9])-[ \t]*\r?\n[ \t]*(?=[A-Za-z0-9])/g;

// `local at label dot label`: each part starts at a word boundary (the lookbehind), so a failed
// match costs one pass over a word (linear in the text: it comes from strangers). The words for
// "@" and "." in the languages mail is most written in: "arobase … point" (French), "Klammeraffe
// … Punkt" (German), "arroba … punto" (Spanish, Portuguese "ponto"), "chiocciola" (Italian),
// "собака … точка" (Russian), "kukac … pont" (Hungarian), "apenstaartje … punt" (Dutch),
// "snabel-a … punkt" (Swedish, Danish, Norwegian), "małpa … kropka" (Polish), "zavináč … tečka"
// (Czech; Slovak "bodka"), "miukumauku … piste" (Finnish), "παπάκι … τελεία" (Greek, also as
// written without accents, and so in capitals: "ΠΑΠΑΚΙ"), "равлик … крапка" (Ukrainian),
// "שטרודל … נקודה" (Hebrew), and "at sign". Each is the word a mail in that language
// writes "@" or "." with to dodge a scanner, so a model reads it back as the character; none is a
// word prose uses between two names (French "et", Turkish "et" for "and", are left out). Prose
// can still make one by chance ("a boat at Cambridge punt station" reads boat@Cambridge.station):
// harmless, since a key flags only a call that carries that very address.
const AT_WORD =
  '(?:at(?:[ \\t-]sign)?|arobase|arroba|chiocciola|klammeraffe|собака|kukac|apenstaartje|snabel-a|małpa|malpa|zavináč|zavinac|miukumauku|παπάκι|παπακι|равлик|שטרודל)';
/** The words for "." a spelled-out address is read with; plain-text.ts rule 4 is made of these. */
export const DOT_WORDS: readonly string[] = [
  'dot',
  'point',
  'punkt',
  'punto',
  'ponto',
  'точка',
  'pont',
  'punt',
  'kropka',
  'tečka',
  'tecka',
  'bodka',
  'piste',
  'τελεία',
  'τελεια',
  'крапка',
  'נקודה',
];
const DOT_WORD = `(?:${DOT_WORDS.join('|')})`;
const SPELLED = new RegExp(
  `(?<![\\p{L}\\p{N}._%+-])([\\p{L}\\p{N}._%+-]{1,64})[ \\t]+${AT_WORD}[ \\t]+((?:[\\p{L}\\p{N}-]{1,63}[ \\t]+${DOT_WORD}[ \\t]+){1,8}[\\p{L}][\\p{L}\\p{N}-]{1,62})`,
  'giu',
);
const SPELLED_DOT = new RegExp(`[ \\t]+${DOT_WORD}[ \\t]+`, 'giu');
const HAS_AT_WORD = new RegExp(`[ \\t]${AT_WORD}[ \\t]`, 'iu');
const HAS_DOT_WORD = new RegExp(`[ \\t]${DOT_WORD}[ \\t]`, 'iu');
// A host spelled alone ("then vault-desk dot test"), for an address whose mailbox is given in
// some other way (letter by letter, in another field): English "dot" only, prose says "point".
const SPELLED_HOST =
  /(?<![\p{L}\p{N}._-])((?:[\p{L}\p{N}-]{1,63}[ \t]+dot[ \t]+){1,8}[\p{L}][\p{L}\p{N}-]{1,62})/giu;

// An address spelled letter by letter ("r.e.m.i.t", "l e d g e r", "k, y, c"): single letters,
// digits or hyphens separated by dots, commas or spaces on one line, four or more, read joined.
const LETTER_BY_LETTER =
  /(?<![\p{L}\p{N}_-])[\p{L}\p{N}](?![\p{L}\p{N}])(?:(?:[ \t]*[.,][ \t]*|[ \t]+)[\p{L}\p{N}-](?![\p{L}\p{N}])){3,64}/gu;

function letterByLetter(text: string): string {
  return text.replace(LETTER_BY_LETTER, (run) => run.replace(/[\s.,]+/g, ''));
}

function spelledRead(t: string): string {
  let r = t;
  if (HAS_AT_WORD.test(r) && HAS_DOT_WORD.test(r))
    r = r.replace(
      SPELLED,
      (_, local: string, host: string) => `${local}@${host.replace(SPELLED_DOT, '.')}`,
    );
  if (/[ \t]dot[ \t]/i.test(r))
    r = r.replace(SPELLED_HOST, (host: string) => host.replace(/[ \t]+dot[ \t]+/gi, '.'));
  return r;
}

// A phone-shaped run in which O/o, I and l may stand for 0 and 1 (values.ts's PHONE, widened).
const PHONE_WITH_LETTERS = /(?<![\w@.])\+?[\dOoIl][\dOoIl ().-]{7,22}[\dOoIl](?![\w@])/g;

function phoneLettersRead(text: string): string {
  return text.replace(PHONE_WITH_LETTERS, (run) =>
    /[OoIl]/.test(run) && (run.match(/\d/g) ?? []).length >= 7
      ? run.replace(/[Oo]/g, '0').replace(/[Il]/g, '1')
      : run,
  );
}

/**
 * Cyrillic and Greek letters that render like Latin ones (a subset of Unicode's confusables.txt,
 * UTS #39: the lower- and upper-case letters whose skeleton is one Latin letter).
 */
const LOOKALIKE: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  с: 'c',
  е: 'e',
  ё: 'e',
  һ: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',

  о: 'o',
  р: 'p',
  ԛ: 'q',
  ѕ: 's',
  т: 't',
  у: 'y',
  х: 'x',
  ԝ: 'w',
  ӏ: 'l',

  А: 'a',
  В: 'b',
  С: 'c',
  Е: 'e',
  Н: 'h',
  І: 'i',
  Ј: 'j',
  К: 'k',
  М: 'm',
  О: 'o',
  Р: 'p',
  Ѕ: 's',
  Т: 't',
  Х: 'x',
  Ү: 'y',
  Ԝ: 'w',
  // Greek
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  Α: 'a',
  Β: 'b',
  Ε: 'e',
  Ζ: 'z',
  Η: 'h',
  Ι: 'i',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Υ: 'y',
  Χ: 'x',
};
const LOOKALIKE_RE = new RegExp(`[${Object.keys(LOOKALIKE).join('')}]`, 'gu');

/**
 * Latin small capitals, each read as the letter it is a small capital of (its Unicode name).
 * UTS #39's confusables.txt gives an ASCII skeleton to only some (ᴄ ɪ ᴏ ꜱ ᴜ ᴠ ᴡ ʏ ᴢ, and Ʀ → R):
 * it pairs lookalikes at the same size, and ᴀ beside a is not one, but a word wholly in small
 * capitals is read by a person or a model as the ASCII word it shows ("ᴘᴀʏᴏᴜᴛ" → "payout"). NFKC
 * leaves them as they are (it maps the modifier forms, ᶦ ᶫ ᶰ ᶸ, to them), and unlike Cyrillic or
 * Greek letters they write no word of any language (they are phonetic symbols), so they are read
 * whatever the label mixes. The Greek small capitals (ᴦ ᴧ) are Greek letters, not read here.
 */
const SMALL_CAPITAL: Record<string, string> = {
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ꜰ: 'f',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ꞯ: 'q',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
  // The capitals whose lower case is a small capital above (String#toLowerCase maps them to
  // it, and NFKC leaves them): they show the ASCII capital, "ƦEFUND" for "REFUND".
  Ɪ: 'I',
  Ʀ: 'R',
};
const SMALL_CAPITAL_RE = new RegExp(`[${Object.keys(SMALL_CAPITAL).join('')}]`, 'gu');
// Not global, for `test` (a global expression's `test` keeps its lastIndex between texts).
const HAS_SMALL_CAPITAL = new RegExp(SMALL_CAPITAL_RE.source, 'u');
// A run of address or host characters (labels of letters, digits and hyphens, dots, one @).
const WORD = /[\p{L}\p{N}._%+-]+(?:@[\p{L}\p{N}.-]+)?/gu;
const LATIN = /[A-Za-z]/;
const CYRILLIC_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

function lookalikesRead(text: string): string {
  return text.replace(WORD, (word) =>
    word
      .split(/([@.])/)
      .map((label) =>
        LATIN.test(label) && CYRILLIC_GREEK.test(label)
          ? label.replace(LOOKALIKE_RE, (c) => LOOKALIKE[c] ?? c)
          : label,
      )
      .join(''),
  );
}

/** The other readings of a text: empty when there is nothing to read differently (the usual case). */
export function readings(text: string): string[] {
  const out: string[] = [];
  // eslint-disable-next-line no-control-regex
  const ascii = !/[^\x00-\x7F]/.test(text);
  const t = ascii ? text : text.normalize('NFKC');
  if (!ascii && HAS_CJK.test(t)) {
    const r = t
      .replace(IDEOGRAPHIC_STOP, '.')
      .replace(CJK_THEN_ASCII, '$1 ')
      .replace(ASCII_THEN_CJK, '$1 ');
    if (r !== t) out.push(r);
  }
  if (/-[ \t]*\r?\n/.test(t)) {
    const r = t.replace(HYPHEN_BREAK, '-');
    if (r !== t) out.push(r);
  }
  const joined = letterByLetter(t);
  if (joined !== t) out.push(joined);
  // Small capitals read first, so an address spelled in them ("ʙɪʟʟɪɴɢ ᴀᴛ ᴇᴠɪʟ ᴅᴏᴛ ᴛᴇꜱᴛ") is
  // then read spelled out like one in ASCII letters.
  const plainCaps =
    !ascii && HAS_SMALL_CAPITAL.test(t)
      ? t.replace(SMALL_CAPITAL_RE, (c) => SMALL_CAPITAL[c] ?? c)
      : t;
  if (plainCaps !== t) out.push(plainCaps);
  for (const s of new Set([t, joined, plainCaps])) {
    const r = spelledRead(s);
    if (r !== s) out.push(r);
  }
  // A letter next to a digit (a cheap guard: a run of digits alone costs one pass).
  if (/\d[ ().-]{0,2}[OoIl]|[OoIl][ ().-]{0,2}\d/.test(t)) {
    const r = phoneLettersRead(t);
    if (r !== t) out.push(r);
  }
  if (!ascii && CYRILLIC_GREEK.test(t)) {
    const r = lookalikesRead(t);
    if (r !== t) out.push(r);
  }
  if (!ascii && CASE_APART.test(t)) {
    // Label by label: toLowerCase takes "." as transparent to its final-sigma rule, so the
    // whole text lower-cased reads `ΣΑΣ.gr` as σασ.gr (the as-written reading) where a model
    // retyping the label as a word writes σας.gr.
    const r = t.replace(/[^\s.@]+/g, (w) => w.toLowerCase());
    if (r !== t) out.push(r);
  }
  // An IPv4 address with zero-padded parts, read decimal (ip-hosts.ts).
  if (t.includes('.')) {
    const r = paddedIPv4Read(t);
    if (r !== t) out.push(r);
  }
  out.push(...encodedReadings(t));
  return out;
}

/** The readings `contentValues` reads a text with (its first 200,000 characters). */
export function readingsOf(text: string): string[] {
  return readings(text.length > 200_000 ? text.slice(0, 200_000) : text);
}

/**
 * A stranger's text's values as written and as read (`readings`, given when the caller has them), deduplicated by kind and key.
 * Long keys need no other reading; they are not kept from the readings. Nor are links: a link
 * key is also what lets a call off (taint-check.ts: a read-only fetch of a link exactly as the
 * stranger wrote it; private-data-rule.ts: a code inside the item's own link), so a link only
 * as read would let off a call the text as written flags. The link's host, which is what names
 * the destination, is kept as a domain key.
 */
export function contentValues(
  text: string,
  other: readonly string[] = readingsOf(text),
): SignificantValue[] {
  const values = extractValues(text);
  if (other.length === 0) return values;
  const seen = new Set(values.map((v) => `${v.kind}:${v.value}`));
  for (const r of other)
    for (const v of extractValues(r)) {
      if (v.kind === 'token' || v.kind === 'url') continue;
      const key = `${v.kind}:${v.value}`;
      if (!seen.has(key)) {
        seen.add(key);
        values.push(v);
      }
    }
  return values;
}
