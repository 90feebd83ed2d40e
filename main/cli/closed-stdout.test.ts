import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { airlockBin, repoRoot, requireBuilt } from '../../test-support/cli-process.js';
import { quietWhenReaderCloses } from './closed-stdout.js';
import { tempDir } from '../../test-support/temp-dir.js';

const epipe = () => Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });

/** The built CLI with one of its output pipes closed before it writes: its stderr and exit code. */
async function closedPipe(args: string[], closed: 'stdout' | 'stderr') {
  requireBuilt();
  const child = spawn(process.execPath, [airlockBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, HOME: tempDir('airlock-closed-home-') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The reader is gone before the child has even started Node: its first write fails (EPIPE).
  child[closed].destroy();
  let stderr = '';
  if (closed === 'stdout') child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr };
}

describe('a reader that stops reading (airlock … | head)', () => {
  it('EPIPE on stdout or stderr, however often, is dropped; other errors still surface', () => {
    const [out, err] = [new PassThrough(), new PassThrough()];
    quietWhenReaderCloses([out, err]);
    quietWhenReaderCloses([out, err]); // once per stream
    expect(out.listenerCount('error')).toBe(1);
    for (const s of [out, err]) {
      expect(() => s.emit('error', epipe())).not.toThrow();
      expect(() => s.emit('error', epipe())).not.toThrow();
      const other = Object.assign(new Error('EIO'), { code: 'EIO' });
      expect(() => s.emit('error', other)).toThrow('EIO');
    }
  });

  it('the built CLI: no stack trace, and the exit code is the command’s own', async () => {
    expect(await closedPipe(['help'], 'stdout')).toEqual({ code: 0, stderr: '' });
    // Not running is 1, piped or not (an exit at the first EPIPE made it 0).
    const dir = tempDir('airlock-closed-data-');
    expect(await closedPipe(['status', '--data-dir', dir], 'stdout')).toEqual({
      code: 1,
      stderr: '',
    });
    // An unknown command says so on stderr, exit 2; with stderr closed it was an uncaught EPIPE.
    expect((await closedPipe(['no-such-command'], 'stderr')).code).toBe(2);
  });
});
