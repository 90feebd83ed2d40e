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
