import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASYNC_CONTEXT_FRAME, nodeFlags, V8_POOL_SIZE } from '../../bin/node-flags.js';

/**
 * bin/node-flags.js, the one place that decides the Node flags Airlock's launchers start it with
 * (issue 34): --experimental-async-context-frame on Node 22.9+ and 23 (AsyncLocalStorage without
 * promise hooks), nothing on Node 24+ (the default there, nodejs/node#55552) nor on a Node that
 * does not list the flag among the ones it accepts; and two V8 platform threads, not Node's four
 * (the stdio leg's RSS, wave 3 session 19) on Node 22+ that lists --v8-pool-size.
 */
const SCRIPT = fileURLToPath(new URL('../../bin/node-flags.js', import.meta.url));
const accepts = new Set([ASYNC_CONTEXT_FRAME, '--max-old-space-size']);
const rejects = new Set(['--max-old-space-size']);
const pool = new Set([ASYNC_CONTEXT_FRAME, '--v8-pool-size']);
const poolOnly = new Set(['--v8-pool-size']);

function oldNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    const v = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout;
    const [major = 0, minor = 0] = (v ?? '').trim().split('.').map(Number);
    if (major > 0 && (major < 22 || (major === 22 && minor < 9))) return candidate;
  }
  return undefined;
}

describe('nodeFlags', () => {
  it.each([
    ['20.19.0', accepts, []],
    ['22.6.0', accepts, []],
    // 22.7 and 22.8 accept the flag, but AsyncLocalStorage.run() throws under it (nodejs/node#54503).
    ['22.7.0', accepts, []],
    ['22.8.0', accepts, []],
    ['22.9.0', accepts, [ASYNC_CONTEXT_FRAME]],
    ['22.12.0', accepts, [ASYNC_CONTEXT_FRAME]],
    ['22.23.3', accepts, [ASYNC_CONTEXT_FRAME]],
    ['22.23.3', rejects, []],
    ['23.0.0', accepts, [ASYNC_CONTEXT_FRAME]],
    ['23.11.1', rejects, []],
    ['24.0.0', accepts, []],
    ['25.2.1', accepts, []],
    ['v22.12.0', accepts, []],
    ['', accepts, []],
    ['22.12.0', pool, [ASYNC_CONTEXT_FRAME, V8_POOL_SIZE]],
    ['22.12.0', poolOnly, [V8_POOL_SIZE]],
    ['24.0.0', pool, [V8_POOL_SIZE]],
    ['20.19.0', pool, []],
    ['', pool, []],
  ] as const)('Node %s → %j', (version, allowed, flags) => {
    expect(nodeFlags(version, allowed)).toEqual(flags);
  });

  it('passes only flags the Node accepts, the async-context flag exactly on 22.9 ≤ version < 24', () => {
    fc.assert(
      fc.property(
        // Biased to the boundaries (22.9, 24), which uniform draws from 0-40 seldom hit.
        fc.oneof(fc.integer({ min: 21, max: 25 }), fc.nat(40)),
        fc.oneof(fc.integer({ min: 6, max: 10 }), fc.nat(40)),
        fc.nat(40),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.string()),
        (major, minor, patch, has, hasPool, others) => {
          const allowed = new Set(others);
          if (has) allowed.add(ASYNC_CONTEXT_FRAME);
          else allowed.delete(ASYNC_CONTEXT_FRAME);
          if (hasPool) allowed.add('--v8-pool-size');
          else allowed.delete('--v8-pool-size');
          const flags = nodeFlags(`${major}.${minor}.${patch}`, allowed);
          for (const f of flags) expect(allowed.has(f.split('=')[0] ?? '')).toBe(true);
          const wanted = has && ((major === 22 && minor >= 9) || major === 23);
          expect(flags).toEqual([
            ...(wanted ? [ASYNC_CONTEXT_FRAME] : []),
            ...(hasPool && major >= 22 ? [V8_POOL_SIZE] : []),
          ]);
        },
      ),
    );
  });

  it('names flags this Node starts with, and prints them for the shell launchers', () => {
    const flags = nodeFlags();
    expect(flags).toContain(V8_POOL_SIZE);
    for (const f of flags)
      expect(process.allowedNodeEnvironmentFlags.has(f.split('=')[0] ?? '')).toBe(true);
    expect(spawnSync(process.execPath, [...flags, '-e', '0']).status).toBe(0);
    expect(execFileSync(process.execPath, [SCRIPT], { encoding: 'utf8' })).toBe(
      `${flags.join(' ')}\n`,
    );
  });

  // Debian's and Ubuntu's Node: setup.sh asks only the Node it picked, but the file must still parse.
  const old = oldNode();
  it.skipIf(!old)('parses and prints nothing on a Node older than 22.9', () => {
    expect(execFileSync(old!, [SCRIPT], { encoding: 'utf8' })).toBe('\n');
  });
});
