import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkPayloads } from './link-payloads.js';
import { secretCandidates } from './secrets.js';

/**
 * False flags from decoding: the private-data rule matches a short secret exactly (secrets.ts:
 * a whole run of letters and digits, 4–34 long), so a random id in a benign link flags only if
 * one of its decodings (decodings.ts) is printable text holding such a run equal to the user's
 * code. Over generated ids of the kinds benign links carry, the decodings add no candidate equal
 * to a generated code, PIN or account number that the link, URL-decoded, does not hold already.
 */

const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const bytes = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max }).map((b) => Buffer.from(b));

const benignLink = fc.oneof(
  bytes(6, 48).map((b) => `https://t.example.com/c/${b.toString('base64url')}`),
  bytes(6, 24).map((b) => `https://t.example.com/c?r=${encodeURIComponent(b.toString('base64'))}`),
  chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 6, 32).map((s) => `https://t.example.com/o/${s}`),
  chars('0123456789abcdefghijklmnopqrstuv', 26, 26).map(
    (s) => `https://calendar.google.com/calendar/event?eid=${s}`,
  ),
  fc.uuid().map((u) => `https://app.example.com/orders/${u}?s=${u.replace(/-/g, '')}`),
  bytes(20, 20).map((b) => `https://github.com/o/r/commit/${b.toString('hex')}`),
  bytes(4, 4).map((b) => `https://github.com/o/r/tree/${b.toString('hex').slice(0, 7)}`),
  bytes(4, 32).map((b) => `https://cdn.example.com/static/app.${b.toString('hex')}.js`),
  chars(B58, 25, 33).map((s) => `https://blockstream.info/address/1${s}`),
  chars(B58, 44, 44).map((s) => `https://ipfs.io/ipfs/Qm${s}`),
  chars(B62, 6, 10).map((s) => `https://bit.ly/${s}`),
  fc.bigInt(10_000_000n, 999_999_999_999n).map((n) => `https://shop.example.com/orders/${n}`),
  fc
    .tuple(fc.nat(), bytes(16, 32))
    .map(
      ([sub, sig]) =>
        `https://app.example.com/verify?token=${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(`{"sub":"${sub}"}`).toString('base64url')}.${sig.toString('base64url')}`,
    ),
);
const privateValue = fc.oneof(
  fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0')),
  fc.integer({ min: 0, max: 9_999 }).map((n) => String(n).padStart(4, '0')),
  fc.bigInt(10_000_000n, 99_999_999_999n).map(String),
);

function urlDecoded(link: string): string {
  try {
    return decodeURIComponent(link);
  } catch {
    return link;
  }
}

describe('decoding benign links', () => {
  it('adds no candidate equal to a private code that the link does not hold', () => {
    fc.assert(
      fc.property(
        benignLink,
        fc.array(privateValue, { minLength: 1, maxLength: 5 }),
        (link, vs) => {
          const before = new Set(secretCandidates(`${link}\n${urlDecoded(link)}`));
          const added = secretCandidates(linkPayloads(link).join('\n')).filter(
            (c) => !before.has(c),
          );
          expect(added.filter((c) => vs.includes(c))).toEqual([]);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
