import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FREEZES_FLAGS, flagName, nodeOptionsArgs, startFlags, startedWith } from './v8-flags.js';

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
      ['', ''], // the control: with no flag the same function is optimized
      ['--noopt', '--no-opt'],
      ['-noopt', '--no-opt'],
      ['--no_opt', '--no-opt'],
      ['--noturbofan', '--no-turbofan'],
      ['--no_turbofan', '--no-turbofan'],
    ];
    for (const [spelling, name] of spellings) {
      const r = spawnSync(
        process.execPath,
        ['--allow-natives-syntax', '--no-maglev', ...(spelling ? [spelling] : []), '-e', script],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      );
      expect(r.status, r.stderr).toBe(0);
      if (spelling) expect(Number(r.stdout), spelling).toBe(-1);
      else expect(Number(r.stdout)).toBeGreaterThan(0);
      expect(flagName(spelling)).toBe(name);
    }
    // The positive flag stays itself; any name after a leading "no" is read as its negation.
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
    expect(startFlags([], '')).toEqual([]);
  });

  it('split NODE_OPTIONS as Node does, quotes and escapes included', () => {
    // The thing that acts is Node: a child started with `--title=<value>` in NODE_OPTIONS reports
    // the title it took (process.title), and nodeOptionsArgs must have read the same value.
    // Values mix spaces, quotes and backslashes; each is written as a user would quote it.
    const quote = (v: string) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`;
    const nodeTitle = (nodeOptions: string) => {
      const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(process.title)'], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: nodeOptions },
      });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    const check = (value: string, around: [string, string]) => {
      const nodeOptions = `${around[0]} --title=${quote(value)} ${around[1]}`;
      const args = nodeOptionsArgs(nodeOptions);
      expect(args.find((a) => a.startsWith('--title='))).toBe(`--title=${value}`);
      expect(nodeTitle(nodeOptions), nodeOptions).toBe(value);
    };
    const value = fc.stringMatching(/^[a-c \\"']{1,12}$/);
    const around = fc.tuple(
      fc.constantFrom('', '--no-deprecation', '"--max-old-space-size=900"'),
      fc.constantFrom('', '  --jitless', '--stack-trace-limit=20'),
    );
    // Tuned on seed 1; a held-out seed (2) that was never looked at before it passed.
    fc.assert(
      fc.property(value, around, (v, a) => check(v, a)),
      { seed: 1, numRuns: 15 },
    );
    fc.assert(
      fc.property(value, around, (v, a) => check(v, a)),
      { seed: 2, numRuns: 15 },
    );
    expect(nodeOptionsArgs('"--max-semi-space-size=2" --jitless')).toEqual([
      '--max-semi-space-size=2',
      '--jitless',
    ]);
  });
});
