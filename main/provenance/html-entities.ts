import { DecodingMode, HtmlEntityDecoder } from 'entities/decode';

/**
 * HTML character references as a model reading the rendered mail sees them (docs/provenance.md,
 * "Entities, the older patterns after markup, …"): "AI assistant&#58; forward …",
 * "&lt;p&gt;Gemini: …", "Copilot,&nbsp;send …", "&Acirc;&shy;ssistant". A stranger's HTML body
 * may spell a label, its colon or the markup before it as references, which no pattern reads as
 * written.
 *
 * Read by the `entities` library's decoder as a browser reads text (WHATWG HTML §13.2.5.72–80,
 * the "named character reference state" outside an attribute: DecodingMode.Legacy): all 2,231
 * named references, the legacy ones without their semicolon before more letters
 * ("AI&nbspassistant" renders "AI assistant"), numbers with any leading zeros, 0x80–0x9F as
 * Windows-1252 ("&#151;" an em dash), zero, surrogates and numbers past U+10FFFF as U+FFFD. The
 * text is not an attribute, so the attribute-value exception ("&nbspx" kept in href="…") is not
 * applied. Each reference is decoded by the library's streaming decoder, which reports how many
 * characters it consumed, so a decoded character is traced to the "&" it came from (`sourceAt`).
 *
 * Then, for the patterns only (`decodedEntities`), what a reference spells is read as the
 * patterns read it written out: spaces of any width as a plain space, invisible characters as
 * nothing (as `folded` does for the characters themselves; the patterns read "[ \t]"), and the
 * typographic characters as ASCII (STAND_IN), letters without accents or styling (readOther). `rawDecoded` is the browser's reading, the library's
 * `decodeHTML` (html-entities.property.test.ts holds the two equal).
 */

// Typographic characters a reference spells, read as ASCII that the patterns read the same way
// (a spaced dash or an arrow is a label's separator, quotes open a label, "…" ends a sentence):
// a text of Latin-1 stays one byte a character in V8, whose regular expressions then scan a 64 KiB
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
const LETTER = /\p{L}/u;
const MARKS = /\p{M}/gu;

/** What one decoded reference reads as to the patterns. */
function forPatterns(value: string): string {
  if (value.length === 1) return readChar(value);
  let out = '';
  for (const c of value) out += readChar(c);
  return out;
}
// What a character past ASCII reads as, kept: a page of "&eacute;" normalises once, not per
// reference. Bounded (numeric references reach any code point): past it, computed each time.
const READ = new Map<string, string>();
function readChar(c: string): string {
  // Printable ASCII is itself: the common references (&amp; &lt; &gt; &quot; &#58;) skip the tests.
  if (c > ' ' && c <= '~') return c;
  const known = READ.get(c);
  if (known !== undefined) return known;
  const r = readOther(c);
  if (READ.size < 4096) READ.set(c, r);
  return r;
}
function readOther(c: string): string {
  if (SPACE.test(c)) return ' ';
  if (INVISIBLE.test(c)) return '';
  const stand = STAND_IN[c];
  if (stand !== undefined) return stand;
  // A letter a reference spells is read plain, without its accents: "&Acirc;ssistant",
  // "Gem&iacute;ni" and "&Aopf;I" are the agent's name to a model reading it rendered (a reference
  // spells any letter, so a name is as easily written with an accented or styled one as with a
  // look-alike; NFKD as `folded`'s NFKC, which the reading without markup does not get). Letters
  // written out keep their accents.
  if (LETTER.test(c)) {
    const bare = c.normalize('NFKD').replace(MARKS, '');
    if (bare !== '') return bare;
  }
  return c;
}

/**
 * Where each reference was read: for the k-th, `spans[4k]`..`spans[4k+1]` in the text as sent
 * ("&" to the end of what the decoder consumed, its ";" if any), `spans[4k+2]`..`spans[4k+3]` in
 * the decoded text. Between references the two texts are the same.
 */
export interface EntityReading {
  readonly text: string;
  readonly spans: readonly number[];
}

// One decoder, reused: a reference is decoded whole in one `write` (the text is all there), so
// no state outlives a call.
let value = '';
const decoder = new HtmlEntityDecoder((cp) => {
  value += String.fromCodePoint(cp);
});

/** How many characters the reference at `amp` (an "&") spans, and its characters in `value`. */
function referenceAt(t: string, amp: number): number {
  value = '';
  decoder.startEntity(DecodingMode.Legacy);
  const n = decoder.write(t, amp + 1);
  // -1: the text ended inside a name or number ("… &nbsp"), which ends it.
  return n < 0 ? decoder.end() : n;
}

function read(t: string, as: (value: string) => string, spans?: number[]): string {
  let amp = t.indexOf('&');
  if (amp < 0) return t;
  let out = '';
  let last = 0;
  while (amp >= 0) {
    const n = referenceAt(t, amp);
    if (n > 0) {
      out += t.slice(last, amp);
      const r = as(value);
      spans?.push(amp, amp + n, out.length, out.length + r.length);
      out += r;
      last = amp + n;
      amp = t.indexOf('&', last);
    } else amp = t.indexOf('&', amp + 1);
  }
  return out + t.slice(last);
}

const same = (v: string): string => v;

/** The text with its references read once, as a browser renders it ("&amp;lt;" shows "&lt;"). */
export function rawDecoded(t: string): string {
  return read(t, same);
}

/** The text with its references read once, as the patterns read it (above). */
export function decodedEntities(t: string): string {
  return read(t, forPatterns);
}

/** `decodedEntities` with where each reference was read, for `sourceAt`. */
export function entityReading(t: string, raw = false): EntityReading {
  const spans: number[] = [];
  return { text: read(t, raw ? same : forPatterns, spans), spans };
}

/**
 * Where in the text as sent the character at `p` of the reading comes from: a character a
 * reference spelled, from its "&"; any other, from itself. Run on a hit only.
 */
export function sourceAt(reading: EntityReading, p: number): number {
  const s = reading.spans;
  let shift = 0;
  for (let k = 0; k < s.length; k += 4) {
    if (p < s[k + 2]!) break;
    if (p < s[k + 3]!) return s[k]!;
    shift = s[k + 1]! - s[k + 3]!;
  }
  return p + shift;
}
