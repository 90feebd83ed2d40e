import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerToken } from './guards.js';

/**
 * bearerToken tests the header and cuts the token out instead of taking a match's capture (issue
 * 34, wave 3 session 32: no match array per request). The reference is the replaced code, word
 * for word. Headers are built from the pieces that matter — the scheme in any case, the Unicode
 * whitespace `\s` and `trim` know (and some they do not), token characters and near-misses — and
 * a second generator, never tuned on, draws arbitrary strings around "Bearer".
 */
function reference(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

const req = (authorization: string | undefined) =>
  ({ headers: { authorization } }) as unknown as IncomingMessage;

// `\s` (ECMA-262 WhiteSpace and LineTerminator) and neighbours that are not whitespace.
const SPACES = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u200a'];
const SPACES_MORE = ['\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
const NOT_SPACES = ['\u200b', '\u180e', '\u0085', 'x', ',', '"', '\0'];
const TOKEN_CHARS = 'AZaz09._~+/=-'.split('');

const pieces = (ws: string[]) =>
  fc.tuple(
    fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr', 'Basic', 'Bearer:', '', ' Bearer'),
    fc.array(fc.constantFrom(...ws, ...NOT_SPACES), { maxLength: 3 }),
    fc.array(fc.constantFrom(...TOKEN_CHARS, ...NOT_SPACES, ...ws), { maxLength: 12 }),
    fc.array(fc.constantFrom(...ws, ...NOT_SPACES), { maxLength: 3 }),
  );
const built = (ws: string[]) =>
  pieces(ws).map(([s, a, t, b]) => `${s}${a.join('')}${t.join('')}${b.join('')}`);

function agree(headers: fc.Arbitrary<string>, seed: number, runs: number): void {
  fc.assert(
    fc.property(headers, (h) => {
      expect(bearerToken(req(h))).toBe(reference(h));
    }),
    { seed, numRuns: runs },
  );
}

describe('bearerToken ≡ the capture it replaced', () => {
  it('over built headers (tuning seed)', () => agree(built(SPACES), 32, 5000));
  it('held-out: other whitespace, other seeds, never tuned on', () => {
    for (const seed of [3201, 3202]) agree(built([...SPACES, ...SPACES_MORE]), seed, 3000);
  });
  it('held-out: arbitrary strings around the scheme', () => {
    const around = fc
      .tuple(fc.constantFrom('Bearer ', 'bearer\t', 'Bearer'), fc.string({ unit: 'grapheme' }))
      .map(([a, b]) => a + b);
    agree(fc.oneof(around, fc.string()), 3203, 3000);
  });
  it('no header, an empty one', () => {
    expect(bearerToken(req(undefined))).toBeNull();
    expect(bearerToken(req(''))).toBeNull();
    expect(bearerToken(req('Bearer \u3000tok.en\u2029 '))).toBe('tok.en');
  });
});
