/**
 * Deepest JSON nesting Airlock parses, from an agent (gateway/guards.ts) or from a server
 * (remote/upstream/json-values.ts). An MCP envelope uses three or four levels (message → result
 * or params → structuredContent, _meta or arguments); real payloads stay far below 128. Deeper
 * text is refused before parsing: `JSON.parse` itself copes, but the recursive code every message
 * meets afterwards does not — `JSON.stringify` (the approval store, the answer to the agent), the
 * SDK's schema checks, canonical JSON, structured clone — and overflows the stack near 5,000 levels
 * for some and 10,000 for `JSON.stringify` (issue 17, item 8; a server's `_meta` nested 10,000 deep
 * ended `airlock serve`). One bound for both directions: what Airlock passes on from a server
 * reaches an agent, and nothing deeper than Airlock takes from an agent has a use there.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * True when `raw` (JSON text, valid or not; a string or its UTF-8 bytes) nests arrays/objects
 * deeper than `max`. The structural characters are ASCII and never part of a multi-byte UTF-8
 * sequence, so both forms read alike. Text no longer than `max` cannot be deeper and is not
 * scanned; strings are skipped with `indexOf`, so a long text or base64 image costs little.
 */
export function jsonTooDeep(raw: string | Buffer, max = MAX_JSON_DEPTH): boolean {
  if (raw.length <= max) return false;
  // The character is read in the loop, not through a reader function: that cost a function call
  // for every character outside strings — 96 a 2026-07-28 request, whose envelope takes it past
  // `max` (docs/performance.md, "The code one call runs, counted").
  const text = typeof raw === 'string' ? raw : undefined;
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = text !== undefined ? text.charCodeAt(i) : (raw as Buffer)[i]!;
    if (c === QUOTE) {
      i = stringEnd(raw, i);
      if (i < 0) return false; // an unclosed string: nothing after it is structure
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the `"` that closes the string opened at `open`, or -1 if none does. */
function stringEnd(raw: string | Buffer, open: number): number {
  const text = typeof raw === 'string' ? raw : undefined;
  let q = open;
  for (;;) {
    q = text !== undefined ? text.indexOf('"', q + 1) : (raw as Buffer).indexOf(QUOTE, q + 1);
    if (q < 0) return -1;
    let k = q - 1;
    while ((text !== undefined ? text.charCodeAt(k) : (raw as Buffer)[k]) === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q; // an even run of backslashes escapes only itself
  }
}
