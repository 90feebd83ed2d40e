import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { endAllNow, groupRunning, groupsGone, signalGroup, spawnGroup } from './process-group.js';

/**
 * The process 'exit' hook (`endAllNow`) is what ends local servers when Airlock exits without
 * finishing App.stop: a second Ctrl+C to `airlock serve` (cli/stop-signals.ts), or the desktop
 * app's quit once its 10 s cap is reached (shell/quit.ts stopWithin).
 */
const cleanup = cleanupAfterEach();

function firstLine(out: Readable): Promise<string> {
  const lines = createInterface({ input: out });
  return new Promise((resolve) => lines.once('line', (l) => (lines.close(), resolve(l))));
}

describe.runIf(process.platform !== 'win32')('the exit hook', () => {
  it('a group whose leader ended on SIGTERM while its child ignores it still gets SIGKILL', async () => {
    // As `sh -c server` or a launcher: the stop's SIGTERM ends the leader at once, the server
    // itself takes its time (here: ignores it). A hard exit during the grace must still reach it.
    const inner = `process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);`;
    const leader = `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(inner)}], { stdio: 'inherit' }); setInterval(() => {}, 1000);`;
    const child = spawnGroup({ command: process.execPath, args: ['-e', leader], env: {} });
    const pid = child.pid!;
    cleanup.push(async () => void signalGroup(pid, 'SIGKILL'));
    expect(await firstLine(child.stdout)).toBe('ready');
    const leaderExited = new Promise((resolve) => child.once('exit', resolve));
    signalGroup(pid, 'SIGTERM');
    await leaderExited;
    expect(groupRunning(pid)).toBe(true);

    endAllNow();

    // groupsGone's bound is only its safety net: SIGKILL ends the process in milliseconds.
    expect(await groupsGone([pid])).toBe(true);
  });
});
