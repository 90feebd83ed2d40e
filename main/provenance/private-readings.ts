import { percentDecodedFully } from './decodings.js';
import { encodedArgumentTexts, holdsFile, type EncodedText } from './encoded-arguments.js';
import { privateForms } from './private-forms.js';
import { MAX_SCAN_CHARS, type Leaf } from './values.js';

/**
 * The other ways a call's strings read, for the private-data rule (private-data-rule.ts): a
 * stranger who asks for the user's data "base64-encoded so mail filters do not alter it", "the
 * IBAN URL-encoded in the JSON", or "the code written backwards" gets it in a form no phrase or
 * code of hers matches as written (outside corpus batch 6: w-enc-b64-body, w-enc-pct-webhook,
 * w-enc-reversed). Each reading is text the rule compares as it compares the strings:
 * - the encoded tokens anywhere in the arguments, decoded (encoded-arguments.ts, its bounds and
 *   exclusions: a file field of Airlock's own tools is its bytes, judged by their digest), every
 *   text kept, not only one that names a destination; each line that is one token also on its own;
 * - a string percent-encoded (RFC 3986 §2.1), decoded fully, wherever it is (a link's parts are
 *   link-payloads.ts's; this is a JSON payload's field or a body).
 * A key or code written backwards is read by the rule itself (private-data-rule.ts: each
 * candidate reversed), not here: reversing every string cost the check about a third again.
 *
 * Bounded as the call's scan is: at most MAX_SCAN_CHARS characters of strings are percent-decoded,
 * at most MAX_LINES lines are read alone, and encodedArgumentTexts keeps its own
 * bounds (characters and tokens) over the strings, and again over the lines: at most twice the
 * decoding the destination rules' scan of the same call does.
 */
export function privateReadings(
  leaves: readonly Leaf[],
  schema: Record<string, unknown> | undefined,
  ownTool: boolean,
  /** The strings' encoded texts, every one kept, when the check has read them already. */
  encoded: readonly EncodedText[] = encodedArgumentTexts(leaves, schema, ownTool, true),
): string[] {
  const out: string[] = [];
  let budget = MAX_SCAN_CHARS;
  for (const leaf of leaves) {
    if (budget <= 0) break;
    const s = leaf.value.length > budget ? leaf.value.slice(0, budget) : leaf.value;
    budget -= s.length;
    if (/%[0-9a-fA-F]{2}/.test(s)) {
      const decoded = percentDecodedFully(s);
      if (decoded !== s) out.push(decoded);
    }
  }
  // Each line of a string that is one token is read alone too: the tokens join across line
  // breaks as `base64 -d` reads them, so a body's base64 and the "Regards" under it read as one
  // token, not as hers.
  // At most MAX_LINES lines of a token's least length, from the strings' first MAX_SCAN_CHARS.
  const lines: Leaf[] = [];
  let scanned = 0;
  for (const leaf of leaves) {
    if (scanned >= MAX_SCAN_CHARS || lines.length >= MAX_LINES) break;
    const s = leaf.value.slice(0, MAX_SCAN_CHARS - scanned);
    scanned += s.length;
    if (!/[\r\n]/.test(s)) continue;
    // Matched in place, not split: a body's lines are mostly prose, and splitting made an array
    // of all of them for each multi-line string of each call (review of batch 6, the check's cost).
    for (const m of s.matchAll(TOKEN_LINES)) {
      if (m[0].length >= MIN_LINE) lines.push({ path: leaf.path, value: m[0] });
      if (lines.length >= MAX_LINES) break;
    }
  }
  // Two scans, each with encodedArgumentTexts' bounds: in one, a long body spent the bounds
  // before its lines were reached.
  for (const e of encoded) out.push(e.text);
  for (const e of encodedArgumentTexts(lines, schema, ownTool, true)) out.push(e.text);
  return out;
}

/**
 * The other common reversible encodings and compositions of two (private-forms.ts), over the
 * strings and what `privateReadings` decoded them to: texts in which the rule looks for her
 * codes and keys only (private-data-rule.ts `forms`), not her phrases — many are the call's
 * whole text again (its escapes undone, its digit words as digits), and reading those for
 * phrases doubled the check's cost. Not a file field of Airlock's own tools (its bytes).
 */
export function privateFormTexts(
  leaves: readonly Leaf[],
  schema: Record<string, unknown> | undefined,
  ownTool: boolean,
  readings: readonly string[],
): string[] {
  const strings = leaves.filter((l) => !holdsFile(l.path, schema, ownTool)).map((l) => l.value);
  // The strings as one text (a value spelled over two fields reads as one), then the derived.
  return privateForms([strings.join('\n')], joinedAcross(strings), readings);
}

/**
 * A value split over two fields (`{"a": "NDgy", "b": "OTEz"}`) or two lines: the strings' lines
 * joined, each boundary between neighbouring strings and each line break dropped where
 * neither side's run is a word of prose and one looks encoded (a digit, a sign, an escape, both
 * cases, capitals only) or is one character (a spelled-out value's item); kept elsewhere
 * (two lines of prose are not joined, nor a token to the word after it: `MTky` and `thanks`).
 * Each chain of lines so joined is one text; lines joined to none are not given again. A plain code split
 * so is read by the rule's stream already (secret-forms.ts); this is for an encoded one, whose
 * halves decode to nothing alone. At most the strings' first MAX_SCAN_CHARS characters.
 */
function joinedAcross(strings: readonly string[]): string[] {
  const parts: string[] = [];
  let scanned = 0;
  for (const s of strings) {
    if (scanned >= MAX_SCAN_CHARS) break;
    const t = s.slice(0, MAX_SCAN_CHARS - scanned);
    scanned += t.length;
    parts.push(...t.split(/\r?\n/));
  }
  // Only the lines a join chains together are read again, not the whole text.
  const out: string[] = [];
  let chain = parts[0] ?? '';
  let links = 0;
  for (let i = 1; i < parts.length; i++) {
    const tail = SIDE_TAIL.exec(chain.slice(-SIDE))?.[0];
    const head = SIDE_HEAD.exec(parts[i]!.slice(0, SIDE))?.[0];
    const glue =
      tail !== undefined &&
      head !== undefined &&
      !WORD.test(tail) &&
      !WORD.test(head) &&
      (joinable(tail) || joinable(head));
    if (glue) {
      chain += parts[i]!;
      links++;
      continue;
    }
    if (links > 0) out.push(chain);
    chain = parts[i]!;
    links = 0;
  }
  if (links > 0) out.push(chain);
  return out;
}
const joinable = (run: string) => run.length === 1 || SEAM_LOOK.test(run);
// A word of prose (lower case, or capitalised, perhaps with its punctuation): never joined.
const WORD = /^(?:[a-z]{2,}|[A-Z][a-z]+)[.,;:!?"')]*$/;
// The run of non-space characters at a side's end or start (at most SIDE characters looked at).
const SIDE_TAIL = /\S+$/;
const SIDE_HEAD = /^\S+/;
const SIDE = 64;
// What an encoder writes and prose does not (encoded-arguments.ts' look, and escapes).
const SEAM_LOOK = /[0-9+/=_%&\\]|[a-z][A-Z]|^[A-Z]{3,}$/;

// A line shorter than the shortest token encodedArgumentTexts reads holds none.
const MIN_LINE = 6;
// A line that is one token and nothing else (a body's base64 between its greeting and its
// "Regards"): a line of prose is read in its string, its words being tokens of their own.
// Its character classes do not overlap, so a line costs one pass (no backtracking between them).
const TOKEN_LINES = /^[ \t]*[A-Za-z0-9+/_-]+={0,2}[ \t]*$/gm;
// As many lines as a call has strings (values.ts leavesOf).
const MAX_LINES = 1000;
