import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { startRemoteApp } from '../../../test-support/remote-app.js';
import { groupRunning } from './process-group.js';

/**
 * Stopping Airlock ends its local servers side by side (RemoteManager.stop): each one's own
 * sequence (SIGTERM, grace, SIGKILL, wait for its group) is unchanged, but none waits for another,
 * so stopping takes about as long as the slowest server, not the sum. Checked by the order of the
 * signals sent, not by time: every server gets its SIGTERM before any gets SIGKILL.
 */
const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
// Like npx: a launcher that ignores SIGTERM runs the real server on the same stdio, so its group
// needs the SIGKILL after the grace.
const launcher = `require('node:child_process').spawn(process.execPath, [${JSON.stringify(EVERYTHING)}, 'stdio'], { stdio: 'inherit' });
process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`;

const cleanup = cleanupAfterEach();
afterEach(() => vi.restoreAllMocks());

async function serversThatIgnoreSigterm(names: string[]) {
  // Pids are read from outside: no PID namespace (the sandbox's own stop is covered elsewhere).
  const t = await startRemoteApp({ sandbox: { bwrap: undefined } });
  cleanup.push(() => t.stop());
  const pids: number[] = [];
  for (const name of names) {
    const added = await t.app.control.addRemote({
      name,
      stdio: {
        command: process.execPath,
        args: ['-e', launcher],
        sandbox: { allowUnsandboxed: true },
      },
    });
    expect(added.state).toBe('ready');
    pids.push(added.process!.pid!);
  }
  return { t, pids };
}

describe('stopping several local servers', () => {
  it('all get SIGTERM before any gets SIGKILL, and no process of any is left', async () => {
    const { t, pids } = await serversThatIgnoreSigterm(['slow-a', 'slow-b', 'slow-c']);
    const sent: string[] = [];
    const kill = process.kill.bind(process);
    vi.spyOn(process, 'kill').mockImplementation((pid: number, signal?: string | number) => {
      if (pids.includes(-pid) && (signal === 'SIGTERM' || signal === 'SIGKILL'))
        sent.push(`${String(signal)} ${-pid}`);
      return kill(pid, signal);
    });

    await t.stop();

    // Each ignored its SIGTERM: each group got its own SIGKILL after the grace, and the first
    // SIGKILL came only once every server had had its SIGTERM (one by one, the first server's
    // SIGKILL would come before the second server's SIGTERM).
    for (const p of pids) expect(sent).toContain(`SIGKILL ${p}`);
    const firstKill = sent.findIndex((s) => s.startsWith('SIGKILL'));
    expect(new Set(sent.slice(0, firstKill))).toEqual(new Set(pids.map((p) => `SIGTERM ${p}`)));
    for (const p of pids) expect(groupRunning(p)).toBe(false);
  });

  it('one server failing to stop does not keep the others running; the stop still ends its group', async () => {
    const { t, pids } = await serversThatIgnoreSigterm(['broken', 'fine-a', 'fine-b']);
    const remove = t.app.registry.remove.bind(t.app.registry);
    vi.spyOn(t.app.registry, 'remove').mockImplementation((id: string) =>
      id === 'remote:broken' ? Promise.reject(new Error('remove failed')) : remove(id),
    );
    const warn = vi.spyOn(t.app.logger, 'warn');
    // The source the registry failed to stop is stopped all the same: one left running would see
    // the safety net's SIGKILL as a crash and start its server again after Airlock stopped
    // (ServerConnection.fail schedules a restart unless stopped).
    const brokenStop = vi.spyOn(t.app.remotes!.get('broken')!, 'stop');

    await t.stop();

    expect(brokenStop).toHaveBeenCalled();

    expect(warn).toHaveBeenCalledWith('remote server did not stop cleanly', {
      server: 'broken',
      error: 'Error: remove failed',
    });
    // The others stopped; the broken one's group was ended by the safety net (StdioServers.endAll).
    for (const p of pids) expect(groupRunning(p)).toBe(false);
  });
});
