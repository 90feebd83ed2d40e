import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { airlockBin, repoRoot, requireBuilt } from '../../test-support/cli-process.js';
import { quietWhenStdoutCloses } from './closed-stdout.js';

const epipe = () => Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });

describe('a reader that stops reading stdout (airlock … | head)', () => {
  it('a command stops quietly; serve keeps running; other errors still surface', () => {
    const exits: number[] = [];
    const cmd = new PassThrough();
    quietWhenStdoutCloses(false, cmd, (c) => exits.push(c));
    cmd.emit('error', epipe());
    expect(exits).toEqual([0]);

    const serve = new PassThrough();
    quietWhenStdoutCloses(true, serve, (c) => exits.push(c));
    expect(() => serve.emit('error', epipe())).not.toThrow();
    expect(exits).toEqual([0]);
    const other = Object.assign(new Error('EIO'), { code: 'EIO' });
    expect(() => serve.emit('error', other)).toThrow('EIO');
  });

  it('the built CLI, its stdout closed before it writes: no stack trace, exit 0', async () => {
    requireBuilt();
    const child = spawn(process.execPath, [airlockBin, 'help'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader is gone before the child has even started Node: its first write fails (EPIPE).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
