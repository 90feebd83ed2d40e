import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * Where `airlock serve` holds V8's young generation (issue 34: RSS ahead of the best peer). Under
 * a steady call load V8 doubles the new space up to 2 × 16 MiB semi-spaces on 64-bit, and that
 * memory stays resident: 29 of the 146 MiB Airlock held under 8 clients (docs/performance.md,
 * "Memory"). 2 × 4 MiB measured 17 MiB less RSS under the same load for no measurable CPU per call.
 */
export const YOUNG_GENERATION_MIB = 8;

/** V8's own default (`node --v8-options`: --semi-space-growth-factor). */
const V8_GROWTH_FACTOR = 2;

export interface YoungGenerationOptions {
  /** The new space's size (both semi-spaces) it may grow to, in MiB. */
  capMiB?: number;
  /** V8's --optimize-for-size beside the cap (default true; see start()). */
  optimizeForSize?: boolean;
  /** Test hooks: V8's flag setter and the new space's current size in bytes. */
  setFlags?: (flags: string) => void;
  newSpaceBytes?: () => number;
}

/**
 * Caps the new space without a command-line flag. `--max-semi-space-size` is read once, when the
 * heap is set up, so it cannot apply to `node bin/airlock.js serve` (nor can a shebang flag; a
 * re-exec would cost a second Node start). V8 reads `--semi-space-growth-factor` each time it
 * grows the new space (SemiSpaceNewSpace::Grow), so after every GC this sets it to 1 (no growth)
 * once the new space has reached the cap, and back to V8's 2 when V8 has shrunk it below.
 */
export class YoungGenerationCap {
  private readonly capBytes: number;
  private readonly optimizeForSize: boolean;
  private readonly setFlags: (flags: string) => void;
  private readonly newSpaceBytes: () => number;
  private observer: PerformanceObserver | null = null;
  private growing = true;

  constructor(o: YoungGenerationOptions = {}) {
    this.capBytes = (o.capMiB ?? YOUNG_GENERATION_MIB) * 1024 * 1024;
    this.optimizeForSize = o.optimizeForSize ?? true;
    this.setFlags = o.setFlags ?? ((flags) => v8.setFlagsFromString(flags));
    this.newSpaceBytes = o.newSpaceBytes ?? newSpaceBytes;
  }

  start(): void {
    if (this.observer) return;
    // The old generation too (issue 34, wave 3 session 4): after each full GC V8 sets the next
    // limit at least 8 MiB plus the new space's capacity above the live size, and up to 4× it,
    // unless it optimizes for memory (heap-controller.cc, MinimumAllocationLimitGrowingStep: 2
    // MiB, and a conservative factor). Under 8 clients the old space held 34–52 MiB with 19–25
    // live; with this flag 22–25 (docs/performance.md, "under load, wave 3 session 4"). V8 reads it
    // at each limit computation, so it applies when set after start; process-wide, like the
    // growth factor below (a schema pool Worker gets it too). Its price: more GC, ≈ 0.03 ms a call.
    // --heap-growing-percent=10 instead caps the factor but keeps the 8 MiB + new-space floor: old
    // space 27-29 MiB, RSS 6-10 MiB above this flag's, CPU +0-4 % over main against +4-14 % (docs).
    if (this.optimizeForSize) this.setFlags('--optimize-for-size');
    this.adjust();
    this.observer = new PerformanceObserver(() => this.adjust());
    this.observer.observe({ entryTypes: ['gc'] });
  }

  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
    if (this.optimizeForSize) this.setFlags('--no-optimize-for-size');
    if (!this.growing) this.setFlags(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
    this.growing = true;
  }

  /** After a GC: may V8 grow the new space the next time it wants to? */
  adjust(): void {
    const grow = this.newSpaceBytes() < this.capBytes;
    if (grow === this.growing) return;
    this.growing = grow;
    this.setFlags(`--semi-space-growth-factor=${grow ? V8_GROWTH_FACTOR : 1}`);
  }
}

function newSpaceBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}
