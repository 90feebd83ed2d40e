import { describe, expect, it } from 'vitest';
import { runProbe } from '../../test-support/probe-process.js';
import {
  HEAP_GROWING_PERCENT,
  YOUNG_GENERATION_MIB,
  YoungGenerationCap,
} from './young-generation.js';

const MIB = 1024 * 1024;

/** young-generation.probe.mjs in a fresh Node process (V8 flags are per process). */
function probe(
  mode:
    | 'none'
    | 'cap'
    | 'serve'
    | 'worker'
    | 'burst'
    | 'old'
    | 'old-cap'
    | 'old-none'
    | 'worker-after-burst',
  nodeOptions = '',
): Promise<{ max: number; majors?: number; exit?: number }> {
  return runProbe(
    new URL('./young-generation.probe.mjs', import.meta.url),
    new URL('../../dist/main/platform/young-generation.js', import.meta.url),
    {
      args: [mode],
      env: { AIRLOCK_VAULT_PASSPHRASE: 'young-generation-test', NODE_OPTIONS: nodeOptions },
    },
  );
}

describe('the young generation of airlock serve (issue 34: RSS under load)', () => {
  it('grows past the cap under this load when nothing holds it (the load is enough)', async () => {
    expect((await probe('none')).max).toBeGreaterThan(YOUNG_GENERATION_MIB * MIB);
  }, 120_000);

  it('stays within the cap with YoungGenerationCap started', async () => {
    expect((await probe('cap')).max).toBeLessThanOrEqual(YOUNG_GENERATION_MIB * MIB);
  }, 120_000);

  // Only the user loosens: a Node started with its own new-space size keeps it. The cap's
  // default reads the start flags as serve's does (the command line and NODE_OPTIONS).
  it('leaves the new space to a process started with its own --max-semi-space-size', async () => {
    expect((await probe('cap', '--max-semi-space-size=16')).max).toBeGreaterThan(
      YOUNG_GENERATION_MIB * MIB,
    );
  }, 120_000);

  it('stays within the cap inside a started airlock serve, which then stops cleanly', async () => {
    const r = await probe('serve');
    expect(r.max).toBeLessThanOrEqual(YOUNG_GENERATION_MIB * MIB);
    expect(r.exit).toBe(0);
  }, 120_000);

  // Review (issue 34), a known defect, not fixed: V8 flags are process-wide, so the
  // --semi-space-growth-factor=1 set for the main isolate also freezes every worker isolate's new
  // space at its start size (2–4 MiB here) — the schema worker pool's, whose checks run within a
  // time budget (schema-worker-pool.ts). A synthetic allocation load in a worker took ≈ 3× as long
  // pinned (≈ 650 ms vs ≈ 200 ms). `it.fails` until the cap no longer reaches workers (or is
  // dropped): then this fails, and should become a plain `it`.
  it.fails(
    'holds only the main thread: a worker thread (the schema pool) still grows its new space under the same load',
    async () => {
      const r = await probe('worker');
      expect(r.max).toBeGreaterThan(YOUNG_GENERATION_MIB * MIB);
    },
    120_000,
  );

  // Review (issue 34, wave 3 session 13), a known limit, not fixed: V8::SetFlagsFromString enforces
  // flag implications, and --optimize-for-size implies --max-semi-space-size=1 (flag-definitions.h,
  // DEFINE_VALUE_IMPLICATION), which --no-optimize-for-size and stop() leave set. After one burst,
  // every isolate set up later (a schema pool worker started or replaced then) gets a new space of
  // at most 2 × 1 MiB for the rest of the run; one started before grows to 32 MiB under this load
  // (the `worker` case's first half). Not a regression: until session 13 --optimize-for-size was
  // set at start, so every worker got it. `it.fails` until the implied value is handed back.
  it.fails(
    'leaves a worker started after a burst the new space V8 would give it',
    async () => {
      const r = await probe('worker-after-burst');
      expect(r.max).toBeGreaterThan(YOUNG_GENERATION_MIB * MIB);
    },
    120_000,
  );

  // Review (issue 34), a known limit: the observer runs between turns of the event loop, so one
  // synchronous stretch of allocation with survivors, while the flag still says "grow", doubles the
  // new space past the cap (to V8's 2 × 16 MiB here); the growth factor alone then held it there.
  // With --optimize-for-size (wave 3 session 4) V8 shrinks it back once the load eases, so it ends
  // within the cap (the probe still sees the transient 32 MiB: `burst`); since wave 3 session 13
  // the flag is set only while the new space is above the cap (with `--heap-growing-percent` alone
  // it stayed at 32 MiB). A hard cap would still
  // need `--max-semi-space-size` at process start.
  it('is back within the cap after a synchronous allocation burst', async () => {
    const r = await probe('burst');
    expect(r.max).toBeLessThanOrEqual(YOUNG_GENERATION_MIB * MIB);
  }, 120_000);

  it('lets V8 grow the new space below the cap, stops it at the cap, and lets it grow again after V8 shrank it', () => {
    const flags: string[] = [];
    let size = 2 * MIB;
    const cap = new YoungGenerationCap({
      capMiB: 8,
      oldGeneration: 'none',
      setFlags: (f) => flags.push(f),
      newSpaceBytes: () => size,
      startFlags: [],
    });
    cap.start();
    expect(flags).toEqual([]); // below the cap: V8's own growth, untouched
    size = 8 * MIB;
    cap.adjust();
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
    cap.adjust();
    expect(flags).toHaveLength(1); // set once, not after every GC
    size = 4 * MIB; // V8's memory reducer shrank it
    cap.adjust();
    expect(flags.at(-1)).toBe('--semi-space-growth-factor=2');
    size = 8 * MIB;
    cap.adjust();
    cap.stop();
    expect(flags.slice(-2)).toEqual([
      '--semi-space-growth-factor=1',
      '--semi-space-growth-factor=2',
    ]);
  });

  // Old space under load (issue 34, wave 3 session 4): V8 let `airlock serve`'s old space reach
  // 34–46 MiB under 8 clients with 19–25 MiB live; V8 grows its limit by at least 8 MiB plus the
  // new space's capacity after each full GC unless it is optimizing for memory, when the step is
  // 2 MiB and the factor at most 1.3 (heap-controller.cc, MinimumAllocationLimitGrowingStep).
  // Since wave 3 session 13 `--heap-growing-percent=10` holds it instead (factor 1.1, the floor
  // kept); read at each limit computation, so setting it after start applies.
  // Against the cap alone (review, wave 3 session 13): against no settings at all the ratio of the
  // largest sizes came out 0.27–0.69 over seven runs of each probe (under load 4–6), too near 0.7,
  // and it also compared the cap. The cap alone: 123–170 MiB and 3–4 full GCs; with the hold
  // 51–71 MiB and 11–14 full GCs. With the hold's setFlags line removed both checks fail.
  it('holds the old space near its live size under a load whose garbage dies old', async () => {
    const [held, capOnly] = [await probe('old'), await probe('old-cap')];
    expect(held.max).toBeLessThan(capOnly.max * 0.7);
    expect(held.majors).toBeGreaterThanOrEqual(2 * capOnly.majors!);
  }, 120_000);

  it('hands V8 back its own heap settings when stopped', () => {
    const flags: string[] = [];
    const cap = new YoungGenerationCap({
      setFlags: (f) => flags.push(f),
      newSpaceBytes: () => 0,
      startFlags: [],
    });
    cap.start();
    cap.stop();
    expect(flags).toEqual([
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
      '--heap-growing-percent=0',
    ]);
  });

  // Wave 3 session 13 (issue 34): --optimize-for-size for the whole run made 1.7× the full GCs
  // (every one a memory-reducing, compacting one) and 1.2–1.4× the scavenges under the relay-floor
  // bench's load. It stays the way V8 shrinks a new space a burst grew past the cap: set while the
  // new space is above the cap, cleared once it is back.
  it('optimizes for size only while the new space is above the cap', () => {
    const flags: string[] = [];
    let size = 2 * MIB;
    const cap = new YoungGenerationCap({
      capMiB: 8,
      setFlags: (f) => flags.push(f),
      newSpaceBytes: () => size,
      startFlags: [],
    });
    cap.start();
    expect(flags).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
    size = 8 * MIB; // at the cap: no more growth, but nothing to shrink
    cap.adjust();
    expect(flags.slice(1)).toEqual(['--semi-space-growth-factor=1']);
    size = 32 * MIB; // a synchronous burst grew it past the cap
    cap.adjust();
    cap.adjust();
    expect(flags.slice(2)).toEqual(['--optimize-for-size']); // once, not after every GC
    size = 8 * MIB; // V8 shrank it back
    cap.adjust();
    expect(flags.slice(3)).toEqual(['--no-optimize-for-size']);
    size = 32 * MIB;
    cap.adjust();
    // Stopped while above the cap: the settings it made are handed back (not the one V8 implied,
    // the worker-after-burst case).
    cap.stop();
    expect(flags.slice(4)).toEqual([
      '--optimize-for-size',
      '--no-optimize-for-size',
      '--heap-growing-percent=0',
      '--semi-space-growth-factor=2',
    ]);
  });

  it('keeps --optimize-for-size on for the whole run when asked (the pre-session-13 setting)', () => {
    const flags: string[] = [];
    let size = 2 * MIB;
    const cap = new YoungGenerationCap({
      oldGeneration: 'optimize-for-size',
      setFlags: (f) => flags.push(f),
      newSpaceBytes: () => size,
      startFlags: [],
    });
    cap.start();
    size = 32 * MIB;
    cap.adjust();
    size = 2 * MIB;
    cap.adjust();
    cap.stop();
    expect(flags).toEqual([
      '--optimize-for-size',
      '--semi-space-growth-factor=1',
      '--semi-space-growth-factor=2',
      '--no-optimize-for-size',
    ]);
  });

  it('leaves the user’s own young- or old-generation settings alone, as V8 reads their names', () => {
    const run = (startFlags: string[]) => {
      const flags: string[] = [];
      let size = 2 * MIB;
      const cap = new YoungGenerationCap({
        capMiB: 8,
        setFlags: (f) => flags.push(f),
        newSpaceBytes: () => size,
        startFlags,
      });
      cap.start();
      cap.start();
      size = 32 * MIB; // a burst past the cap: the growth factor and --optimize-for-size, if held
      cap.adjust();
      cap.stop();
      cap.stop();
      return flags;
    };
    const held = ['--semi-space-growth-factor=1', '--optimize-for-size'];
    const old = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--heap-growing-percent=0'];
    // Nothing of the user's: both held, each set and handed back once.
    expect(run(['--stack-size=2000'])).toEqual([
      old[0],
      ...held,
      '--no-optimize-for-size',
      old[1],
      '--semi-space-growth-factor=2',
    ]);
    // A new-space setting of the user's: the old generation still held, the new space not.
    for (const f of [
      '--max-semi-space-size=64',
      '-max_semi_space_size=64',
      '--min-semi-space-size=4',
      '--semi_space_growth_factor=4',
      '--scavenger-max-new-space-capacity-mb=32',
    ])
      expect(run([f]), f).toEqual(old);
    // The old generation's limit of the user's: the new space still held.
    expect(run(['--heap_growing_percent=50'])).toEqual([
      ...held,
      '--no-optimize-for-size',
      '--semi-space-growth-factor=2',
    ]);
    // --optimize-for-size either way is both (it is how the cap shrinks the new space).
    // So are --lite-mode (which implies it) and --predictable-gc-schedule (which sets both the
    // semi-spaces and the growing percent).
    for (const f of [
      '--optimize-for-size',
      '--no-optimize_for_size',
      '--nooptimize_for_size',
      '--lite-mode',
      '--predictable-gc-schedule',
    ])
      expect(run([f]), f).toEqual([]);
  });

  it('does not optimize for size over a user’s own new space, even when asked to', () => {
    // --optimize-for-size implies --max-semi-space-size=1, which outlasts --no-optimize-for-size.
    const flags: string[] = [];
    const cap = new YoungGenerationCap({
      oldGeneration: 'optimize-for-size',
      setFlags: (f) => flags.push(f),
      newSpaceBytes: () => 32 * MIB,
      startFlags: ['--max-semi-space-size=64'],
    });
    cap.start();
    cap.adjust();
    cap.stop();
    expect(flags).toEqual([]);
  });

  it('hands nothing back when it was never started', () => {
    const flags: string[] = [];
    new YoungGenerationCap({ setFlags: (f) => flags.push(f), startFlags: [] }).stop();
    expect(flags).toEqual([]);
  });
});
