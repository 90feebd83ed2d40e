import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Key, kdfTarget, keyMaterial } from './vault-kdf.js';

/**
 * The key-material rule (vault-kdf.ts keyMaterial): which key files get HKDF, unstretched. Only
 * text a person would not type: canonical base64 of ≥ 32 bytes that ends in '=' padding. Random
 * keys as Airlock and `openssl rand -base64` write them must always pass; phrases and plain
 * letters-and-digits text of any length must never (they keep scrypt).
 */
const FAST = { N: 2 ** 15, r: 8, p: 1 };
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
/** Wrapped every `width` characters, as `openssl rand -base64` (64) or MIME (76) wrap. */
const wrap = (text: string, width: number, eol: string) =>
  text.replace(new RegExp(`(.{${width}})(?=.)`, 'g'), `$1${eol}`);

const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const alnum = letters + '0123456789';
const textOf = (alphabet: string, o: { minLength?: number; maxLength?: number }) =>
  fc.string({ unit: fc.constantFrom(...alphabet), ...o });
const word = textOf(letters, { minLength: 1, maxLength: 12 });
/** A phrase: words joined by a space, nothing, or punctuation a person uses between words. */
const phrase = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 30 }), fc.constantFrom(' ', '', '-', '_', '.'))
  .map(([words, sep]) => words.join(sep));
/** Byte counts whose base64 is padded (not a multiple of 3) or not (a multiple of 3). */
const padded = fc.integer({ min: 32, max: 200 }).filter((n) => n % 3 !== 0);
const unpadded = fc.integer({ min: 11, max: 66 }).map((k) => 3 * k);

describe('keyMaterial: HKDF only for key material a person would not type (tuning part, seed 34)', () => {
  const seed = { seed: 34, numRuns: 500 };

  it('a random 32-byte key, as Airlock writes it (with or without its newline), is always key material', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.constantFrom('', '\n', '\r\n'),
        (key, eol) => {
          expect(keyMaterial(b64(key) + eol)).toEqual(Buffer.from(key));
          expect(kdfTarget('key-file', b64(key) + eol, FAST)).toEqual({ name: 'hkdf-sha256' });
        },
      ),
      seed,
    );
  });

  it('random keys of any padded length ≥ 32 bytes, wrapped at 64 as openssl does, are key material', () => {
    fc.assert(
      fc.property(
        padded.chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        (key) => {
          expect(keyMaterial(wrap(b64(key), 64, '\n') + '\n')).toEqual(Buffer.from(key));
        },
      ),
      seed,
    );
  });

  it('word phrases, however long, are never key material (scrypt)', () => {
    fc.assert(
      fc.property(phrase, (text) => {
        expect(keyMaterial(text)).toBeNull();
        expect(kdfTarget('key-file', text, FAST)).toEqual({ name: 'scrypt', ...FAST });
      }),
      seed,
    );
  });

  it('letters and digits of any length (incl. multiples of 4, ≥ 44) are never key material', () => {
    const lengths = fc.oneof(
      fc.integer({ min: 0, max: 300 }),
      fc.integer({ min: 11, max: 75 }).map((k) => 4 * k), // what the old rule let through
    );
    fc.assert(
      fc.property(
        lengths.chain((n) => textOf(alnum, { minLength: n, maxLength: n })),
        (text) => {
          expect(keyMaterial(text)).toBeNull();
        },
      ),
      seed,
    );
  });

  it('random base64 without padding (a byte count that is a multiple of 3) keeps scrypt', () => {
    fc.assert(
      fc.property(
        unpadded.chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        (key) => {
          expect(base64Key(b64(key))).toEqual(Buffer.from(key)); // an HKDF header still opens it
          expect(keyMaterial(b64(key))).toBeNull(); // but a new vault or a re-key uses scrypt
        },
      ),
      seed,
    );
  });

  it('a passphrase never gets HKDF, whatever it looks like', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (key) => {
        expect(kdfTarget('passphrase', b64(key), FAST)).toEqual({ name: 'scrypt', ...FAST });
      }),
      seed,
    );
  });
});

// Held out: written before the tuning part ran and not adjusted to it. Other seed, other
// generators (hex, base64url, MIME and CRLF wrapping, surrounding blanks, Unicode, phrases with
// '=' in them), and literal output of `openssl rand` captured once on the bench machine.
describe('keyMaterial: held-out part (seed 2026)', () => {
  const seed = { seed: 2026, numRuns: 300 };

  it('padded random keys wrapped at 76 with CRLF, amid blanks, are key material', () => {
    fc.assert(
      fc.property(
        padded.chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        fc.constantFrom('', ' ', '\t', '\n\n'),
        (key, blank) => {
          const text = `${blank}${wrap(b64(key), 76, '\r\n')}${blank}`;
          expect(keyMaterial(text)).toEqual(Buffer.from(key));
        },
      ),
      seed,
    );
  });

  it('hex keys, base64url keys and any Unicode text are never key material', () => {
    const hex = fc
      .uint8Array({ minLength: 16, maxLength: 64 })
      .map((k) => Buffer.from(k).toString('hex'));
    const url = fc
      .uint8Array({ minLength: 32, maxLength: 64 })
      .map((k) => Buffer.from(k).toString('base64url'));
    const unicode = fc.string({ unit: 'grapheme', maxLength: 120 });
    fc.assert(
      fc.property(fc.oneof(hex, url, unicode), (text) => {
        expect(keyMaterial(text)).toBeNull();
      }),
      seed,
    );
  });

  it('phrases with "=" in them, or a "=" after a space, are never key material', () => {
    fc.assert(
      fc.property(phrase, fc.constantFrom('=', '==', ' =', '= ', '=x'), (text, tail) => {
        const t = text.includes(' ') || text.length < 43 ? text + tail : `${text} ${tail}`;
        expect(keyMaterial(t)).toBeNull();
      }),
      seed,
    );
  });

  it('literal `openssl rand` output: -base64 32 and -base64 64 are key material; -base64 48 and -hex 32 are not', () => {
    for (const text of [
      '4MOEjN1CBeusifXJu277dA9hDj2RfOT8NrYyFUPqFCk=\n',
      's6rY4v7CYwD/IHpE4eWoCNO1EeR+JApXv4cHmWnr8/Q=\n',
      'ZI47/yPvQXQ9zFUpIHlApNaizkbHuxQW+lzL+KyHA5PAHXjt/qso3SSfnU5HyiE4\ndohnb+Ve/7wkYZ6CbH/+bQ==\n',
    ])
      expect(keyMaterial(text)?.length).toBeGreaterThanOrEqual(32);
    for (const text of [
      'Nf+5sUNK+/t0gkLObcM/uQF2Bzb7+tke/Jma+/EKd2ncTQlVziGbvKrbqatGe2+5\n', // 48 bytes: no padding
      'ed9ee827436cd087466cf87f2576d21fb56a7e96fbcdd23001b47d4312261823\n', // hex: 64 characters
    ])
      expect(keyMaterial(text)).toBeNull();
  });

  it('the edges: 31 padded bytes, stray bits before the padding, padding inside, a lone "="', () => {
    const k31 = b64(randomBytes(31));
    const k32 = b64(randomBytes(32));
    for (const text of [
      k31,
      k32.slice(0, -2) + 'B=',
      k32.slice(0, 20) + '=' + k32.slice(21),
      '='.repeat(44),
      k32 + '=',
    ])
      expect(keyMaterial(text)).toBeNull();
  });

  it("the rule's known limit (docs/security.md): 43 letters and a '=' after a fitting letter do pass", () => {
    // Airlock cannot tell this from random key material; the docs say to use
    // AIRLOCK_VAULT_PASSPHRASE for a passphrase instead of a key file.
    expect(keyMaterial('mysecretpasswordisverylongnobodyknowsthisok=')).not.toBeNull();
  });
});
