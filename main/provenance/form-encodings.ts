/**
 * The common reversible encodings a stranger asks the user's code or key to be sent in (outside
 * corpus batch 6's review: a six-digit code in base32, hex written `0x34 0x38 …`, `\x34\x38…` or
 * `34-38-…`, a code's base64 backwards), applied to the value once, when it enters the index
 * (content-index.ts), rather than decoded out of every call: the check then reads the call's
 * stream of letters and digits once against them all (secret-forms.ts). Before, each call's
 * tokens were decoded several ways and its escapes undone in several texts, which took the
 * check's p99 on issue 30's corpus from ~95 µs to ~135 µs (docs/provenance.md, "Encoded forms").
 *
 * Each encoder is written from its specification; the stream drops every character but letters
 * and digits, so encodings that differ only in separators or case (hex apart by dashes, colons
 * or spaces, percent-encoding, base64url) give one form — but they are kept apart here, as a
 * second encoding over them (base64 of `34-38-…`) differs.
 */

const bytesOf = (s: string) => Buffer.from(s, 'utf8');
const hexOf = (s: string) => bytesOf(s).toString('hex');
const hexBytes = (s: string) => hexOf(s).match(/../g) ?? [];

/** RFC 4648 §6 base32 (Node has no encoder), padded. */
function base32(s: string): string {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const b of bytesOf(s)) {
    acc = ((acc << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += A[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += A[(acc << (5 - bits)) & 31];
  return out + '='.repeat((8 - (out.length % 8)) % 8);
}

/** ROT13 of ASCII letters (digits and the rest unchanged). */
export function rot13(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) out += String.fromCharCode(((c - 52) % 26) + 65);
    else if (c >= 97 && c <= 122) out += String.fromCharCode(((c - 84) % 26) + 97);
    else out += s[i];
  }
  return out;
}

export const backwards = (s: string) => [...s].reverse().join('');

const DIGIT_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
];

/** Hex in its usual spellings, each in lower and upper case (either is written). */
const HEX_SPELLINGS: ((bytes: string[]) => string)[] = [
  (b) => b.join(''),
  (b) => `0x${b.join('')}`,
  (b) => b.map((x) => `0x${x}`).join(' '),
  (b) => b.map((x) => `\\x${x}`).join(''),
  (b) => b.join('-'),
  (b) => b.join(':'),
  (b) => b.join(' '),
  (b) => b.map((x) => `%${x}`).join(''),
];

/**
 * One step each. Hex in its usual spellings: plain, `0x` before the run or each byte (ECMA-262
 * numeric literals), `\x` before each (ECMA-262 §12.9.4; HTML's `&#x34;` reads the same in the
 * stream), bytes apart by a dash, colon or space, percent-encoding (RFC 3986 §2.1;
 * quoted-printable's `=34` reads the same). Escapes of code points: HTML decimal references
 * (WHATWG HTML §13.2.5.80) and `\uXXXX` (ECMA-262 §12.9.4). Base64 and base64url (RFC 4648 §4,
 * §5) and base32 (§6). Backwards, ROT13, digits spelled as English words and characters apart
 * by a separator.
 */
export const ENCODERS: readonly ((s: string) => string)[] = [
  (s) => bytesOf(s).toString('base64'),
  (s) => bytesOf(s).toString('base64url'),
  base32,
  ...HEX_SPELLINGS.flatMap((spell) => [
    (s: string) => spell(hexBytes(s)),
    (s: string) => spell(hexBytes(s).map((x) => x.toUpperCase())),
  ]),
  (s) => [...s].map((c) => `&#${c.codePointAt(0)};`).join(''),
  (s) => [...s].map((c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`).join(''),
  backwards,
  rot13,
  (s) => [...s].map((c) => (c >= '0' && c <= '9' ? DIGIT_WORDS[Number(c)]! : c)).join(' '),
  (s) => [...s].join('-'),
  (s) => [...s].join(' '),
];

/**
 * Of a first encoding, the second reads this many characters (all but backwards): every
 * encoder here keeps a prefix's encoding a prefix of the whole's (60 bytes are whole groups of
 * base64 and base32), and 60 characters encode to more than the MAX_FORM_TEXT letters and digits
 * the stream matches (secret-forms.ts). So a long key's compositions cost no more than a code's.
 */
const PREFIX = 60;

/**
 * The texts the value takes in one encoding or a composition of two (the second over what the
 * first gave), each once. The value itself is not among them.
 */
export function encodingsOf(value: string): string[] {
  const out = new Set<string>();
  const firsts = new Set(ENCODERS.map((first) => first(value)));
  for (const once of firsts) {
    out.add(once);
    const head = once.slice(0, PREFIX);
    for (const second of ENCODERS) out.add(second === backwards ? backwards(once) : second(head));
  }
  out.delete(value);
  return [...out];
}
