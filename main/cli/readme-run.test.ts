import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  initializeStatus,
  requireBuilt,
  runCli,
  startUntilReady,
  stop,
} from '../../test-support/cli-process.js';
import { nodeOptionsOf } from '../../test-support/node-args.js';
import { nodeFlags } from '../../bin/node-flags.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 19, item 1 (must hold in CI): the README's "run" command — `sh
 * scripts/up.sh` — in a clean, container-like environment: a fresh HOME, no
 * D-Bus session, the default data directory, port 0. It prints exactly one
 * line on stdout (the ready line); an agent token made then still works after
 * a restart (the file vault kept it). AIRLOCK_SETUP_NO_INSTALL keeps setup.sh
 * from touching node_modules or dist/ (the suite shares them; npm test builds
 * first), so this checks the path, not a download.
 */
describe('README: sh scripts/up.sh on a fresh machine', () => {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const c of children.splice(0)) await stop(c);
  });

  it('prints only the ready line, uses the file vault, and keeps agent tokens across a restart', async () => {
    requireBuilt();
    const home = tempDir('airlock-fresh-home-');
    const env: NodeJS.ProcessEnv = {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: home,
      AIRLOCK_PORT: '0',
      AIRLOCK_SETUP_NO_INSTALL: '1',
      LANG: 'C.UTF-8',
    };
    const up = async () => {
      const started = await startUntilReady('sh', ['scripts/up.sh'], env);
      children.push(started.child);
      return started;
    };

    const first = await up();
    expect(first.ready).toMatchObject({
      event: 'ready',
      dataDir: join(home, '.config', 'airlock'),
    });
    expect(first.ready.port).toBeGreaterThan(0);
    // Started with the Node flags bin/node-flags.js names for this Node (issue 34), as every
    // launcher of Airlock's starts it; the process is serve itself (up.sh execs it).
    expect(nodeOptionsOf(first.ready.pid, '/bin/airlock.js')).toEqual(nodeFlags());
    // Said once, in one short line (issue 29, item 9: it came twice, the second time as 1,000
    // characters of JSON with the D-Bus error).
    const notices = first
      .stderr()
      .split('\n')
      .filter((l) => l.includes('encrypted file vault'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.length).toBeLessThan(300);
    expect(notices[0]).not.toMatch(/dbus|d-bus|secret service/i);

    const added = await runCli(['agent', 'add', 'fresh', '--json'], env);
    expect(added.code).toBe(0);
    const { token } = JSON.parse(added.stdout) as { token: string };
    expect(await initializeStatus(first.ready.mcpUrl, token)).toBe(200);

    expect(await stop(first.child)).toBe(0);
    expect(first.stdoutLines).toHaveLength(1);

    const second = await up();
    expect(await initializeStatus(second.ready.mcpUrl, token)).toBe(200);
    expect(await initializeStatus(second.ready.mcpUrl, 'alk_not-a-real-token')).toBe(401);
    const list = await runCli(['agent', 'list', '--json'], env);
    expect(JSON.parse(list.stdout)).toMatchObject([{ name: 'fresh', hasToken: true }]);

    // Not in any file of the data directory.
    const dataDir = first.ready.dataDir;
    for (const entry of readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      expect(readFileSync(join(entry.parentPath, entry.name)).toString('latin1')).not.toContain(
        token,
      );
    }
  }, 60_000);
});
