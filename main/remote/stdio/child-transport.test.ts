import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChildProcessTransport, STDERR_AFTER_EXIT_MS } from './child-transport.js';
import { childEnv } from './env.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * A server that fails at start says why: its last stderr lines are in the error the user sees,
 * however late they are read after its exit — and a process it left holding stderr open does
 * not hold the report back (the reason the report follows the exit, not the pipes' close).
 */
const LINE = 'config file missing: please set API_KEY';
const unix = process.platform !== 'win32';

afterEach(() => {
  vi.useRealTimers();
});

function fifo(): string {
  const p = join(tempDir('airlock-transport-'), 'go');
  execFileSync('mkfifo', [p]);
  return p;
}

/** Starts `sh -c script` and resolves with the error reported for its exit. */
async function failure(script: string, onExit?: () => void): Promise<Error> {
  const lines: string[] = [];
  const t = new ChildProcessTransport({
    launch: { command: '/bin/sh', args: ['-c', script], env: childEnv({}) },
    onStderr: (line) => lines.push(line),
    stderrTail: () => lines.join(' | '),
    ...(onExit ? { onExit } : {}),
  });
  const reported = new Promise<Error>((resolve) => (t.onerror = resolve));
  await t.start();
  return reported;
}

describe.skipIf(!unix)('ChildProcessTransport: a server that exits at start', () => {
  it('writes a line to stderr and exits 1 at once: the error includes the line', async () => {
    const e = await failure(`echo '${LINE}' >&2; exit 1`);
    expect(e.message).toBe(`the server process exited with code 1: ${LINE}`);
  });

  it('a line read only after the exit was seen is still in the error', async () => {
    // The line is written by a process the server left behind, released only once Airlock has
    // seen the exit; the bound is a fake clock that never moves here.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const go = fifo();
    const e = await failure(`(read x < '${go}'; echo '${LINE}' >&2) & exit 1`, () =>
      writeFileSync(go, 'go\n'),
    );
    expect(e.message).toBe(`the server process exited with code 1: ${LINE}`);
  });

  it('a process left holding stderr open does not hold the report back past the bound', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const go = fifo();
    let exited!: () => void;
    const sawExit = new Promise<void>((r) => (exited = r));
    const reported = failure(`(read x < '${go}') & exit 1`, () => exited());
    await sawExit;
    vi.advanceTimersByTime(STDERR_AFTER_EXIT_MS);
    expect((await reported).message).toBe('the server process exited with code 1');
    writeFileSync(go, 'go\n');
  });
});
