import { percentDecodedFully } from './decodings.js';
import { encodedArgumentTexts, type EncodedText } from './encoded-arguments.js';
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

// A line shorter than the shortest token encodedArgumentTexts reads holds none.
const MIN_LINE = 6;
// A line that is one token and nothing else (a body's base64 between its greeting and its
// "Regards"): a line of prose is read in its string, its words being tokens of their own.
// Its character classes do not overlap, so a line costs one pass (no backtracking between them).
const TOKEN_LINES = /^[ \t]*[A-Za-z0-9+/_-]+={0,2}[ \t]*$/gm;
// As many lines as a call has strings (values.ts leavesOf).
const MAX_LINES = 1000;
