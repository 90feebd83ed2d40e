import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { eventually } from '../../../test-support/eventually.js';
import { endGroup, groupRunning, signalGroup, spawnGroup } from './process-group.js';

const cleanup = cleanupAfterEach();
const linux = process.platform === 'linux';

/** The first line a process writes: what it announces once it is ready. */
function firstLine(out: Readable): Promise<string> {
  const lines = createInterface({ input: out });
  return new Promise((resolve) => lines.once('line', (l) => (lines.close(), resolve(l))));
}

/** The process's (or `pid/task/tid` thread's) state letter in /proc (R, S, Z, …), or '' once it is gone. */
function state(pid: number | string): string {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return '';
  try {
    const s = readFileSync(stat, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ')[0] ?? '';
  } catch {
    return '';
  }
}

/** The state letters of every thread of the process ([] once it is gone). */
function threadStates(pid: number): string[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids.map((tid) => state(`${pid}/task/${tid}`)).filter((s) => s !== '');
}

/** The real python3 executable (not a shim needing PATH), or null where there is none. */
function python3(): string | null {
  const r = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() || null : null;
}

/** True while signal 0 reaches some process of the group — zombies included. */
function groupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.runIf(linux)('process groups (Linux)', () => {
  it('endGroup resolves only once no process of the group runs: a child that ignores SIGTERM is killed and gone', async () => {
    // The leader ends on SIGTERM at once; its child ignores it, so it takes the SIGKILL after the
    // leader's exit, and endGroup waits for the kernel to end it (process-group.ts groupsGone).
    const inner = `process.on('SIGTERM', () => {}); console.log(process.pid); setInterval(() => {}, 1000);`;
    const leader = `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(inner)}], { stdio: 'inherit' }); setInterval(() => {}, 1000);`;
    const child = spawnGroup({ command: process.execPath, args: ['-e', leader], env: {} });
    cleanup.push(async () => void signalGroup(child.pid!, 'SIGKILL'));
    const innerPid = Number(await firstLine(child.stdout));
    expect(groupRunning(child.pid!)).toBe(true);
    expect(await endGroup(child)).toBe(true);
    expect(groupRunning(child.pid!)).toBe(false);
    expect(['', 'Z']).toContain(state(innerPid));
  });

  it('a group whose processes are all zombies does not run', async () => {
    // A zombie stays in its group until its parent reaps it; here the parent's event loop is
    // blocked, so it never does (as a container's init that does not reap).
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn('true', [], { detached: true, stdio: 'ignore' });
console.log(c.pid);
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanup.push(async () => void parent.kill('SIGKILL'));
    const zombie = Number(await firstLine(parent.stdout));
    // No event marks a process turning zombie but its parent's SIGCHLD, which is not ours.
    await eventually(() => expect(state(zombie)).toBe('Z'));
    expect(groupExists(zombie)).toBe(true);
    expect(groupRunning(zombie)).toBe(false);
  });

  it.runIf(python3())(
    'a process whose main thread ended while another runs is running (its /proc state is Z), and is killed',
    async () => {
      // Linux shows a thread-group leader whose own thread has ended (pthread_exit) as "Z" while
      // its other threads still run: the process is alive, ignores SIGTERM here, and must get the
      // SIGKILL. Read as a zombie, it was skipped and outlived its removal.
      const script = `import ctypes, os, signal, threading, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
threading.Thread(target=lambda: [time.sleep(3600) for _ in iter(int, 1)]).start()
print(os.getpid(), flush=True)
ctypes.CDLL(None).pthread_exit(None)`;
      const child = spawnGroup({ command: python3()!, args: ['-c', script], env: {} });
      cleanup.push(async () => void signalGroup(child.pid!, 'SIGKILL'));
      const pid = Number(await firstLine(child.stdout));
      // Nothing announces the main thread's end to another process.
      await eventually(() => expect(state(pid)).toBe('Z'));
      expect(threadStates(pid).filter((s) => s !== 'Z')).not.toEqual([]);
      expect(groupRunning(pid)).toBe(true);
      expect(await endGroup(child, 50)).toBe(true);
      expect(threadStates(pid).filter((s) => s !== 'Z' && s !== 'X')).toEqual([]);
      expect(groupRunning(pid)).toBe(false);
    },
  );
});
