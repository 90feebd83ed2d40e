import { isUtf8 } from 'node:buffer';
import { decodeHTMLAttribute } from 'entities/decode';

/**
 * The encodings a model applies when a stranger's text asks it to carry a value out encoded
 * ("the IBAN, percent-encoded twice", "the code in base32 as the path"), decoded back so the
 * private-data rule compares what a call carries (link-payloads.ts), and chained: every text
 * reachable from a value by at most MAX_DEPTH decodings (`decodings`). Each decoder keeps only
 * printable UTF-8 text, so random tokens (most of a link's parts) decode to nothing.
 *
 * Bounded: a value longer than MAX_INPUT is not decoded, percent-decoding repeats at most
 * PERCENT_ROUNDS times, base58 (quadratic) reads at most MAX_BASE58 characters, and a chain
 * keeps at most MAX_FORMS texts; every pattern is linear.
 */

const MAX_INPUT = 4096;
const MAX_DEPTH = 2;
const PERCENT_ROUNDS = 4;
const MAX_BASE58 = 128;
const MAX_FORMS = 32;

/** UTF-8 bytes that are printable text (tabs and line breaks allowed), as a string. */
export function printableText(bytes: Buffer): string | undefined {
  // Checked, not caught: most runs are not UTF-8, and a thrown TypeError per run (TextDecoder's
  // fatal mode) costs more than the decode.
  if (bytes.length === 0 || !isUtf8(bytes)) return undefined;
  const s = bytes.toString('utf8');
  // eslint-disable-next-line no-control-regex
  return /^[^\x00-\x08\x0E-\x1F\x7F]+$/u.test(s) ? s : undefined;
}

/**
 * Percent-encoding (RFC 3986 §2.1) undone until nothing changes, at most PERCENT_ROUNDS times:
 * `%2540` is `%40` encoded again. A run that is not UTF-8 is decoded as the WHATWG URL Standard's
 * percent-decode then UTF-8 decode without BOM read it, each bad byte a U+FFFD: left as written,
 * one `%FF` before the user's code percent-encoded kept the whole run from being read (review of
 * batch 6).
 */
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;
export function percentDecodedFully(s: string): string {
  let t = s;
  for (let i = 0; i < PERCENT_ROUNDS && /%[0-9a-fA-F]{2}/.test(t); i++) {
    const next = t.replace(PERCENT_RUN, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8');
      }
    });
    if (next === t) break;
    t = next;
  }
  return t;
}

/**
 * HTML character references as a browser reads them in an attribute value (a link's `href`), by
 * the `entities` library's decoder (WHATWG HTML §13.2.5.72–80, the attribute's reading:
 * `decodeHTMLAttribute`): numbers decimal or hex (`&#x`, `&#X`) with any leading zeros and the `;`
 * optional, 0x80–0x9F as Windows-1252, zero, surrogates and numbers past U+10FFFF as U+FFFD; and
 * all 2,231 named references ("&commat;" is "@", "&period;" "."), which the hand-written decoder
 * this replaces left as written (decodings-entities.property.test.ts holds the two equal on every
 * valid numeric reference). Text without "&" is itself.
 */
export function htmlReferencesDecoded(s: string): string {
  return s.includes('&') ? decodeHTMLAttribute(s) : s;
}

/** Base64 and base64url (RFC 4648 §4, §5), padded or not. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
export function base64Text(v: string): string | undefined {
  // Most tokens read here have no padding or url-safe sign: no copy of them is made then.
  const plain = /[-_=]/.test(v) ? v.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/') : v;
  return printableText(Buffer.from(plain, 'base64'));
}

/**
 * Base32 alphabets: RFC 4648 §6 (base32) and §7 (base32hex), read in either case as the RFC
 * allows a decoder to; z-base-32 (RFC 6189 §5.1.6), lower case.
 */
const BASE32_ALPHABETS = [
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  '0123456789ABCDEFGHIJKLMNOPQRSTUV',
  'ybndrfg8ejkmcpqxot1uwisza345h769',
];
const BASE32_TABLES = BASE32_ALPHABETS.map((a, i) => {
  const table = new Int8Array(128).fill(-1);
  for (let k = 0; k < 32; k++) {
    table[a.charCodeAt(k)] = k;
    if (i < 2) table[a.toLowerCase().charCodeAt(k)] = k;
  }
  return table;
});
// Lengths of unpadded base32 (RFC 4648 §6: a final quantum of 8, 16, 24 or 32 bits).
const BASE32_LENGTHS = new Set([0, 2, 4, 5, 7]);

/** The printable texts a base32 value reads as, in each alphabet it is written in. */
export function base32Texts(v: string): string[] {
  const body = v.replace(/=+$/, '');
  // One case throughout, as encoders write it: a mixed-case token is no base32 a sender meant.
  // Letters and digits only: no alphabet here has another character (most tokens read here
  // have a sign, and are rejected before a buffer is made for each alphabet).
  if (
    !BASE32_LENGTHS.has(body.length % 8) ||
    !/^[A-Za-z0-9]*$/.test(body) ||
    (/[a-z]/.test(body) && /[A-Z]/.test(body))
  )
    return [];
  const out: string[] = [];
  for (const table of BASE32_TABLES) {
    const bytes = Buffer.alloc(Math.floor((body.length * 5) / 8));
    let acc = 0;
    let bits = 0;
    let n = 0;
    let ok = true;
    for (let i = 0; i < body.length; i++) {
      const c = body.charCodeAt(i);
      const k = c < 128 ? table[c]! : -1;
      if (k < 0) {
        ok = false;
        break;
      }
      acc = ((acc << 5) | k) & 0xfff;
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        bytes[n++] = (acc >> bits) & 0xff;
      }
    }
    const s = ok ? printableText(bytes) : undefined;
    if (s !== undefined && !out.includes(s)) out.push(s);
  }
  return out;
}

/** Base16 (RFC 4648 §8), either case, an optional `0x`. */
const HEX = /^(?:0x)?((?:[0-9a-fA-F]{2})+)$/;

/** Base58 (the Bitcoin alphabet: no 0, O, I or l; draft-msporny-base58), leading 1s as zeros. */
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BASE58_TABLE = new Int8Array(128).fill(-1);
for (let k = 0; k < 58; k++) BASE58_TABLE[BASE58_ALPHABET.charCodeAt(k)] = k;

export function base58Text(v: string): string | undefined {
  if (v.length > MAX_BASE58 || !BASE58.test(v)) return undefined;
  const bytes: number[] = []; // little-endian
  for (let i = 0; i < v.length; i++) {
    let carry = BASE58_TABLE[v.charCodeAt(i)]!;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry > 0; carry >>= 8) bytes.push(carry & 0xff);
  }
  for (let i = 0; i < v.length && v[i] === '1'; i++) bytes.push(0);
  return printableText(Buffer.from(bytes.reverse()));
}

/** A text one decoding gives, and the encoding it was written in. */
export interface Decoding {
  text: string;
  /** `base64` (and base64url), `hex`, `base32` (any alphabet read here), `base58`, `percent`, `entities`. */
  how: string;
}

/** The texts one decoding of `v` gives (none when it is written in no encoding read here). */
export function decodedOnce(v: string): string[] {
  return decodedOnceNamed(v).map((d) => d.text);
}

/** decodedOnce, with the encoding each text was read from. */
export function decodedOnceNamed(v: string): Decoding[] {
  const out: Decoding[] = [];
  const keep = () => out.filter((d) => d.text !== v);
  if (v.length > MAX_INPUT) return out;
  if (v.includes('%')) out.push({ text: percentDecodedFully(v), how: 'percent-encoding' });
  if (v.includes('&')) out.push({ text: htmlReferencesDecoded(v), how: 'HTML references' });
  // The binary-to-text encodings need a few characters to carry even a 4-character code.
  if (v.length < 6) return keep();
  const hex = HEX.exec(v)?.[1];
  if (hex) {
    const s = printableText(Buffer.from(hex, 'hex'));
    if (s) out.push({ text: s, how: 'hex' });
  }
  for (const s of base32Texts(v)) out.push({ text: s, how: 'base32' });
  // A plain word (one case, no digit or sign) is not base64 or base58 a sender meant: both
  // write a digit, both cases or a sign in all but a few short values. Most of a link's parts
  // are such words, and these two decoders are the costly ones.
  if (!/[0-9+/=_-]/.test(v) && !(/[a-z]/.test(v) && /[A-Z]/.test(v))) return keep();
  if (BASE64.test(v)) {
    const s = base64Text(v);
    if (s) out.push({ text: s, how: 'base64' });
  }
  const s58 = base58Text(v);
  if (s58) out.push({ text: s58, how: 'base58' });
  return keep();
}

/**
 * Every text `v` reads as through at most MAX_DEPTH decodings (base64 of base64, base32 of a
 * percent-encoded value, …), `v` itself excluded; at most MAX_FORMS texts.
 */
export function decodings(v: string): string[] {
  return decodingsNamed(v).map((d) => d.text);
}

/**
 * decodings, with the chain of encodings each text was read through ("hex inside base64"), up
 * to `depth` decodings deep. The work is MAX_FORMS texts' decodings at most, however deep.
 */
export function decodingsNamed(v: string, depth = MAX_DEPTH): Decoding[] {
  const seen = new Set<string>([v]);
  const out: Decoding[] = [];
  let frontier: Decoding[] = [{ text: v, how: '' }];
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: Decoding[] = [];
    for (const f of frontier)
      for (const d of decodedOnceNamed(f.text)) {
        if (seen.has(d.text)) continue;
        seen.add(d.text);
        // The outer encoding is the one written: hex of base64 is base64 decoded, then hex.
        const r = { text: d.text, how: f.how ? `${d.how} inside ${f.how}` : d.how };
        out.push(r);
        next.push(r);
        if (out.length >= MAX_FORMS) return out;
      }
    frontier = next;
  }
  return out;
}
