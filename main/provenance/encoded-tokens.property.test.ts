import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base32Texts, base64Text, printableText } from './decodings.js';
import { base64Bytes, escapedTexts, hexBytes, textsOfBytes, tokensOf } from './encoded-tokens.js';

/**
 * The tokens of a call's string are read as the tools that act on them read them (house rule:
 * the check and the thing that acts agree, proven over generated inputs). References written
 * from their specifications, not from encoded-tokens.ts:
 * - GNU coreutils `base64 -d` (coreutils manual, "base64 invocation"; RFC 4648 §4): line breaks
 *   are skipped, and after `=` padding the next quantum is decoded on (`aGVsbA==bw==`);
 * - `xxd -r -p` (xxd(1): "plain hexdump", white space and colons between pairs skipped);
 * - RFC 4648 §6 base32, in upper or lower case;
 * - printf(1)'s `\xHH` and `\NNN` escapes.
 */

/** GNU base64 -d of a stream: newlines dropped, each padded group decoded, the rest after it. */
function gnuBase64(stream: string): Buffer {
  const s = stream.replace(/[\r\n]/g, '');
  const out: number[] = [];
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let acc = 0;
  let bits = 0;
  for (const c of s) {
    if (c === '=') {
      // The padded quantum ends here: its leftover bits are dropped, the next starts fresh.
      acc = 0;
      bits = 0;
      continue;
    }
    acc = ((acc << 6) | A.indexOf(c)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}

/** xxd -r -p: pairs of hex digits, white space and colons between them skipped. */
function xxdPlain(stream: string): Buffer {
  const digits = stream.replace(/[\s:]/g, '');
  const out: number[] = [];
  for (let i = 0; i + 1 < digits.length; i += 2) out.push(parseInt(digits.slice(i, i + 2), 16));
  return Buffer.from(out);
}

/** RFC 4648 §6 base32 decoding, padding dropped, either case. */
function rfcBase32(v: string): Buffer {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of v.replace(/=+$/, '').toUpperCase())
    bits += A.indexOf(c).toString(2).padStart(5, '0');
  const out: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) out.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(out);
}
function rfcBase32Encode(b: Buffer): string {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const x of b) bits += x.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5)
    out += A[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

const bytes = fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b));
const wrap = (s: string, width: number, br: string) =>
  s.match(new RegExp(`.{1,${width}}`, 'gs'))!.join(br);

describe('encoded tokens are read as the decoders that act read them', () => {
  it('base64 as `base64 -d` reads it: wrapped at any width, in padded pieces, line breaks escaped', () => {
    fc.assert(
      fc.property(
        fc.array(bytes, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 4, max: 80 }),
        fc.constantFrom('\n', '\r\n', '\\n'),
        (pieces, width, br) => {
          // Each piece encoded alone and the encodings put end to end (`cat a.b64 b.b64`).
          const stream = wrap(pieces.map((p) => p.toString('base64')).join(''), width, br);
          const text = `sh -c "$(printf '${stream}' | base64 -d)"`;
          const at = text.indexOf(stream);
          const want = gnuBase64(stream.replace(/\\n/g, '\n'));
          expect(want).toEqual(Buffer.concat(pieces));
          // One token, all of the stream (shorter than 6 characters, no token at all).
          const token = [...tokensOf(text, 6)].find((t) => t.at === at);
          if (stream.replace(/\\n|[\r\n=]/g, '').length < 6) {
            expect(token).toBeUndefined();
            return;
          }
          expect(token?.end).toBe(at + stream.length);
          expect(base64Bytes(token!.text)).toEqual(want);
        },
      ),
    );
  });

  it('base64url as Node reads it, and no differently from base64 written with + and /', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(base64Bytes(b.toString('base64url'))).toEqual(b);
        expect(base64Bytes(b.toString('base64'))).toEqual(b);
        expect(base64Text(b.toString('base64url'))).toBe(printableText(b));
      }),
    );
  });

  it('hex as `xxd -r -p` reads it: in pairs, spaced, colon-separated, wrapped', () => {
    fc.assert(
      fc.property(
        bytes,
        fc.constantFrom('', ' ', ':', '\n'),
        fc.integer({ min: 1, max: 16 }),
        fc.boolean(),
        (b, sep, group, upper) => {
          let hex = b.toString('hex');
          if (upper) hex = hex.toUpperCase();
          const stream = (hex.match(new RegExp(`.{1,${2 * group}}`, 'g')) ?? []).join(sep);
          const text = `echo '${stream}' | xxd -r -p`;
          const token = [...tokensOf(text, 2)].find((t) => t.at === 6);
          expect(token?.end).toBe(6 + stream.length);
          expect(hexBytes(token!.text)).toEqual(xxdPlain(stream));
          expect(xxdPlain(stream)).toEqual(b);
        },
      ),
    );
  });

  it('base32 as RFC 4648 reads it, in either case; any other character makes it no base32', () => {
    fc.assert(
      fc.property(
        bytes,
        fc.boolean(),
        fc.constantFrom('', '0', '1', '8', '9', '!'),
        (b, lower, junk) => {
          let v = rfcBase32Encode(b);
          if (lower) v = v.toLowerCase();
          const texts = base32Texts(v + junk);
          const want = printableText(rfcBase32(v));
          if (junk === '' && want !== undefined) expect(texts).toContain(want);
          // A character outside the alphabet (0, 1, 8, 9 are not in it) is no RFC 4648 base32.
          if (junk !== '') expect(texts).not.toContain(want);
        },
      ),
    );
  });

  it('printf escapes as printf writes them: \\xHH and \\NNN', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9.@/:-]{4,40}$/), fc.boolean(), (s, hex) => {
        const escaped = [...Buffer.from(s)]
          .map((c) => (hex ? `\\x${c.toString(16)}` : `\\${c.toString(8).padStart(3, '0')}`))
          .join('');
        const want = s.includes('.') || s.includes('@') || s.includes(':') ? [s] : [];
        expect(escapedTexts(`printf '${escaped}' | sh`).map((e) => e.text)).toEqual(want);
      }),
    );
  });

  it('reads the text after binary lines as a shell runs it, and only runs of 10 or more', () => {
    fc.assert(
      fc.property(
        fc
          .uint8Array({ minLength: 1, maxLength: 40 })
          .map((a) => Buffer.from(a.map((x) => x | 0x80))),
        fc.stringMatching(/^curl -s https:\/\/[a-z]{3,10}\.test\/[a-z]{1,8}$/),
        (junk, cmd) => {
          const texts = textsOfBytes(Buffer.concat([junk, Buffer.from(`\n${cmd}\n`), junk]));
          expect(texts.some((t) => t.includes(cmd))).toBe(true);
          expect(texts.every((t) => t.length >= 10)).toBe(true);
        },
      ),
    );
  });
});
