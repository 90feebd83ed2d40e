import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { startedWith, startFlags } from './v8-flags.js';

/**
 * Where `airlock serve` holds V8's young generation (issue 34: RSS ahead of the best peer). Under
 * a steady call load V8 doubles the new space up to 2 × 16 MiB semi-spaces on 64-bit, and that
 * memory stays resident: 29 of the 146 MiB Airlock held under 8 clients (docs/performance.md,
 * "Memory"). 2 × 4 MiB measured 17 MiB less RSS under the same load for no measurable CPU per call.
 */
export const YOUNG_GENERATION_MIB = 8;

/** V8's own default (`node --v8-options`: --semi-space-growth-factor). */
const V8_GROWTH_FACTOR = 2;

/**
 * How the old generation is held near its live size (see start()): V8's `--heap-growing-percent`
 * (the default), `--optimize-for-size` for the whole run (before wave 3 session 13), or neither.
 */
export type OldGenerationHold = 'growing-percent' | 'optimize-for-size' | 'none';

/** `--heap-growing-percent` while `airlock serve` runs: a limit 1.1 × the live size after a full GC. */
export const HEAP_GROWING_PERCENT = 10;

/**
 * Started with any of these, the new space is the user's: no growth factor, no shrinking
 * (`--optimize-for-size` is how adjust() shrinks, so a user's own `--[no-]optimize-for-size` must
 * not be toggled either; `--lite-mode` implies it, `--predictable-gc-schedule` sets both semi-space
 * sizes: V8's flag-definitions.h). Left out on purpose: `--max-heap-size` (the new space it
 * derives is only ever smaller than the cap) and the old generation's hard limits
 * (`--max-old-space-size` and kin: the hold changes how the limit grows, not its ceiling).
 */
const YOUNG_FLAGS = [
  '--max-semi-space-size',
  '--min-semi-space-size',
  '--semi-space-growth-factor',
  '--scavenger-max-new-space-capacity-mb',
  '--minor-ms-max-new-space-capacity-mb',
  '--optimize-for-size',
  '--no-optimize-for-size',
  '--lite-mode',
  '--predictable-gc-schedule',
];

/**
 * Started with any of these, how the old generation's limit grows is the user's
 * (`--predictable-gc-schedule` implies `--heap-growing-percent=30`, `--lite-mode` optimizes for
 * size).
 */
const OLD_FLAGS = [
  '--heap-growing-percent',
  '--optimize-for-size',
  '--no-optimize-for-size',
  '--lite-mode',
  '--predictable-gc-schedule',
];

export interface YoungGenerationOptions {
  /** The new space's size (both semi-spaces) it may grow to, in MiB. */
  capMiB?: number;
  /** How the old generation is held (default 'growing-percent'; see start()). */
  oldGeneration?: OldGenerationHold;
  /**
   * Test hooks: V8's flag setter, the new space's current size in bytes, and the flags the
   * process was started with (v8-flags.ts).
   */
  setFlags?: (flags: string) => void;
  newSpaceBytes?: () => number;
  startFlags?: readonly string[];
}

/**
 * Caps the new space without a command-line flag. `--max-semi-space-size` is read once, when the
 * heap is set up, so it cannot apply to `node bin/airlock.js serve` (nor can a shebang flag; a
 * re-exec would cost a second Node start). V8 reads `--semi-space-growth-factor` each time it
 * grows the new space (SemiSpaceNewSpace::Grow), so after every GC this sets it to 1 (no growth)
 * once the new space has reached the cap, and back to V8's 2 when V8 has shrunk it below.
 *
 * A process started with its own young- or old-generation settings (YOUNG_FLAGS, OLD_FLAGS, on
 * the command line or in NODE_OPTIONS) keeps them: that part is left alone.
 */
export class YoungGenerationCap {
  private readonly capBytes: number;
  private readonly oldGeneration: OldGenerationHold;
  /** Whether the new space is held here, not left as whoever started the process set it. */
  private readonly holdsYoung: boolean;
  private readonly setFlags: (flags: string) => void;
  private readonly newSpaceBytes: () => number;
  private observer: PerformanceObserver | null = null;
  private started = false;
  private growing = true;
  /** --optimize-for-size set for a new space above the cap (adjust()). */
  private shrinking = false;

  constructor(o: YoungGenerationOptions = {}) {
    this.capBytes = (o.capMiB ?? YOUNG_GENERATION_MIB) * 1024 * 1024;
    const userFlags = o.startFlags ?? startFlags();
    this.holdsYoung = !startedWith(YOUNG_FLAGS, userFlags);
    const hold = o.oldGeneration ?? 'growing-percent';
    // 'optimize-for-size' also sets the new space (it implies --max-semi-space-size=1, which
    // outlasts --no-optimize-for-size): not over a user's own new-space flags either.
    this.oldGeneration =
      startedWith(OLD_FLAGS, userFlags) || (hold === 'optimize-for-size' && !this.holdsYoung)
        ? 'none'
        : hold;
    this.setFlags = o.setFlags ?? ((flags) => v8.setFlagsFromString(flags));
    this.newSpaceBytes = o.newSpaceBytes ?? newSpaceBytes;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    // The old generation too (issue 34, wave 3 session 4): after each full GC V8 sets the next
    // limit at least 8 MiB plus the new space's capacity above the live size, and up to 4× it
    // (heap-controller.cc). Under 8 clients the old space held 34–52 MiB with 19–25 live.
    // `--heap-growing-percent=10` (read at each limit computation, so it applies when set after
    // start; process-wide like the growth factor below) caps the factor at 1.1: old space 27–29
    // MiB. Until wave 3 session 13 this was `--optimize-for-size` for the whole run, which also
    // takes the floor down to 2 MiB steps (22–25 MiB, 6–10 less RSS) but turns every full GC into
    // a memory-reducing one (compacting, all bytecode flushed) and made 1.7× the full GCs and
    // 1.2–1.4× the scavenges of this setting under the relay-floor bench's load (docs/performance.md,
    // "V8 settings and the process around the path, wave 3 session 13"): CPU per call, and the GC
    // pauses the slowest sequential calls wait behind. Its price: ≈ 10 MiB more RSS under 8 clients.
    if (this.oldGeneration === 'optimize-for-size') this.setFlags('--optimize-for-size');
    if (this.oldGeneration === 'growing-percent')
      this.setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    if (!this.holdsYoung) return;
    this.adjust();
    this.observer = new PerformanceObserver(() => this.adjust());
    this.observer.observe({ entryTypes: ['gc'] });
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.observer?.disconnect();
    this.observer = null;
    if (this.oldGeneration === 'optimize-for-size' || this.shrinking)
      this.setFlags('--no-optimize-for-size');
    if (this.oldGeneration === 'growing-percent') this.setFlags('--heap-growing-percent=0');
    if (!this.growing) this.setFlags(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
    this.growing = true;
    this.shrinking = false;
  }

  /**
   * After a GC: may V8 grow the new space the next time it wants to? And is it above the cap (one
   * synchronous burst grew it while the flag still said "grow": the observer runs only between
   * turns of the event loop)? Then `--optimize-for-size` until it is back: V8 shrinks the new space
   * only while it optimizes for memory (or sees the allocation rate drop); the growth factor alone
   * held it at 2 × 16 MiB (young-generation.test.ts, the burst case). Not all of it is undone:
   * V8::SetFlagsFromString enforces implications, and --optimize-for-size implies
   * --max-semi-space-size=1, which stays after --no-optimize-for-size (and stop()): an isolate set
   * up after a burst (a schema pool worker) gets at most 2 × 1 MiB of new space, as every worker
   * did while --optimize-for-size was set at start (young-generation.test.ts, `it.fails`).
   */
  adjust(): void {
    if (!this.holdsYoung) return;
    const size = this.newSpaceBytes();
    const grow = size < this.capBytes;
    if (grow !== this.growing) {
      this.growing = grow;
      this.setFlags(`--semi-space-growth-factor=${grow ? V8_GROWTH_FACTOR : 1}`);
    }
    if (this.oldGeneration === 'optimize-for-size') return; // on for the whole run already
    const over = size > this.capBytes;
    if (over === this.shrinking) return;
    this.shrinking = over;
    this.setFlags(over ? '--optimize-for-size' : '--no-optimize-for-size');
  }
}

function newSpaceBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}
