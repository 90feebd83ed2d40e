// How an approval card writes anyone else's text into Airlock's sentences: on the card's line
// (cardLine), and quoted so nothing inside reads as Airlock's words (quoted). Shared by the
// Google sources' cards (main/google), the native prompts (main/shell/approval-text.ts) and the
// approval window's headline and heading (renderer/src/approvals), so all read one way.

import { BIDI_NAMES } from './bidi-names.js';
import { codePoints, textPrefix } from './text-cut.js';

/**
 * A value written into one line of an approval card: the sender's name, a subject, a header a
 * draft holds, a file name. The card is read line by line — its first lines up to a blank one
 * are the mail's "Key: value" headers (renderer/src/approvals/summary.ts parseEffect lays out To,
 * Cc, Bcc and each Attachment from them), the rest is the preview — so a value that holds a line
 * break writes lines of its own: a display name "Carol\n\n" put the real address below the
 * headers, where the card shows the body, and a subject could add a "Bcc:" or a trashed message
 * the call does not touch. Gmail hands such values over decoded (an RFC 2047 word may encode a
 * line break), so anyone who writes a header — a stranger's subject, a draft saved elsewhere —
 * could. A Calendar card is one statement on one line, naming an invitation's title, which its
 * organizer wrote. Each break is shown as ⏎, on the line it belongs to.
 */
export function cardLine(value: string): string {
  return value.replace(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/g, '⏎');
}

/**
 * Double quotation marks and their look-alikes (Unicode's Quotation_Mark property, UAX #44
 * PropList.txt, and the primes and ditto marks drawn like them), each with the single mark a value
 * shows instead: inside `quoted`'s “…” none of these may stand, so nothing in a value reads as the
 * quote closing it. A single mark (an apostrophe, ‘ ’ ‹ ›) cannot close a double one and stays.
 */
const DOUBLE_QUOTES: Record<string, string> = {
  '"': "'",
  '“': '‘',
  '”': '’',
  '„': '‚',
  '‟': '‛',
  '«': '‹',
  '»': '›',
  '″': '′',
  '‶': '‵',
  '＂': '＇',
  '❝': '❛',
  '❞': '❜',
  '❠': '❟',
};
const DOUBLE_QUOTE = /["“”„‟«»″‶＂❝❞❠〃〝〞〟˝ʺ״⹂‴⁗‷ˮ˵˶\u1cd3\u{1f676}-\u{1f678}]/gu;

/**
 * Single marks and accents a font draws like one stroke of a double quote: two side by side (’’
 * ʼʼ '' `` ׳׳) are drawn as “ or ”, and Unicode's own confusables (UTS #39, confusables.txt) map
 * a double quote to two single ones. Not in Quotation_Mark, so the fold above did not see them:
 * `Q3ʼʼ, named ʻʻinvoice.pdf` closed and reopened the quote to the eye.
 */
const SINGLE_LIKE = "['`´ʹʻʼʽʾʿˈˊˋˎˏ˴ʹ׳՚՛՝ߴߵᑊ‘’‚‛′‵‹›＇｀΄᾽᾿῾Ꞌꞌ\\p{Sk}]";
/** Two single marks side by side: a space is put between them, so neither pair reads as one double mark. */
const SINGLE_PAIR = new RegExp(`(?<=${SINGLE_LIKE})(?=${SINGLE_LIKE})`, 'gu');
/**
 * Combining marks with no letter to sit on — on a quote mark or an accent (’ with U+0315 COMBINING
 * COMMA ABOVE RIGHT is drawn as ”), on a space (U+0313 and U+0315 there draw a free-standing ”),
 * or first in the value, where they would sit on the opening “ — are named (`[U+0315]`), as
 * direction controls are: writing puts its marks on letters.
 */
const LOOSE_MARKS = new RegExp(`(^|${SINGLE_LIKE}|\\s)(\\p{M}+)`, 'gu');
/**
 * Marks drawn as a comma or stroke above and to the right — U+0313 and U+0315 together draw ” on
 * the letter they sit on (`Q3` with them reads `Q3”`) — named wherever they are, but the
 * breathings U+0313, U+0314 and U+0343 on a Greek letter, where polytonic Greek writes them.
 */
const COMMA_MARK = /[\u0312\u0315\u0340\u0341]|(?<!\p{Script=Greek}\p{M}*)[\u0313\u0314\u0343]/gu;
const codePoint = (c: string) =>
  'U+' + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');

/**
 * Direction controls (Bidi_Control, UAX #9): drawn as they act, one inside a value turns the text
 * after it around — the closing quote and the card's next label among it (U+202E shows
 * `x”. Organizer: “a` backwards, from anywhere on the line). Named instead, as the approval
 * window names them (renderer reveal.ts), in every place the text is shown: the native prompts
 * and notifications too.
 */
const BIDI_CONTROL = /\p{Bidi_Control}/gu;

/** Longest value `quoted` shows, in code points as shown (named controls counted): a longer one must not push the card's later labels out of sight. */
export const MAX_QUOTED = 200;

/**
 * A value a card quotes — a subject, a label's or file's name, an event's title, a filter's
 * criteria, an organizer's address: anyone's words, inside Airlock's sentence. Quoted “so”, on
 * the card's line (cardLine), with no mark inside that reads as its closing quote (DOUBLE_QUOTES;
 * nor one drawn like it: SINGLE_PAIR, LOOSE_MARKS, COMMA_MARK), no direction control acting
 * (BIDI_NAMES), and at most MAX_QUOTED characters shown (the rest counted after the quote, not dropped
 * unsaid). So what stands between a value's quotes is the value, and every
 * word outside them is Airlock's: a subject `Q3”, named “invoice.pdf` cannot write a second name
 * for an attachment, nor an event's title `x”. Organizer: “ceo@…` its organizer.
 */
export function quoted(value: string): string {
  const points = [...cardLine(value)];
  let shown = points.length;
  // Neutralized whole only when it may fit (it never shows fewer characters than the value has):
  // a value of megabytes is read no further than its cut.
  let inner = shown <= MAX_QUOTED ? neutralized(points) : '';
  // Cut where what is shown — names and spaces added — reaches the limit: a value of 199 U+202E
  // was 995 characters once each was named.
  if (shown > MAX_QUOTED || [...inner].length > MAX_QUOTED) {
    let lo = 0;
    let hi = MAX_QUOTED - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ([...neutralized(points.slice(0, mid))].length <= MAX_QUOTED - 1) lo = mid;
      else hi = mid - 1;
    }
    // Between grapheme clusters (common/text-cut.ts): a cut inside 👩‍👧 or before é's accent showed
    // another character. One point past the cut decides the clusters before it (UAX #29 looks
    // back, and at the next character only), so a value of megabytes is still read no further.
    shown = codePoints(textPrefix(points.slice(0, lo + 1).join(''), lo));
    inner = neutralized(points.slice(0, shown));
  }
  const more = points.length - shown;
  return more ? `“${inner}…” (${more} more characters)` : `“${inner}”`;
}

/** A value's text as `quoted` shows it between its quotes; it only grows as the value does. */
function neutralized(points: string[]): string {
  return points
    .join('')
    .replace(DOUBLE_QUOTE, (q) => DOUBLE_QUOTES[q] ?? "'")
    .replace(LOOSE_MARKS, (_, on: string, marks: string) =>
      [on, ...[...marks].map((m) => `[${codePoint(m)}]`)].join(''),
    )
    .replace(COMMA_MARK, (m) => `[${codePoint(m)}]`)
    .replace(SINGLE_PAIR, ' ')
    .replace(BIDI_CONTROL, (c) => `[${BIDI_NAMES[c] ?? codePoint(c)}]`);
}

/** A word with no space, quote, bracket or control: an address, an id, a rule such as FREQ=WEEKLY;BYDAY=TU. */
const TOKEN = /^[\p{L}\p{N}\p{M}@._+\-=;,:/]+$/u;

/**
 * A value shown bare where it is of the shape `ok` checks and one word (TOKEN) of at most
 * MAX_QUOTED characters — a guest's address, a recurrence rule, a tool's name — and quoted
 * otherwise: an argument a card reads before the call checks it (an update's `add_attendees`)
 * may be any text, and bare mid-sentence it wrote the card's words ("bob@x.test — no updates
 * will be sent"). Nor bare where quoting would change it: TOKEN lets marks through, and the ones
 * `quoted` names (COMMA_MARK, LOOSE_MARKS) draw quote marks bare too — `bob@x.test` with U+0312
 * U+0312 reads `bob@x.test“`, opening a quote around the card's own words after it.
 */
export function quotedUnless(value: string, ok: (v: string) => boolean): string {
  return value.length <= MAX_QUOTED &&
    TOKEN.test(value) &&
    ok(value) &&
    neutralized([...value]) === value
    ? value
    : quoted(value);
}

/**
 * The entries of a list line a card writes ("To: Carol <c@…>, “ceo@bank.com, Real” <e@…>"), as
 * the approval window lays them out (renderer summary.ts): split at commas and semicolons outside
 * “…” — nothing inside a `quoted` value closes its quote — so a quoted display name holding a
 * comma stays one recipient (main/google/gmail/compose.ts formatMailbox).
 */
export function cardList(line: string): string[] {
  return line.match(/(?:“[^“”]*”?|[^,;“])+/g) ?? [];
}

/** The characters of the ids Google issues: hex message and thread ids, `r-…` draft ids, base64url attachment and filter ids, `Label_12`. */
const GOOGLE_ID = /^[A-Za-z0-9_-]+$/;

/**
 * An id a call names — a message's, a draft's, an attachment's, a filter's: bare when it is of
 * the shape Google's ids are (GOOGLE_ID), and quoted otherwise, for the agent may give any text as
 * an id and the card shows it before the call checks it. Not TOKEN: a word of any letters and
 * marks is no id, and bare it could draw a quote (`m7` with U+0313 U+0315 reads `m7”`, COMMA_MARK),
 * pass for another id (Cyrillic `м7`), or write a list (`r1,Bcc:eve@x.test`).
 */
export function quotedId(value: string): string {
  return value.length <= MAX_QUOTED && GOOGLE_ID.test(value) ? value : quoted(value);
}
