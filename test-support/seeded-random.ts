/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): a small seeded source of numbers in [0, 1), so
 * a generated split or fuzz run is the same on every machine and every run — what the tests'
 * tuning and held-out parts rely on. Not for anything secret.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
