import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteView } from '../../common/contract/index.js';
import { buildDist } from '../../test-support/build.js';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { airlockBin, runCli, startUntilReady, stop } from '../../test-support/cli-process.js';
import { eventually } from '../../test-support/eventually.js';
import { groupRunning, groupsGone, signalGroup } from '../remote/stdio/process-group.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * A second Ctrl+C while `airlock serve` stops (cli/stop-signals.ts) exits at once: the exit hook
 * ends the local servers, and the next `airlock serve` on the same data directory starts (the
 * lock and server.json of the process that exited are taken over) with its settings intact.
 */
const PROBE = fileURLToPath(new URL('./serve-twice-signal.probe.mjs', import.meta.url));
const cleanup = cleanupAfterEach();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tmp(name: string): string {
  const dir = tempDir(`airlock-forced-exit-${name}-`);
  dirs.push(dir);
  return dir;
}
const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
// Like npx: a launcher that runs the real server on the same stdio and ignores SIGTERM and its
// stdin's end, so only a SIGKILL ends it.
const launcher = `require('node:child_process').spawn(process.execPath, [${JSON.stringify(EVERYTHING)}, 'stdio'], { stdio: 'inherit' });
process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`;

describe.runIf(process.platform === 'linux')(
  'airlock serve: a second SIGINT while stopping',
  () => {
    beforeAll(async () => {
      await buildDist();
    }, 150_000);

    it('exits 130 at once, leaves no local server running, and the next start works', async () => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        HOME: tmp('home'),
        AIRLOCK_VAULT: 'file',
        AIRLOCK_VAULT_PASSPHRASE: 'forced exit test passphrase',
        // No bubblewrap on PATH: its --die-with-parent would end the server without the exit hook.
        PATH: dirname(process.execPath),
      };
      const d = ['--data-dir', tmp('data')];
      const added = await runCli(
        [
          'remote',
          'add',
          'stubborn',
          '--allow-unsandboxed',
          ...d,
          '--',
          process.execPath,
          '-e',
          launcher,
        ],
        env,
      );
      expect(added.code, added.stderr).toBe(0);

      const first = await startUntilReady(
        process.execPath,
        [PROBE, 'serve', '--port', '0', ...d],
        env,
      );
      cleanup.push(() => stop(first.child));
      // The server's process starts in the background after the ready line.
      const pid = await eventually(async () => {
        const listed = await runCli(['remote', 'list', '--json', ...d], env);
        const p = (JSON.parse(listed.stdout) as RemoteView[])[0]?.process?.pid;
        expect(p).toBeGreaterThan(0);
        return p!;
      });
      // After the checks below, so that only the exit hook can have ended it for them.
      cleanup.push(async () => void signalGroup(pid, 'SIGKILL'));
      expect(groupRunning(pid)).toBe(true);
      const exited = new Promise<number | null>((resolve) => first.child.once('exit', resolve));
      first.child.kill('SIGUSR2');
      expect(await exited).toBe(130);
      expect(first.stderr()).toContain('airlock: SIGINT again while stopping: exiting now');
      // The exit hook sent SIGKILL before the exit; the kernel ends the process right after.
      expect(await groupsGone([pid])).toBe(true);
      // The exit did not get as far as releasing the lock: the next start takes it over.
      const serverJson = () =>
        (JSON.parse(readFileSync(join(d[1]!, 'server.json'), 'utf8')) as { pid: number }).pid;
      expect(serverJson()).toBe(first.child.pid);

      const second = await startUntilReady(
        process.execPath,
        [airlockBin, 'serve', '--port', '0', ...d],
        env,
      );
      try {
        expect(serverJson()).toBe(second.child.pid);
        const listed = await runCli(['remote', 'list', '--json', ...d], env);
        expect((JSON.parse(listed.stdout) as RemoteView[]).map((v) => v.name)).toEqual([
          'stubborn',
        ]);
      } finally {
        // A clean stop this time (its local server still ignores SIGTERM: the grace, then SIGKILL).
        expect(await stop(second.child)).toBe(0);
      }
    }, 120_000);
  },
);
