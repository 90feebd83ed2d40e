import { constants, gunzipSync } from 'node:zlib';
import { printableText } from './decodings.js';

/**
 * The encoded tokens of a call's string as the tools that decode them read it (encoded-arguments.ts),
 * and the texts their bytes hold. GNU `base64 -d` skips line breaks and goes on past a padded
 * quantum (`aGVsbA==bw==` is "hello"); `xxd -r -p` skips white space and colons between hex
 * digits; a shell's `printf` writes `\x68` and `\150` as bytes; and a shell runs the line of a
 * decoded script after a line of binary (`//8K` is 0xFF 0xFF and a line break). Read otherwise,
 * a payload wrapped at 76 columns, split into padded pieces, spaced hex or given a binary first
 * line is no token or no text, and `echo … | base64 -d | sh` still runs it.
 */

/** A token: its text without the line breaks (or hex's spaces) between its pieces. */
export interface Token {
  text: string;
  /** Where its first and after its last character are in the string. */
  at: number;
  end: number;
}

// The base64 and base64url alphabet (RFC 4648 §4, §5), by character code; `=` pads.
const ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-')
  ALPHABET[c.charCodeAt(0)] = 1;
const EQUALS = 61;
ALPHABET[EQUALS] = 2;
const inAlphabet = (t: string, i: number) => ALPHABET[t.charCodeAt(i)] === 1;
const inRun = (t: string, i: number) => (ALPHABET[t.charCodeAt(i)] ?? 0) > 0;
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** The end of the gap at `i` a decoder skips: line breaks (as written or escaped), spaces, colons. */
function gapEnd(t: string, i: number): { end: number; breaks: boolean; spaces: boolean } {
  let j = i;
  let breaks = false;
  let spaces = false;
  while (j < t.length) {
    const c = t[j];
    if (c === '\n' || c === '\r') {
      breaks = true;
      j++;
    } else if (c === '\\' && (t[j + 1] === 'n' || t[j + 1] === 'r')) {
      breaks = true;
      j += 2;
    } else if (c === ' ' || c === '\t' || c === ':') {
      spaces = true;
      j++;
    } else break;
  }
  return { end: j, breaks, spaces };
}

/** Whether the run at `i` is hex digits only, whole bytes (`a` or `add` before hex is a word). */
function hexRunAt(t: string, i: number): boolean {
  let k = i;
  while (k < t.length && isHex(t.charCodeAt(k))) k++;
  return k > i && (k - i) % 2 === 0 && !(k < t.length && inRun(t, k));
}

/**
 * The tokens of `t` of at least `min` characters (padding not counted). Pieces are joined across
 * line breaks alone (what `base64 -d` skips), and hex pieces across spaces and colons too (what
 * `xxd -r -p` skips). One pass by character code (a regex with a look-behind cost about 15 µs per
 * kilobyte of prose), as far as the reader takes tokens: a call's bound on tokens ends the scan.
 */
export function* tokensOf(t: string, min: number): Generator<Token> {
  let i = 0;
  while (i < t.length) {
    if (!inAlphabet(t, i)) {
      i++;
      continue;
    }
    const at = i;
    let parts: string[] | undefined;
    let joined = 0; // characters in `parts`
    let hex = true;
    let s = i;
    for (;;) {
      while (i < t.length && inRun(t, i)) i++;
      // Most runs end at a character no decoder skips: no gap to look at.
      const c = t.charCodeAt(i);
      if (c !== 10 && c !== 13 && c !== 92 && c !== 32 && c !== 9 && c !== 58) break;
      for (let k = s; k < i && hex; k++) hex = isHex(t.charCodeAt(k));
      // A space or colon joins hex alone: a word of prose ends here.
      if (!hex && c !== 10 && c !== 13 && c !== 92) break;
      const gap = gapEnd(t, i);
      if (gap.end === i || gap.end >= t.length || !inRun(t, gap.end)) break;
      const length = joined + i - s;
      const joins = gap.spaces ? hex && length % 2 === 0 && hexRunAt(t, gap.end) : gap.breaks;
      if (!joins) break;
      (parts ??= []).push(t.slice(s, i));
      joined += i - s;
      i = s = gap.end;
    }
    if (!parts && i - at < min) continue;
    const text = parts ? parts.join('') + t.slice(s, i) : t.slice(at, i);
    let n = text.length;
    if (text.includes('=')) for (let k = 0; k < text.length; k++) if (text[k] === '=') n--;
    if (n >= min) yield { text, at, end: i };
  }
}

function hasDigit(bytes: Buffer): boolean {
  for (const b of bytes) if (b >= 0x30 && b <= 0x39) return true;
  return false;
}

/** Shortest text read out of bytes that are not text as a whole: `x@ev.il` and a word or two. */
const MIN_SEGMENT = 10;

/**
 * The text bytes hold that may name a destination (with `every`, any that may hold the user's
 * data: a digit or a space): all of them when they are printable UTF-8
 * (decodings.ts), else each run of at least MIN_SEGMENT printable ASCII characters that starts a
 * line — what a shell runs after a line of binary. Text within a line of binary is not read: a
 * shell runs no command there, and a certificate's DER or a PGP key's packets hold links and
 * addresses (CRL and OCSP links, user IDs) right after binary length bytes.
 */
export function textsOfBytes(bytes: Buffer, every = false): string[] {
  // No text that names a destination (`.`, `@`, `://`) is in bytes without one of these; `every`
  // reads them anyway (the private-data rule's: a code names no destination) when they may hold
  // the user's data.
  if (!bytes.includes(0x2e) && !bytes.includes(0x40) && !bytes.includes(0x3a)) {
    // Nor any of the user's data without a digit (a code, an account, a key) or a space (a
    // phrase of eight words).
    if (!every || (!bytes.includes(0x20) && !hasDigit(bytes))) return [];
  }
  const whole = printableText(bytes);
  if (whole !== undefined) return [whole];
  const out: string[] = [];
  // Where the text a shell runs starts in this printable run: the bytes' start, or after a line
  // break; -1 while the run is within a line that began in binary.
  let line = 0;
  for (let k = 0; k <= bytes.length; k++) {
    const b = k < bytes.length ? bytes[k]! : -1;
    if (b === 10 && line < 0) line = k + 1;
    if (b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127)) continue;
    if (line >= 0 && k - line >= MIN_SEGMENT) out.push(bytes.toString('latin1', line, k));
    line = -1;
  }
  return out;
}

/**
 * The bytes `base64 -d` writes for a token (base64url read too, as decodings.ts reads it): each
 * padded quantum decoded and the rest after it (`aGVsbA==bw==` is "hello"; Node's Buffer stops at
 * the first `=`).
 */
export function base64Bytes(token: string): Buffer {
  // Node reads base64url's `-` and `_` as base64's `+` and `/`, and stops at the first `=`.
  const eq = token.indexOf('=');
  if (eq < 0 || /^=*$/.test(token.slice(eq))) return Buffer.from(token, 'base64');
  const parts = token
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .split(/=+/)
    .filter((p) => p.length > 0);
  return Buffer.concat(parts.map((p) => Buffer.from(p, 'base64')));
}

/** The bytes `xxd -r -p` writes for a token of hex digits (an odd last digit dropped). */
export function hexBytes(token: string): Buffer | undefined {
  if (!/^[0-9a-fA-F]+$/.test(token)) return undefined;
  return Buffer.from(token.length % 2 ? token.slice(0, -1) : token, 'hex');
}

// printf's and echo -e's escapes: `\x63\x75` (hex), `\143\165` and `\0143` (octal), four or more.
const ESCAPES = /(?:\\x[0-9a-fA-F]{1,2}){4,}|(?:\\0?[0-7]{3}){4,}/g;

/** The texts of the byte escapes of `t` (`printf '\x63\x75\x72\x6c …' | sh`), and how written. */
export function escapedTexts(t: string): { text: string; how: string }[] {
  if (!t.includes('\\')) return [];
  const out: { text: string; how: string }[] = [];
  for (const m of t.matchAll(ESCAPES)) {
    const hex = m[0][1] === 'x';
    const codes = m[0]
      .split('\\')
      .slice(1)
      .map((e) => (hex ? parseInt(e.slice(1), 16) : parseInt(e, 8)));
    for (const text of textsOfBytes(Buffer.from(codes.map((c) => c & 0xff))))
      out.push({ text, how: hex ? 'hex escapes' : 'octal escapes' });
  }
  return out;
}

/** Most a gzip stream is read to: a command and its padding, not a file. */
export const MAX_GUNZIPPED = 64 * 1024;

/**
 * What gzip (RFC 1952) bytes hold (`H4sI…` in base64: `base64 -d | gunzip | sh`), read as
 * `gunzip` reads a stream cut short (the bytes a token holds, however the stream ends), up to
 * MAX_GUNZIPPED bytes; nothing when it is no gzip or holds more.
 */
export function gunzipped(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8)
    return undefined;
  try {
    return gunzipSync(bytes, {
      maxOutputLength: MAX_GUNZIPPED,
      finishFlush: constants.Z_SYNC_FLUSH,
    });
  } catch {
    return undefined;
  }
}
