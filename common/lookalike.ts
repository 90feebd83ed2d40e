import { CONFUSABLE_LOWER, CONFUSABLE_UPPER } from './confusables.js';

/**
 * Letters that imitate Latin ones inside a Latin word (audit; issue 17 item 8): `ceo@exаmple.com`
 * with a Cyrillic а is another domain (`xn--exmple-4nf.com`, anyone's to register) that reads
 * exactly like `ceo@example.com`. Browsers show such a host in its ASCII form for the same reason
 * (Chromium's IDN display policy: mixed scripts in one label). The card cannot know which
 * address the user means, so it names what it sees: a word mixing Latin letters with letters of
 * the scripts that have Latin look-alikes, and each such letter with its script and code point.
 *
 * Decided over the whole value, not per revealed block (renderer reveal.ts cuts long values into blocks,
 * and a cut inside the word would hide the mix).
 */
const FOREIGN = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;
/** Words split on white space alone: linear (a pattern around the foreign letter would backtrack). */
const WORD = /\S+/gu;
const LATIN = /\p{Script=Latin}/u;
const FOREIGN_ALL = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/gu;

const SCRIPTS: [RegExp, string][] = [
  [/\p{Script=Cyrillic}/u, 'Cyrillic'],
  [/\p{Script=Greek}/u, 'Greek'],
  [/\p{Script=Armenian}/u, 'Armenian'],
  [/\p{Script=Cherokee}/u, 'Cherokee'],
];

export interface MixedWord {
  /** The word as written (at most 80 characters of it). */
  word: string;
  /** Its letters from another script: "Cyrillic а U+0430". */
  letters: string[];
}

/** Shown at most per value; `count` says how many there are in all. */
const MAX_SHOWN = 3;

/** The words of `text` that mix Latin letters with look-alike scripts; `count` of all of them. */
export function mixedScriptWords(text: string): { words: MixedWord[]; count: number } {
  const words: MixedWord[] = [];
  let count = 0;
  if (!FOREIGN.test(text)) return { words, count };
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (!FOREIGN.test(word) || !LATIN.test(word)) continue;
    count++;
    if (words.length >= MAX_SHOWN) continue;
    const letters = [...new Set(word.match(FOREIGN_ALL) ?? [])].slice(0, 6).map((c) => {
      const script = SCRIPTS.find(([re]) => re.test(c))?.[1] ?? 'another script';
      const cp = 'U+' + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      return `${script} ${c} ${cp}`;
    });
    words.push({ word: [...word].slice(0, 80).join(''), letters });
  }
  return { words, count };
}

/**
 * The look-alike words of a call's arguments, read as the card shows them (ArgumentsView): each
 * argument name and each string on its own, never the compact JSON a prompt prints — that is one
 * "word" with no spaces, so a Russian subject sat in one word with the Latin names `to`,
 * `subject` and took Allow from every such call; and a JSON escape (`Hi\nПривет`) glues a Latin
 * `n` to the next word.
 */
export function mixedScriptCount(value: unknown): number {
  if (typeof value === 'string') return mixedScriptWords(value).count;
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + mixedScriptCount(v), 0);
  if (value && typeof value === 'object')
    return Object.entries(value).reduce<number>(
      (n, [k, v]) => n + mixedScriptWords(k).count + mixedScriptCount(v),
      0,
    );
  return 0;
}

/**
 * The letters a reader takes `text` for: a UTS #39-style skeleton ("Unicode Security Mechanisms",
 * section 4), loosened for reading rather than for identifiers. NFKC (full-width, mathematical,
 * circled, squared and small letters to plain ones), then combining marks and default-ignorable
 * characters (zero-width joiners, variation selectors, soft hyphens) dropped, then each letter as
 * the Latin one it is drawn like (common/confusables.ts), capitals read before lower-casing, and
 * the table read once before NFKC too.
 * `i` and `l` are one letter (`l`), as I, l, 1 and | are drawn alike. Letters with no look-alike
 * are kept as they are (lower-cased); everything else is kept as it is.
 *
 * The one reading of "looks like" for words the server writes (main/tools/relay-label.ts
 * serverWords); mixedScriptWords above names mixed words on the card by script instead, since it
 * must name the letter, not only decide.
 */
export function skeleton(text: string): string {
  // Read before NFKC as well as after it: NFKC turns some look-alikes into other letters (Greek
  // lunate sigma ϲ, drawn as c, into ς).
  const pre = [...text].map((c) => CONFUSABLE_UPPER.get(c) ?? CONFUSABLE_LOWER.get(c) ?? c);
  const bare = pre.join('').normalize('NFKC').normalize('NFD').replace(IGNORED, '');
  let out = '';
  for (const c of bare) {
    const up = CONFUSABLE_UPPER.get(c);
    if (up !== undefined) {
      out += up;
      continue;
    }
    // toLowerCase can add a mark (İ → i + U+0307): dropped with the rest.
    for (const l of c.toLowerCase().replace(IGNORED, '')) out += CONFUSABLE_LOWER.get(l) ?? l;
  }
  return out;
}
const IGNORED = /[\p{M}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * Not prose, though Unicode calls it a letter: a pictograph (ℹ, U+2139, drawn as an emoji, with
 * its variation selector), a letterlike symbol (U+2100–214F), one letter (with its marks) standing
 * alone, a list marker ("a.", "iv)", "B:"), or one word before a colon, a heading of the words
 * after it ("Note:", "System:", "Important:"), not their first word.
 */
const MARKER =
  /^(?:\p{Extended_Pictographic}\p{M}*|[\u2100-\u214f]|\p{L}\p{M}*(?![\p{L}\p{M}])|[\p{L}\p{N}]{1,3}[.)\]:]|\p{L}[\p{L}\p{N}]{0,14}:)/u;
const NOT_LETTER = /^[^\p{L}]/u;
/** A markup tag or comment: `<` then a letter, `/`, `!` or `?`, up to its `>`. */
const TAG = /<[\p{L}/!?][^<>]*>/uy;

/**
 * Where the words of `text` could be taken to start: its start, and after each piece of a lead-in
 * that is not prose — symbols, emoji, punctuation, numbers and list numbering ("1.", "iv)"),
 * enclosed and circled signs (ⓘ), a letter standing alone (ℹ, U+2139, is a letter to Unicode),
 * spaces and marks, and markup tags (`<div class="x">`, `</b>`, `<!-- … -->`: whatever their
 * length, one piece, its end a start — the words inside a tag are not what the reader reads).
 * Ends at the first word of prose. At most `max` starts.
 */
export function wordStarts(text: string, max = 200): number[] {
  const starts = [0];
  let i = 0;
  while (i < text.length && starts.length < max) {
    // A tag reads to its `>` at the latest, and never past another `<`: each character is looked
    // at by one tag attempt at most, so the lead-in is read in linear time however long.
    TAG.lastIndex = i;
    if (TAG.test(text)) {
      i = TAG.lastIndex;
      starts.push(i);
      continue;
    }
    const rest = text.slice(i, i + 16);
    const m = MARKER.exec(rest);
    const end = m
      ? i + m[0].length
      : NOT_LETTER.test(rest)
        ? i + (rest.codePointAt(0)! > 0xffff ? 2 : 1)
        : i;
    if (end === i) break;
    // Every start inside a piece too: "①ａｉ." is a marker to the pattern, but "ａｉ" begins the word.
    while (i < end && starts.length < max) {
      i += text.codePointAt(i)! > 0xffff ? 2 : 1;
      starts.push(i);
    }
  }
  return starts;
}
