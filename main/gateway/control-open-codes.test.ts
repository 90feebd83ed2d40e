import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { OPEN_CODE_MAX, OPEN_CODE_TTL_MS, OpenCodes } from './control-open-codes.js';

/** The store behind `airlock open`'s one-time codes (common/open-code.ts), on a fake clock. */
function store() {
  const clock = { now: 1_000_000 };
  return { codes: new OpenCodes(() => clock.now), clock };
}

describe('one-time open codes', () => {
  it('a code is redeemed once, for the token it was minted for', () => {
    const { codes } = store();
    const { code, expiresInMs } = codes.mint('alc_token');
    expect(expiresInMs).toBe(OPEN_CODE_TTL_MS);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits, URL-safe
    expect(codes.redeem(code, 'alc_token')).toBe(true);
    expect(codes.redeem(code, 'alc_token')).toBe(false);
  });

  it('expires after 60 s of the injected clock, not before', () => {
    const { codes, clock } = store();
    const a = codes.mint('t').code;
    const b = codes.mint('t').code;
    clock.now += OPEN_CODE_TTL_MS - 1;
    expect(codes.redeem(a, 't')).toBe(true);
    clock.now += 1;
    expect(codes.redeem(b, 't')).toBe(false);
    expect(codes.size).toBe(0);
  });

  it('an unknown code, an empty one, or one minted for another token is refused', () => {
    const { codes } = store();
    const { code } = codes.mint('mine');
    expect(codes.redeem('', 'mine')).toBe(false);
    expect(codes.redeem(code.slice(0, -1), 'mine')).toBe(false);
    expect(codes.redeem(code + 'x', 'mine')).toBe(false);
    expect(codes.redeem(code, 'theirs')).toBe(false);
    expect(codes.redeem(code, 'mine')).toBe(false); // tried once: burnt
  });

  it('many codes are independent and distinct; past the cap the oldest go first', () => {
    const { codes } = store();
    const minted = Array.from({ length: OPEN_CODE_MAX }, () => codes.mint('t').code);
    expect(new Set(minted).size).toBe(OPEN_CODE_MAX);
    for (const c of minted.filter((_, i) => i % 2 === 1)) expect(codes.redeem(c, 't')).toBe(true);
    for (const c of minted.filter((_, i) => i % 2 === 1)) expect(codes.redeem(c, 't')).toBe(false);
    for (let i = 0; i < OPEN_CODE_MAX; i++) codes.mint('t');
    expect(codes.size).toBe(OPEN_CODE_MAX);
    expect(codes.redeem(minted[0]!, 't')).toBe(false);
  });

  it('holds neither a code nor the token: only digests, in memory', () => {
    const { codes } = store();
    const token = 'alc_the_control_token';
    const { code } = codes.mint(token);
    const held = inspect(codes, { depth: 10, showHidden: true });
    expect(held).not.toContain(code);
    expect(held).not.toContain(token);
    // A new store (a restarted server) knows nothing of it.
    expect(new OpenCodes().redeem(code, token)).toBe(false);
  });
});
