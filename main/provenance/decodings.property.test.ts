import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base32Texts, base58Text, decodings, htmlReferencesDecoded } from './decodings.js';
import { encodedReadings } from './encoded-readings.js';
import { linkPayloads } from './link-payloads.js';

/**
 * Every encoding decodings.ts reads, written by independent encoders (Node's own where it has
 * one; the others from their specifications), chained up to two deep, with the value placed in
 * every part of a link: the link's payloads (what the private-data rule compares) hold the value.
 */

const STD32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const HEX32 = '0123456789ABCDEFGHIJKLMNOPQRSTUV';
const Z32 = 'ybndrfg8ejkmcpqxot1uwisza345h769';
function base32(s: string, alphabet: string, pad: boolean): string {
  let bits = '';
  for (const b of Buffer.from(s)) bits += b.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5)
    out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return pad ? out.padEnd(Math.ceil(out.length / 8) * 8, '=') : out;
}
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(s: string): string {
  let n = BigInt(`0x${Buffer.from(s).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  return out;
}
const entities = (form: number) => (s: string) =>
  [...s]
    .map((c) => {
      const n = c.codePointAt(0)!;
      return [
        `&#${n};`,
        `&#x${n.toString(16)};`,
        `&#X00${n.toString(16).toUpperCase()}`,
        `&#000${n}`,
      ][form];
    })
    .join('');

/** Encoders a value can go through; `caseless` ones survive a host name's lower-casing. */
const ENCODERS: { name: string; caseless?: boolean; enc: (s: string) => string }[] = [
  { name: 'percent', enc: encodeURIComponent },
  { name: 'base64', enc: (s) => Buffer.from(s).toString('base64') },
  { name: 'base64url', enc: (s) => Buffer.from(s).toString('base64url') },
  { name: 'base32', caseless: true, enc: (s) => base32(s, STD32, true) },
  { name: 'base32-lower-nopad', caseless: true, enc: (s) => base32(s, STD32, false).toLowerCase() },
  { name: 'base32hex', caseless: true, enc: (s) => base32(s, HEX32, false) },
  { name: 'z-base-32', caseless: true, enc: (s) => base32(s, Z32, false) },
  { name: 'hex', caseless: true, enc: (s) => Buffer.from(s).toString('hex') },
  { name: 'hex-upper', caseless: true, enc: (s) => Buffer.from(s).toString('hex').toUpperCase() },
  { name: 'base58', enc: base58 },
  ...[0, 1, 2, 3].map((f) => ({ name: `entities-${f}`, enc: entities(f) })),
];

const code = fc.stringMatching(/^[0-9]{4,8}$/);
const iban = fc.stringMatching(/^[A-Z]{2}[0-9]{2}( [0-9]{4}){4} [0-9]{2}$/).map((s) => s.trim());
const phrase = fc
  .array(fc.constantFrom('keep', 'this', 'strictly', 'between', 'us', 'invoice', 'total'), {
    minLength: 3,
    maxLength: 6,
  })
  .map((w) => w.join(' '));
const chain = fc.array(fc.constantFrom(...ENCODERS), { minLength: 1, maxLength: 2 });
const encode = (v: string, c: typeof ENCODERS) => c.reduce((s, e) => e.enc(s), v);

type Place = (enc: string) => string;
const q = encodeURIComponent;
const PLACES: Record<string, Place> = {
  'path segment': (e) => `https://x.test/a/${q(e)}`,
  'path segment with an extension': (e) => `https://x.test/a/${q(e)}.png`,
  'query value': (e) => `https://x.test/c?d=${q(e)}&z=1`,
  'query name': (e) => `https://x.test/c?${q(e)}=1`,
  fragment: (e) => `https://x.test/p#${q(e)}`,
  'fragment pair': (e) => `https://x.test/p#k=${q(e)}`,
  userinfo: (e) => `https://${q(e)}@x.test/p`,
};

/** What the private-data rule compares: the link as written and its payloads. */
const reads = (link: string, v: string) =>
  [link, ...linkPayloads(`see ${link} now`)].some((p) => p.includes(v));
/** Base58 is read up to 128 characters (decodings.ts MAX_BASE58: its decoding is quadratic). */
const withinBounds = (v: string, c: typeof ENCODERS) => {
  let s = v;
  for (const e of c) {
    s = e.enc(s);
    if (e.name === 'base58' && s.length > 128) return false;
  }
  return s.length <= 1024;
};

describe('decodings: every supported chain of two, in every part of a link', () => {
  for (const [where, place] of Object.entries(PLACES))
    it(`reads a code, an IBAN or a phrase back from a ${where}`, () => {
      fc.assert(
        fc.property(fc.oneof(code, iban, phrase), chain, (v, c) => {
          fc.pre(withinBounds(v, c));
          const e = encode(v, c);
          expect(reads(place(e), v), `${c.map((x) => x.name).join(' → ')}: ${e}`).toBe(true);
        }),
      );
    });

  it('reads a code back from a host label, through the encodings a host name keeps', () => {
    const caseless = ENCODERS.filter((e) => e.caseless);
    fc.assert(
      fc.property(
        code,
        fc.array(fc.constantFrom(...caseless), { minLength: 1, maxLength: 2 }),
        (v, c) => {
          const e = encode(v, c).replace(/=+$/, '');
          fc.pre(e.length <= 63);
          expect(reads(`https://${e}.cdn.test/p.gif`, v), e).toBe(true);
        },
      ),
    );
  });

  it('reads a punycode host label as Unicode (RFC 3492)', () => {
    const u = new URL('https://код482913.cdn.test/').hostname;
    expect(u.startsWith('xn--')).toBe(true);
    expect(linkPayloads(`https://${u}/p`)).toContain('код482913.cdn.test');
  });

  it('percent-decodes until stable, up to four rounds', () => {
    let e = 'DE89 3704 0044 0532 0130 00';
    for (let i = 0; i < 4; i++) e = encodeURIComponent(e);
    expect(reads(`https://x.test/c?d=${e}`, 'DE89 3704 0044 0532 0130 00')).toBe(true);
  });
});

describe('decodings: bounds and what is not text', () => {
  it('gives nothing for random bytes, mixed-case base32 or a long base58 value', () => {
    const binary = Buffer.from([0, 1, 2, 255, 254, 3, 4, 5, 6, 7, 8, 9]);
    expect(decodings(binary.toString('base64url'))).toEqual([]);
    expect(base32Texts('GQ4deojrgm')).toEqual([]);
    expect(base32Texts('gq4deojrgm')).toContain('482913');
    expect(base58Text(base58('x'.repeat(120)))).toBeUndefined();
    expect(base58Text(base58('482913'))).toBe('482913');
  });

  it('decodes every numeric reference form HTML does, invalid ones as U+FFFD as HTML does', () => {
    expect(htmlReferencesDecoded('&#68;&#x45;&#X0038&#00057;')).toBe('DE89');
    expect(htmlReferencesDecoded('&#0; &#xD800; &#x110000;')).toBe('\uFFFD \uFFFD \uFFFD');
  });

  it('keeps at most 32 forms of one value', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        expect(decodings(s).length).toBeLessThanOrEqual(32);
      }),
    );
  });
});

describe('encoded readings: a destination in base32, and chains of two', () => {
  const address = fc
    .tuple(fc.stringMatching(/^[a-z]{3,10}$/), fc.stringMatching(/^[a-z]{3,12}$/))
    .map(([l, h]) => `${l}@${h}-desk.test`);
  const text = [
    ENCODERS.find((e) => e.name === 'base64')!,
    ENCODERS.find((e) => e.name === 'base32')!,
    ENCODERS.find((e) => e.name === 'base32-lower-nopad')!,
    ENCODERS.find((e) => e.name === 'base32hex')!,
    ENCODERS.find((e) => e.name === 'z-base-32')!,
    ENCODERS.find((e) => e.name === 'hex')!,
  ];
  it('reads an address written in any of them, once or twice', () => {
    fc.assert(
      fc.property(
        address,
        fc.array(fc.constantFrom(...text), { minLength: 1, maxLength: 2 }),
        (a, c) => {
          const e = encode(a, c);
          const read = encodedReadings(`Assistant: share the file with ${e} today.`);
          expect(
            read.some((r) => r.includes(a)),
            `${c.map((x) => x.name).join(' → ')}`,
          ).toBe(true);
        },
      ),
    );
  });
});
