import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 29, item 9: `scripts/up.sh` was silent for 105 s (npm ci) and 61 s (the build). setup.sh
 * now says what it does and about how long, and while a step runs it says so again every
 * AIRLOCK_SETUP_TICK seconds — on stderr; stdout stays what `up.sh` reads (the Node directory).
 *
 * It runs a copy of setup.sh in an empty folder (no node_modules, no dist/: both steps run), and
 * npm is a stand-in that blocks until the test has seen the "still …" line for its step, so the
 * test waits on what setup.sh says, never on a clock.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');

function fakeNpm(dir: string): string {
  const bin = join(dir, 'bin');
  const script = `#!/bin/sh
case "$1" in
  -v) echo 11.19.0 ;;
  ls) exit 1 ;;
  ci) while [ ! -f "${dir}/ci-go" ]; do sleep 0.05; done ;;
  run) while [ ! -f "${dir}/build-go" ]; do sleep 0.05; done ;;
esac
exit 0
`;
  mkdirSync(bin);
  writeFileSync(join(bin, 'npm'), script);
  chmodSync(join(bin, 'npm'), 0o755);
  return bin;
}

describe('scripts/setup.sh says what it is doing while it installs and builds', () => {
  it('names each long step with its usual duration and repeats "still …" while it runs', async () => {
    const dir = tempDir('airlock-setup-progress-');
    const bin = fakeNpm(dir);
    const root = join(dir, 'clone');
    mkdirSync(join(root, 'scripts'), { recursive: true });
    copyFileSync(join(ROOT, 'scripts', 'setup.sh'), join(root, 'scripts', 'setup.sh'));
    // What the `airlock` launcher it writes gets its Node flags from (issue 34).
    mkdirSync(join(root, 'bin'));
    copyFileSync(join(ROOT, 'bin', 'node-flags.js'), join(root, 'bin', 'node-flags.js'));
    const child = spawn('sh', [join(root, 'scripts', 'setup.sh'), '--print-node-bin'], {
      cwd: root,
      env: {
        PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: dir,
        AIRLOCK_NODE_PREFIX: join(dir, 'prefix'),
        AIRLOCK_SETUP_TICK: '1',
        LANG: 'C.UTF-8',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so a failed test leaves no stand-in npm waiting
    });
    const closed = new Promise<number | null>((r) => child.on('close', r));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (/still installing dependencies/.test(stderr)) writeFileSync(join(dir, 'ci-go'), '');
      if (/still building/.test(stderr)) writeFileSync(join(dir, 'build-go'), '');
    });
    let code: number | null;
    try {
      code = await closed;
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    expect(code).toBe(0);
    expect(stderr).toMatch(/setup: installing dependencies \(npm ci; about 2 minutes/);
    expect(stderr).toMatch(/setup: building \(npm run build; about 1 minute/);
    expect(stderr).toMatch(/setup: still installing dependencies \(\d+ s\)/);
    expect(stderr).toMatch(/setup: still building \(\d+ s\)/);
    expect(existsSync(join(dir, 'ci-go')) && existsSync(join(dir, 'build-go'))).toBe(true);
    // stdout: only the Node directory, as up.sh expects.
    expect(stdout).toBe(`${dirname(process.execPath)}\n`);
  }, 60_000);
});
