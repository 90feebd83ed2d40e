import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FREEZES_FLAGS, flagName, startFlags, startedWith } from './v8-flags.js';

describe('flagName, as V8 reads a flag’s name', () => {
  it('takes one or two dashes and `_` for `-`, and cuts the value', () => {
    expect(flagName('--a-b=1')).toBe('--a-b');
    expect(flagName('-a_b=1')).toBe('--a-b');
    expect(flagName('--no_opt')).toBe('--no-opt');
    expect(flagName('serve')).toBe('');
    expect(flagName('')).toBe('');
  });

  it('names a flag as V8 does: what V8 applies under each spelling is what flagName reads', () => {
    // The thing that acts: a child Node started with each spelling reports the count V8 took.
    const script = `
      const s = (fn) => { for (let i = 1; i <= 9000; i++) { fn({ a: i }); if (%GetOptimizationStatus(fn) & (16|256|512|1024)) return i; } return -1; };
      process.stdout.write(String(s(new Function('o', 'return o.a + 1;'))));`;
    for (const spelling of ['--invocation_count-for_turbofan', '-invocation-count-for-turbofan']) {
      const r = spawnSync(
        process.execPath,
        ['--allow-natives-syntax', '--no-maglev', `${spelling}=5000`, '-e', script],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(Number(r.stdout), spelling).toBeGreaterThan(4000); // V8 took 5,000 for this spelling
      expect(flagName(spelling)).toBe('--invocation-count-for-turbofan');
    }
  });

  it('reads V8’s negation with or without a dash after its "no" as V8 applies it', () => {
    // The thing that acts: a child Node started with each spelling never optimizes a hot
    // function, so V8 took each as turning its optimizing compiler off.
    const script = `
      const s = (fn) => { for (let i = 1; i <= 9000; i++) { fn({ a: i }); if (%GetOptimizationStatus(fn) & (16|256|512|1024)) return i; } return -1; };
      process.stdout.write(String(s(new Function('o', 'return o.a + 1;'))));`;
    const spellings: [string, string][] = [
      ['--noopt', '--no-opt'],
      ['-noopt', '--no-opt'],
      ['--no_opt', '--no-opt'],
      ['--noturbofan', '--no-turbofan'],
      ['--no_turbofan', '--no-turbofan'],
    ];
    for (const [spelling, name] of spellings) {
      const r = spawnSync(
        process.execPath,
        ['--allow-natives-syntax', '--no-maglev', spelling, '-e', script],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(Number(r.stdout), spelling).toBe(-1);
      expect(flagName(spelling)).toBe(name);
    }
    // A name that only begins like a flag V8 knows stays itself.
    expect(flagName('--opt')).toBe('--opt');
    expect(flagName('--nox=1')).toBe('--no-x');
  });

  it('reads --freeze-flags-after-init under each spelling exactly when V8 froze its flags', () => {
    // The one misreading that matters: a frozen V8 ends serve at its first run-time flag. The
    // thing that acts: a child Node started with each spelling sets a flag at run time, and dies
    // ("Check failed: !IsFrozen()") exactly when startedWith says the flags are frozen. The
    // negations (`--no-`, V8's `--no` without a dash) must read as not frozen.
    const spellings = [
      '--freeze-flags-after-init',
      '--freeze_flags_after_init',
      '-freeze-flags_after-init',
      '--no-freeze-flags-after-init',
      '--no_freeze_flags_after_init',
      '--nofreeze-flags-after-init',
    ];
    for (const spelling of spellings) {
      const r = spawnSync(
        process.execPath,
        [
          spelling,
          '-e',
          'require("node:v8").setFlagsFromString("--invocation-count-for-turbofan=200")',
        ],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      );
      const frozen = /IsFrozen/.test(r.stderr);
      expect(frozen || r.status === 0, `${spelling}: ${r.stderr}`).toBe(true);
      expect(startedWith([FREEZES_FLAGS], [spelling]), spelling).toBe(frozen);
    }
  });
});

describe('startFlags and startedWith', () => {
  it('read the command line and NODE_OPTIONS', () => {
    const flags = startFlags(['--no-opt'], '  --jitless   --max-old-space-size=900 ');
    expect(flags).toEqual(['--no-opt', '--jitless', '--max-old-space-size=900']);
    expect(startedWith(['--jitless'], flags)).toBe(true);
    expect(startedWith(['--no-turbofan'], flags)).toBe(false);
    expect(startFlags([], undefined)).toEqual([]);
  });
});
