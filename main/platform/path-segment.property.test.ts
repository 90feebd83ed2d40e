import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isCredentialSegment } from './path-segment.js';

/**
 * docs/security.md, "No credentials of a server URL": which path segments are taken for credentials, over generated segments. The
 * rule (path-segment.ts) was tuned on the families marked "tuned"; the "held-out" ones were
 * written after it and never tuned on — their rates are printed separately and bounded loosely.
 */
const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const b64url = (min: number, max: number) =>
  fc
    .tuple(bytes(48, 48), fc.integer({ min, max }))
    .map(([b, n]) => Buffer.from(b).toString('base64url').slice(0, n));
const hex = (n: number) => bytes(n / 2, n / 2).map((b) => Buffer.from(b).toString('hex'));

/** Tuned: what encoders of random bytes write. */
const CREDENTIALS = {
  uuidV4: fc.uuid({ version: 4 }),
  'base64url 22-31': b64url(22, 31),
  'base64url 32-64': b64url(32, 64),
  // The base64url draws without a digit or separator (about 1 in 40 at 22 characters): only the
  // mix of cases tells them from words.
  'base64url 22-31, letters only': fc
    .tuple(
      fc.array(fc.integer({ min: 0, max: 51 }), { minLength: 22, maxLength: 31 }),
      fc.constant('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'),
    )
    .map(([a, abc]) => a.map((i) => abc[i]).join('')),
  hex32: hex(32),
  hex40: hex(40),
  hex64: hex(64),
  HEX32: hex(32).map((s) => s.toUpperCase()),
  // Standard base64 of random bytes, as a path segment must carry it: `/` (and `+`, `=`)
  // percent-encoded (RFC 3986 §3.3). Every draw of 24+ bytes with a `/` was missed before `/` was
  // let through after decoding.
  'base64 (percent-encoded) 24-48 bytes': bytes(24, 48).map((b) =>
    encodeURIComponent(Buffer.from(b).toString('base64')),
  ),
  // Zapier's: base64 (with `=` padding, percent-encoded or not) of "<uuid>:<uuid>".
  zapier: fc
    .tuple(fc.uuid({ version: 4 }), fc.uuid({ version: 4 }), fc.boolean())
    .map(([a, b, enc]) => {
      const s = Buffer.from(`${a}:${b}`).toString('base64');
      return enc ? s.replace(/=/g, '%3D') : s;
    }),
};

/** Held out: prefixed API keys and base62 tokens, the shapes not tuned on. */
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const b62 = (min: number, max: number) =>
  fc
    .array(fc.integer({ min: 0, max: 61 }), { minLength: min, maxLength: max })
    .map((a) => a.map((i) => B62[i]).join(''));
const HELD_OUT_CREDENTIALS = {
  'prefixed key (sk_live_, ghp_, pd_)': fc
    .tuple(fc.constantFrom('sk_live_', 'ghp_', 'pd_', 'key-', 'xoxb-'), b62(24, 40))
    .map(([p, s]) => p + s),
  'base62 20-40': b62(20, 40),
};

const WORDS = [
  'server',
  'mcp',
  'name',
  'production',
  'github',
  'linear',
  'notion',
  'slack',
  'gmail',
  'calendar',
  'files',
  'workspace',
  'default',
  'alpha',
  'team',
  'tools',
  'search',
  'customer',
  'billing',
  'remote',
  'events',
  'stream',
  'public',
  'internal',
  'data',
  'google',
  'drive',
  'v2',
  'api',
  'sse',
  'http',
  'streamable',
  'composio',
  'zapier',
  'pipedream',
];
const word = fc.constantFrom(...WORDS);
const date = fc
  .date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2099-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

/** Tuned: what ordinary paths hold. */
const BENIGN = {
  word,
  slug: fc
    .tuple(fc.array(word, { minLength: 2, maxLength: 5 }), fc.constantFrom('-', '_', '.'))
    .map(([ws, sep]) => ws.join(sep)),
  camelCase: fc
    .array(word, { minLength: 3, maxLength: 5 })
    .map((ws) => ws.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('')),
  UPPER_SNAKE: fc
    .array(word, { minLength: 3, maxLength: 5 })
    .map((ws) => ws.join('_').toUpperCase()),
  date,
  version: fc.tuple(fc.nat(20), fc.nat(40), fc.nat(40)).map(([a, b, c]) => `v${a}.${b}.${c}`),
  'numeric id': fc.bigInt({ min: 0n, max: 10n ** 15n }).map(String),
  'slug-version-date': fc
    .tuple(word, word, fc.nat(9), date)
    .map(([a, b, v, d]) => `${a}-${b}-v${v}-${d}`),
  'short id': b64url(4, 12),
};

/** Held out: lorem-ipsum names in the same shapes (a vocabulary the rule never saw). */
const lorem = fc.lorem({ maxCount: 1 }).filter((w) => /^[a-z]+$/.test(w));
const HELD_OUT_BENIGN = {
  'lorem slug': fc
    .tuple(fc.array(lorem, { minLength: 2, maxLength: 5 }), fc.constantFrom('-', '_'))
    .map(([ws, sep]) => ws.join(sep)),
  'lorem camelCase': fc
    .array(lorem, { minLength: 2, maxLength: 5 })
    .map((ws) => ws.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('')),
  'lorem slug with a number': fc
    .tuple(lorem, lorem, fc.nat(100_000))
    .map(([a, b, n]) => `${a}-${b}-${n}`),
};

const RUNS = 2000;
const rates: string[] = [];
afterAll(() => console.log(`path-segment rates over ${RUNS} draws each:\n${rates.join('\n')}`));

function rate(arb: fc.Arbitrary<string>, taken: boolean): { rate: number; example?: string } {
  const draws = fc.sample(arb, { numRuns: RUNS });
  const odd = draws.filter((s) => isCredentialSegment(s) !== taken);
  return { rate: odd.length / draws.length, ...(odd[0] !== undefined ? { example: odd[0] } : {}) };
}

describe('path segments taken for credentials (docs/security.md, "No credentials of a server URL")', () => {
  it('every generated token of the tuned families is taken', () => {
    for (const [family, arb] of Object.entries(CREDENTIALS))
      fc.assert(
        fc.property(arb, (s) => {
          expect(isCredentialSegment(s), `${family}: ${s}`).toBe(true);
        }),
        { numRuns: 500 },
      );
  });

  it('no generated ordinary segment of the tuned families is taken', () => {
    for (const [family, arb] of Object.entries(BENIGN))
      fc.assert(
        fc.property(arb, (s) => {
          expect(isCredentialSegment(s), `${family}: ${s}`).toBe(false);
        }),
        { numRuns: 500 },
      );
  });

  it('held-out families: rates reported, bounded loosely', () => {
    for (const [family, arb] of Object.entries(HELD_OUT_CREDENTIALS)) {
      const r = rate(arb, true);
      rates.push(`  held-out credentials ${family}: missed ${(r.rate * 100).toFixed(2)} %`);
      expect(r.rate, `${family} missed, e.g. ${r.example}`).toBeLessThan(0.01);
    }
    for (const [family, arb] of Object.entries(HELD_OUT_BENIGN)) {
      const r = rate(arb, false);
      rates.push(
        `  held-out ordinary ${family}: taken ${(r.rate * 100).toFixed(2)} % (e.g. ${r.example ?? '-'})`,
      );
      expect(r.rate, `${family} taken, e.g. ${r.example}`).toBeLessThan(0.05);
    }
  });

  it('tuned families: rates over more draws, reported', () => {
    for (const [family, arb] of Object.entries(CREDENTIALS)) {
      const r = rate(arb, true);
      rates.push(`  tuned credentials ${family}: missed ${(r.rate * 100).toFixed(2)} %`);
      expect(r.rate, `${family} missed, e.g. ${r.example}`).toBeLessThan(0.002);
    }
    for (const [family, arb] of Object.entries(BENIGN)) {
      const r = rate(arb, false);
      rates.push(`  tuned ordinary ${family}: taken ${(r.rate * 100).toFixed(2)} %`);
      expect(r.rate, `${family} taken, e.g. ${r.example}`).toBeLessThan(0.002);
    }
  });

  it('the shapes of the per-user URL services (Zapier, Composio)', () => {
    // Composio's older per-user URLs: words and a short random tail — taken for the tail.
    expect(isCredentialSegment('tinkling-faint-car-f6g1xk')).toBe(true);
    expect(
      isCredentialSegment(
        'ODk0YjE2ZjYtZTc4Ni00ZjQ4LWI0ZTMtNjk0YTk4OGNiMmI0OjRkYjA0ZDQ4LWQ1ZmYtNDYwMi04ZDk4LWNmYjU4NmEyYjE2OQ==',
      ),
    ).toBe(true);
    expect(isCredentialSegment('mcp')).toBe(false);
    expect(isCredentialSegment('2025-06-18')).toBe(false);
  });
});
