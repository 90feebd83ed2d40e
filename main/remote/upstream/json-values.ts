import { jsonTooDeep, MAX_JSON_DEPTH } from '../../platform/json-depth.js';
import { AnswerRefused } from './answer-refused.js';

/**
 * What one upstream message may cost once parsed, decided on the very text `JSON.parse` gets.
 *
 * The text itself is bounded (64 MiB over HTTP, lean-fetch.ts; 10 MB a line over stdio,
 * line-reader.ts), but not what parsing it builds: every object, array, number and string is a
 * heap object of its own. Measured on Node 22 (heap growth of `JSON.parse` of 64 MiB of text):
 * one base64 string +64 MiB; `["ab",…]` +102 MiB; `[1,…]` +256 MiB; `{"k0":1,"k1":1,…}` +312 MiB;
 * `[{},…]` +1.37 GB; `[[[…]]]` +1.79 GB — so three hostile answers at once exhausted the 4 GB
 * heap and ended `airlock serve`. Per structural token (below) the worst shapes cost 56–64 bytes.
 *
 * So a message may hold at most UPSTREAM_VALUE_LIMIT values, counted by `countValues`: the `{`,
 * `[` and `,` outside strings. In valid JSON that is exactly the containers plus every element or
 * member after a container's first (json-values.property.test.ts holds it equal to a walk of what
 * `JSON.parse` built), so the values built are at most one more, and members' keys at most as many.
 * Each is one character, so a text no longer than the limit cannot pass it and is never scanned:
 * the hot path (answers of a few KB) pays nothing. A large answer of few values — a 40 MB base64
 * image, a long text — passes; the scan skips through strings with `indexOf`.
 */
export const UPSTREAM_VALUE_LIMIT = 2 * 1024 * 1024;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;

/**
 * The `{`, `[` and `,` of `text` outside strings; counting stops once past `stopAbove`. Any text,
 * valid JSON or not: `JSON.parse` reads left to right and builds nothing past its first error, so
 * what it builds is bounded by the count of the prefix it read.
 */
export function countValues(text: string, stopAbove = Infinity): number {
  let n = 0;
  const len = text.length;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) break;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET || c === COMMA) {
      if (++n > stopAbove) break;
    }
  }
  return n;
}

/** The index of the `"` that closes the string opened at `open`, or -1 if none does. */
function stringEnd(text: string, open: number): number {
  let q = open;
  for (;;) {
    q = text.indexOf('"', q + 1);
    if (q < 0) return -1;
    let k = q - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q; // an even run of backslashes escapes only itself
  }
}

/** The error a message over UPSTREAM_VALUE_LIMIT fails with; it names the limit. */
export function tooManyValues(length: number): Error {
  return new Error(
    `the server sent a message of ${mib(length)} holding more than ${UPSTREAM_VALUE_LIMIT.toLocaleString('en')} JSON values; Airlock did not parse it`,
  );
}

/**
 * `JSON.parse(text)` for a message from a server — every one, answers, requests and notifications,
 * over HTTP (lean-fetch.ts, lean-transport.ts) and stdio (line-reader.ts) — refused with an
 * `UpstreamValuesError` when it holds more than UPSTREAM_VALUE_LIMIT values or nests deeper than
 * MAX_JSON_DEPTH (platform/json-depth.ts; a `_meta` 10,000 deep overflowed `JSON.stringify` and
 * ended `airlock serve`). Only a text longer than the limits is scanned at all.
 */
export function parseUpstream(text: string): unknown {
  // `checkUpstream`'s bounds, written out rather than called: this runs on every message, and
  // issue 34 counts the functions a call runs. json-values.property.test.ts holds the two equal.
  if (
    text.length > UPSTREAM_VALUE_LIMIT &&
    countValues(text, UPSTREAM_VALUE_LIMIT) > UPSTREAM_VALUE_LIMIT
  )
    throw new UpstreamValuesError(tooManyValues(text.length).message);
  if (jsonTooDeep(text)) throw new UpstreamValuesError(tooDeep());
  return JSON.parse(text);
}

/**
 * `parseUpstream`'s bounds without the parse (the same lines: a change there is made here too), for a leg whose parse is the SDK's own (the legacy
 * HTTP+SSE transport, http/bounded-sse.ts): throws the same `UpstreamValuesError`.
 */
export function checkUpstream(text: string): void {
  if (
    text.length > UPSTREAM_VALUE_LIMIT &&
    countValues(text, UPSTREAM_VALUE_LIMIT) > UPSTREAM_VALUE_LIMIT
  )
    throw new UpstreamValuesError(tooManyValues(text.length).message);
  if (jsonTooDeep(text)) throw new UpstreamValuesError(tooDeep());
}

/** The error a message nested deeper than MAX_JSON_DEPTH fails with; it names the bound. */
export function tooDeep(): string {
  return `the server sent a message nested deeper than ${MAX_JSON_DEPTH} levels; Airlock did not parse it`;
}

/** `parseUpstream`'s refusal. It keeps nothing of the text: it may outlive the message. */
export class UpstreamValuesError extends AnswerRefused {}

/**
 * The id of a refused message that answers a request — a top-level `id` (string or number) beside
 * a top-level `result` or `error` — read without parsing the rest, so its call can fail at once
 * with the reason rather than at its timeout. As `JSON.parse` would read it: the last of duplicate
 * keys, escaped keys decoded (json-values.property.test.ts holds it equal to `answerId` of the
 * parsed message). Undefined for anything else, malformed text included.
 */
export function answerIdOf(text: string): string | number | undefined {
  let depth = 0;
  let id: string | number | undefined;
  let answer = false;
  let key = true; // the next string at depth 1 is a key
  const len = text.length;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return undefined;
      if (depth === 1 && key) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? decode(text, i, end) : raw;
        const value = memberValue(text, end + 1);
        if (value === undefined) return undefined;
        if (name === 'id') id = value.id;
        else if (name === 'result' || name === 'error') answer = true;
        key = false;
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth === 1 && c === OPEN_BRACKET) return undefined; // a batch, not one answer
      if (depth === 1) key = true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COMMA && depth === 1) key = true;
  }
  return answer ? id : undefined;
}

function decode(text: string, open: number, close: number): string | undefined {
  try {
    return JSON.parse(text.slice(open, close + 1)) as string;
  } catch {
    return undefined;
  }
}

/**
 * The value after a key whose closing quote is just before `from`: `{ id }` where it is a string
 * or a number (what an answer's id may be), `{ id: undefined }` for any other value, undefined if
 * no `:` follows. Only the scalar is read; a container is left to the scan.
 */
function memberValue(text: string, from: number): { id: string | number | undefined } | undefined {
  let i = skipSpace(text, from);
  if (text.charCodeAt(i) !== COLON) return undefined;
  i = skipSpace(text, i + 1);
  const c = text.charCodeAt(i);
  if (c === QUOTE) {
    const end = stringEnd(text, i);
    if (end < 0) return undefined;
    return { id: decode(text, i, end) };
  }
  if (c === 45 || (c >= 48 && c <= 57)) {
    let j = i;
    while (j < text.length && /[-+.eE0-9]/.test(text[j]!)) j++;
    const n = Number(text.slice(i, j));
    return { id: Number.isNaN(n) ? undefined : n };
  }
  return { id: undefined };
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i++;
  }
}

const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
