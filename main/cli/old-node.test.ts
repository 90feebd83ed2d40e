import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A newcomer's machine often has an older Node first in PATH (Debian's 18, the system's 20).
 * `airlock` run with it must say which Node it needs and how to get it, not fail with a
 * TypeError from deep inside the CLI (bin/airlock.js checks before loading anything).
 */
const BIN = fileURLToPath(new URL('../../bin/airlock.js', import.meta.url));

function onPath(): string[] {
  try {
    return execFileSync('which', ['-a', 'node'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function oldNode(): string | undefined {
  for (const candidate of [...onPath(), '/usr/bin/node', '/usr/local/bin/node']) {
    const v = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout;
    const [major = 0, minor = 0] = (v ?? '').trim().split('.').map(Number);
    if (major > 0 && (major < 22 || (major === 22 && minor < 12))) return candidate;
  }
  return undefined;
}

describe('bin/airlock.js on an old Node', () => {
  const node = oldNode();
  it.skipIf(!node)('says it needs Node 22.12 and points at setup.sh', () => {
    const r = spawnSync(node!, [BIN, 'status'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^airlock: needs Node 22\.12 or newer, and this is Node \d+\.\d+\.\d+/,
    );
    expect(r.stderr).toContain('sh scripts/setup.sh');
    expect(r.stderr).not.toMatch(/TypeError|at file:/);
  });
  if (!node) console.log('skipped: no Node older than 22.12 on this machine to run airlock with');
});
