import { createHash, randomBytes } from 'node:crypto';

/** 60 s: long enough for a browser to start cold, short enough that a stale link is dead. */
export const OPEN_CODE_TTL_MS = 60_000;
/** Outstanding codes kept at most; minting past it drops the oldest (each `airlock open` makes one). */
export const OPEN_CODE_MAX = 64;

const digest = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * One-time open codes (common/open-code.ts): 256 random bits each, redeemable once, within
 * OPEN_CODE_TTL_MS of the injected clock, for the control token they were minted for. Held in
 * memory only, and only as digests: neither the code nor the token is stored, so nothing here
 * can leak into a log or a dump. A redemption is a map lookup by the code's digest, so its time
 * says nothing about how much of a guess was right (no token oracle).
 */
export class OpenCodes {
  /** code digest → token digest and expiry; insertion order is age order (for OPEN_CODE_MAX). */
  private readonly codes = new Map<string, { audience: string; expiresAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = OPEN_CODE_TTL_MS,
    private readonly max = OPEN_CODE_MAX,
  ) {}

  /** A new code for `token` (the caller has proven it holds it). */
  mint(token: string): { code: string; expiresInMs: number } {
    this.sweep();
    while (this.codes.size >= this.max) this.codes.delete(this.codes.keys().next().value!);
    const code = randomBytes(32).toString('base64url');
    this.codes.set(digest(code), { audience: digest(token), expiresAt: this.now() + this.ttlMs });
    return { code, expiresInMs: this.ttlMs };
  }

  /**
   * True when `code` was minted for `token`, unused and unexpired. Any hit burns the code, even a
   * refused one: a code is tried once.
   */
  redeem(code: string, token: string): boolean {
    const key = digest(code);
    const entry = this.codes.get(key);
    if (!entry) return false;
    this.codes.delete(key);
    return this.now() < entry.expiresAt && entry.audience === digest(token);
  }

  /** Outstanding codes (tests). */
  get size(): number {
    this.sweep();
    return this.codes.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, e] of this.codes) if (now >= e.expiresAt) this.codes.delete(key);
  }
}
