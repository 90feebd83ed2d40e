import { BIDI_NAMES } from '../../../common/bidi-names';
import { RGI_EMOJI } from '../../../common/emoji';
import {
  isStack,
  markAt,
  STACK_CANDIDATE,
  startsWithDrawnMark,
} from '../../../common/stacked-marks';

/**
 * Characters that change how text reads without being seen (issue 17 item 8):
 * direction overrides and isolates (U+202E turns "0009 :dna" into "and: 9000"),
 * zero-width and invisible characters, and long runs of blanks that push the
 * end of a value out of sight. Every place arguments are shown passes them
 * through `reveal`, which names each one instead of letting it act.
 */
export type Part = { text: string } | { mark: string; title: string };

const NAMES: Record<string, string> = {
  ...BIDI_NAMES,
  '\u200b': 'ZWSP',
  '\u200c': 'ZWNJ',
  '\u200d': 'ZWJ',
  '\u2060': 'WJ',
  '\u2061': 'FA',
  '\u2062': 'IT',
  '\u2063': 'IS',
  '\u2064': 'IP',
  '\ufeff': 'BOM',
  '\u00ad': 'SHY',
  '\u180e': 'MVS',
  '\u00a0': 'NBSP',
  '\u2007': 'FIGSP',
  '\u202f': 'NNBSP',
  '\u3000': 'IDSP',
};

/**
 * Invisible/direction characters, other format (Cf) and control characters except \n and \t,
 * every code point Unicode itself says a renderer shows nothing for (Default_Ignorable_Code_Point:
 * variation selectors U+FE00–FE0F and U+E0100–E01EF, tag characters U+E0000–E007F, Hangul fillers,
 * the combining grapheme joiner — which carry text, a secret among it, that no one sees; UAX #44,
 * PropList.txt), blanks that are not spaces (U+2800 braille blank, U+1D159 null notehead: the
 * native prompts refuse Allow for them and send the user here), runs of 4+ blanks, and more than
 * four combining marks on one character (common/stacked-marks.ts: they paint over other lines).
 * Inside Unicode's own emoji sequences (common/emoji.ts) a U+FE0F or joiner is drawn: not named.
 */
const SPECIAL = new RegExp(
  [
    /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060-\u2064\ufeff\u00ad\u180e\u00a0\u2007\u202f\u3000\u2000-\u200a\u205f\u2028\u2029\u2800\u{1d159}\p{Cc}\p{Cf}\p{Co}\p{Default_Ignorable_Code_Point}]/u
      .source,
    // Where combining marks may stack on one character beyond what writing does (isStack decides).
    STACK_CANDIDATE.source,
    '[ ]{4,}',
  ].join('|'),
  'gu',
);

/** Characters an emoji sequence may hold that SPECIAL names elsewhere. */
const EMOJI_PART = /\u200d|\ufe0f|[\u{e0020}-\u{e007f}]/u;

const hex = (c: string) => 'U+' + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');

/** A character `reveal` folds runs of into one mark (a space, or any it names): blocks never split its run. */
export function foldsIntoRun(c: string | undefined): boolean {
  if (c === undefined || c === '\n' || c === '\t') return false;
  if (c === ' ') return true;
  // A drawn mark is never folded: chunkText keeps a run of marks with its character instead.
  if (startsWithDrawnMark(c)) return false;
  SPECIAL.lastIndex = 0;
  const m = SPECIAL.exec(c);
  return m !== null && m[0] === c;
}

/**
 * A long value cut into blocks of about `size` characters for showing a piece at a time
 * (issue 27, item 6): preferably after a line break; never inside a run `reveal` folds into
 * one mark, nor inside a surrogate pair, nor before a combining mark, so the blocks revealed one by one show exactly what
 * the whole would (renderer/src/approvals/reveal.test.ts holds them to it).
 */
export function chunkText(text: string, size: number): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      // Searched within the block only: lastIndexOf from here would scan back to the start.
      const from = start + Math.ceil(size / 2);
      const nl = text.slice(from, end).lastIndexOf('\n');
      if (nl >= 0) end = from + nl + 1;
      const last = text[end - 1];
      if (foldsIntoRun(last)) while (end < text.length && text[end] === last) end++;
      else if (/[\ud800-\udbff]/.test(last ?? '') && end < text.length) end++;
      // Nor between a character and its combining marks: a run cut in two could read as two short
      // ones (common/stacked-marks.ts), and marks at a block's start have no character to sit on.
      while (end < text.length && markAt(text, end)) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
    }
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

export function reveal(text: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  const push = (t: string) => {
    if (t) parts.push({ text: t });
  };
  // The spans of emoji sequences (❤️, 👨‍👩‍👧): their selectors and joiners are part of the picture,
  // the same reading as the native prompts (main/shell/approval-text.ts); found only when the
  // text holds such a character, so plain long values pay nothing.
  const emoji: [number, number][] = [];
  if (EMOJI_PART.test(text))
    for (const e of text.matchAll(RGI_EMOJI)) emoji.push([e.index, e.index + e[0].length]);
  let ei = 0;
  SPECIAL.lastIndex = 0;
  for (let m = SPECIAL.exec(text); m; m = SPECIAL.exec(text)) {
    const s = m[0];
    if (s === '\n' || s === '\t') continue;
    while (ei < emoji.length && emoji[ei]![1] <= m.index) ei++;
    if (ei < emoji.length && emoji[ei]![0] <= m.index) {
      SPECIAL.lastIndex = emoji[ei]![1];
      continue;
    }
    if (startsWithDrawnMark(s)) {
      // Marks on the character before (STACK_CANDIDATE): drawn as they are unless they stack
      // beyond writing.
      if (!isStack(text, m.index, s)) continue;
      push(text.slice(last, m.index));
      // One mark for the run, which is not drawn.
      const n = [...s].length;
      parts.push({
        mark: `MARKS×${n}`,
        title: `${n} combining marks on one character, from ${hex(s)} (stacked, they are drawn over the lines around)`,
      });
      last = m.index + s.length;
      continue;
    }
    push(text.slice(last, m.index));
    if (s[0] === ' ') {
      // A run of plain spaces: kept readable, but never long enough to hide what follows.
      parts.push({ mark: `␠×${s.length}`, title: `${s.length} spaces` });
      last = m.index + s.length;
      continue;
    }
    // Count a run of the same invisible character as one mark (20,000 NBSP → one mark). A character
    // beyond the BMP (a tag, a variation selector from U+E0100) is two code units: one mark each,
    // as chunkText never folds them, and never a cut inside its pair.
    let end = m.index + s.length;
    if (s.length === 1) while (text[end] === s) end++;
    const n = (end - m.index) / s.length;
    const name = NAMES[s] ?? hex(s);
    parts.push({
      mark: n > 1 ? `${name}×${n}` : name,
      title: `${n > 1 ? `${n} × ` : ''}${hex(s)} (an invisible or direction-changing character)`,
    });
    last = end;
    SPECIAL.lastIndex = end;
  }
  push(text.slice(last));
  return parts;
}

/** True when `reveal` would show any mark. */
export function hasHidden(text: string): boolean {
  return reveal(text).some((p) => 'mark' in p);
}

/** Plain-text form with marks as ⟦NAME⟧, for places that cannot render markup (titles, notifications). */
export function revealPlain(text: string): string {
  return reveal(text)
    .map((p) => ('mark' in p ? `⟦${p.mark}⟧` : p.text))
    .join('');
}
