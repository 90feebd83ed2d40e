// How an approval card writes anyone else's text into Airlock's sentences: on the card's line
// (cardLine), and quoted so nothing inside reads as Airlock's words (quoted). Shared by the
// Google sources' cards (main/google), the native prompts (main/shell/approval-text.ts) and the
// approval window's headline and heading (renderer/src/approvals), so all read one way.

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
const DOUBLE_QUOTE = /["“”„‟«»″‶＂❝❞❠〃〝〞〟˝ʺ״⹂‴⁗‷\u{1f676}-\u{1f678}]/gu;

/**
 * Direction controls (Bidi_Control, UAX #9): drawn as they act, one inside a value turns the text
 * after it around — the closing quote and the card's next label among it (U+202E shows
 * `x”. Organizer: “a` backwards, from anywhere on the line). Named instead, as the approval
 * window names them (renderer reveal.ts), in every place the text is shown: the native prompts
 * and notifications too.
 */
const BIDI: Record<string, string> = {
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
const BIDI_CONTROL = /\p{Bidi_Control}/gu;

/** Longest value `quoted` shows, in code points: a longer one must not push the card's later labels out of sight. */
export const MAX_QUOTED = 200;

/**
 * A value a card quotes — a subject, a label's or file's name, an event's title, a filter's
 * criteria, an organizer's address: anyone's words, inside Airlock's sentence. Quoted “so”, on
 * the card's line (cardLine), with no mark inside that reads as its closing quote (DOUBLE_QUOTES),
 * no direction control acting (BIDI), and at most MAX_QUOTED characters (the rest counted after
 * the quote, not dropped unsaid). So what stands between a value's quotes is the value, and every
 * word outside them is Airlock's: a subject `Q3”, named “invoice.pdf` cannot write a second name
 * for an attachment, nor an event's title `x”. Organizer: “ceo@…` its organizer.
 */
export function quoted(value: string): string {
  const points = [...cardLine(value)];
  const cut = points.length > MAX_QUOTED ? points.slice(0, MAX_QUOTED - 1) : points;
  const inner = cut
    .join('')
    .replace(DOUBLE_QUOTE, (q) => DOUBLE_QUOTES[q] ?? "'")
    .replace(
      BIDI_CONTROL,
      (c) => `[${BIDI[c] ?? 'U+' + c.codePointAt(0)!.toString(16).toUpperCase()}]`,
    );
  const more = points.length - cut.length;
  return more ? `“${inner}…” (${more} more characters)` : `“${inner}”`;
}

/** A word with no space, quote, bracket or control: an address, an id, a rule such as FREQ=WEEKLY;BYDAY=TU. */
const TOKEN = /^[\p{L}\p{N}\p{M}@._+\-=;,:/]+$/u;

/**
 * A value shown bare where it is of the shape `ok` checks and one word (TOKEN) of at most
 * MAX_QUOTED characters — a guest's address, a recurrence rule, a tool's name — and quoted
 * otherwise: an argument a card reads before the call checks it (an update's `add_attendees`)
 * may be any text, and bare mid-sentence it wrote the card's words ("bob@x.test — no updates
 * will be sent").
 */
export function quotedUnless(value: string, ok: (v: string) => boolean): string {
  return value.length <= MAX_QUOTED && TOKEN.test(value) && ok(value) ? value : quoted(value);
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
