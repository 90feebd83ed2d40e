import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASYNC_CONTEXT_FRAME, nodeFlags } from '../../bin/node-flags.js';

/**
 * bin/node-flags.js, the one place that decides the Node flags Airlock's launchers start it with
 * (issue 34): --experimental-async-context-frame on Node 22.9+ and 23 (AsyncLocalStorage without
 * promise hooks), nothing on Node 24+ (the default there, nodejs/node#55552) nor on a Node that
 * does not list the flag among the ones it accepts.
 */
const SCRIPT = fileURLToPath(new URL('../../bin/node-flags.js', import.meta.url));
const accepts = new Set([ASYNC_CONTEXT_FRAME, '--max-old-space-size']);
const rejects = new Set(['--max-old-space-size']);

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
  ] as const)('Node %s → %j', (version, allowed, flags) => {
    expect(nodeFlags(version, allowed)).toEqual(flags);
  });

  it('passes only flags the Node accepts, and the flag exactly on 22.9 ≤ version < 24', () => {
    fc.assert(
      fc.property(
        // Biased to the boundaries (22.9, 24), which uniform draws from 0-40 seldom hit.
        fc.oneof(fc.integer({ min: 21, max: 25 }), fc.nat(40)),
        fc.oneof(fc.integer({ min: 6, max: 10 }), fc.nat(40)),
        fc.nat(40),
        fc.boolean(),
        fc.array(fc.string()),
        (major, minor, patch, has, others) => {
          const allowed = new Set(others);
          if (has) allowed.add(ASYNC_CONTEXT_FRAME);
          else allowed.delete(ASYNC_CONTEXT_FRAME);
          const flags = nodeFlags(`${major}.${minor}.${patch}`, allowed);
          for (const f of flags) expect(allowed.has(f)).toBe(true);
          const wanted = has && ((major === 22 && minor >= 9) || major === 23);
          expect(flags).toEqual(wanted ? [ASYNC_CONTEXT_FRAME] : []);
        },
      ),
    );
  });

  it('names flags this Node starts with, and prints them for the shell launchers', () => {
    const flags = nodeFlags();
    for (const f of flags) expect(process.allowedNodeEnvironmentFlags.has(f)).toBe(true);
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
