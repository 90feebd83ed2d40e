import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { isRequested } from '../../../test-support/core-events.js';
import { eventually } from '../../../test-support/eventually.js';
import type { RemoteView } from '../../../common/contract/index.js';
import {
  agentClient,
  nextEvent,
  startRemoteApp,
  until,
  type RemoteTestApp,
} from '../../../test-support/remote-app.js';
import { groupRunning } from './process-group.js';
import { envKey } from './stdio-config.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * Issue 15, "Must hold": local stdio servers (server-everything in stdio
 * mode, server-filesystem on a temp dir) behind a real Airlock — listed,
 * called read-only and with approval, restarted after a crash, and no
 * process left after removal or after Airlock stops (checked by pid).
 */
const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = join(
  require.resolve('@modelcontextprotocol/server-filesystem/package.json'),
  '../dist/index.js',
);

const cleanup = cleanupAfterEach();
async function airlock(o: Parameters<typeof startRemoteApp>[0] = {}): Promise<RemoteTestApp> {
  const t = await startRemoteApp(o);
  cleanup.push(() => t.stop());
  return t;
}
async function agent(t: RemoteTestApp): Promise<Client> {
  const c = await agentClient(t.started.mcpUrl, t.token);
  cleanup.push(() => c.close());
  return c;
}
const text = (r: { content?: unknown }) =>
  ((r.content as { type: string; text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');
/** A local server that starts, says "warming up" on stderr, and never answers; its pid goes to pidFile. */
function silentServer() {
  const pidFile = join(tempDir('airlock-silent-'), 'pid');
  const code = `require('node:fs').appendFileSync(${JSON.stringify(pidFile)}, process.pid + '\\n'); console.error('warming up'); setInterval(() => {}, 1000);`;
  // Its pids are read from outside, so it runs without a PID namespace (the test's app has no
  // bubblewrap, and this server is allowed to run unsandboxed).
  return {
    pidFile,
    stdio: { command: process.execPath, args: ['-e', code], sandbox: { allowUnsandboxed: true } },
  };
}
const view = async (t: RemoteTestApp, name: string): Promise<RemoteView | undefined> =>
  (await t.app.control.listRemotes()).find((r) => r.name === name);
/** A process that exists and is not a zombie waiting to be reaped (containers may lack a reaping init). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
}

describe('local stdio servers', () => {
  it('server-everything over stdio: listed, read-only call at once, the other after approval; removed → process gone', async () => {
    const t = await airlock();
    const added = await t.app.control.addRemote({
      name: 'ev',
      stdio: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    });
    expect(added).toMatchObject({
      name: 'ev',
      url: '',
      state: 'ready',
      transport: 'stdio',
      stdio: { command: process.execPath, args: [EVERYTHING, 'stdio'], secretEnvNames: [] },
      process: { starts: 1 },
    });
    const pid = added.process!.pid!;
    expect(groupRunning(pid)).toBe(true);

    const c = await agent(t);
    const names = (await c.listTools()).tools.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['ev__echo', 'ev__toggle-simulated-logging']));
    const echo = await c.callTool({ name: 'ev__echo', arguments: { message: 'over stdio' } });
    expect(text(echo)).toMatch(/Echo: over stdio/);
    expect(await t.app.control.listPending()).toEqual([]);

    const requested = nextEvent(t.app, isRequested);
    const call = c.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
    const { approval } = await requested;
    expect(approval.tool).toBe('ev__toggle-simulated-logging');
    await t.app.control.decide(approval.id, { kind: 'allow_once' });
    expect(text(await call)).toMatch(/Started simulated, random-leveled logging/);

    await t.app.control.removeRemote('ev');
    expect(groupRunning(pid)).toBe(false);
    expect((await c.listTools()).tools.map((x) => x.name)).not.toContain('ev__echo');
  });

  it('server-filesystem on a temp dir: read-only call, write with approval; killed → restarted; Airlock stopped → no process', async () => {
    const dir = realpathSync(tempDir('airlock-fs-'));
    writeFileSync(join(dir, 'hello.txt'), 'hello from disk');
    const t = await airlock();
    const added = await t.app.control.addRemote({
      name: 'fs',
      // Issue 35: its folder is granted read-write (the sandbox would hide it otherwise).
      stdio: { command: process.execPath, args: [FILESYSTEM, dir], sandbox: { write: [dir] } },
    });
    expect(added).toMatchObject({ state: 'ready', transport: 'stdio' });
    const c = await agent(t);
    const read = await c.callTool({
      name: 'fs__read_text_file',
      arguments: { path: join(dir, 'hello.txt') },
    });
    expect(text(read)).toContain('hello from disk');

    const requested = nextEvent(t.app, isRequested);
    const write = c.callTool({
      name: 'fs__write_file',
      arguments: { path: join(dir, 'new.txt'), content: 'approved' },
    });
    const { approval } = await requested;
    expect(existsSync(join(dir, 'new.txt'))).toBe(false);
    await t.app.control.decide(approval.id, { kind: 'allow_once' });
    expect((await write).isError).toBeFalsy();
    expect(readFileSync(join(dir, 'new.txt'), 'utf8')).toBe('approved');

    // Killed from outside: Airlock notices, starts a new process, the tools come back.
    const first = added.process!.pid!;
    process.kill(first, 'SIGKILL');
    await until(t.app, async () => {
      const v = await view(t, 'fs');
      return v?.state === 'ready' && v.process?.pid !== undefined && v.process.pid !== first;
    });
    const again = (await view(t, 'fs'))!;
    expect(again.process).toMatchObject({ starts: 2, lastExit: 'killed by SIGKILL' });
    expect(
      text(
        await c.callTool({ name: 'fs__read_text_file', arguments: { path: join(dir, 'new.txt') } }),
      ),
    ).toContain('approved');

    await t.stop();
    expect(groupRunning(again.process!.pid!)).toBe(false);
    expect(groupRunning(first)).toBe(false);
  });

  it('a launcher and the server it starts (npx-style) end together on removal', async () => {
    const dir = tempDir('airlock-launcher-');
    const pidFile = join(dir, 'server.pid');
    // Like npx: the process Airlock starts runs the real server as its own child on the same stdio.
    const launcher = `const c = require('node:child_process').spawn(process.execPath, [${JSON.stringify(EVERYTHING)}, 'stdio'], { stdio: 'inherit' });
require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));
process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`; // ignores SIGTERM: the group still ends (SIGKILL)
    // The inner pid is checked from outside: run without the sandbox's PID namespace (the sandbox's
    // own removal is covered in sandbox/sandbox.security.test.ts).
    const t = await airlock({ sandbox: { bwrap: undefined } });
    const added = await t.app.control.addRemote({
      name: 'launched',
      stdio: {
        command: process.execPath,
        args: ['-e', launcher],
        sandbox: { allowUnsandboxed: true },
      },
    });
    expect(added.state).toBe('ready');
    const inner = Number(readFileSync(pidFile, 'utf8'));
    expect(inner).not.toBe(added.process!.pid);
    expect(running(inner)).toBe(true);
    await t.app.control.removeRemote('launched');
    // The inner server is in the launcher's process group: the group being gone covers it.
    expect(groupRunning(added.process!.pid!)).toBe(false);
    expect(running(inner)).toBe(false);
  });

  it('a server that cannot start says why in the list; environment is explicit and secrets stay in the vault', async () => {
    const t = await airlock();
    const missing = await t.app.control.addRemote({
      name: 'missing',
      stdio: { command: 'airlock-no-such-command-xyz', args: [] },
    });
    expect(missing).toMatchObject({ state: 'error' });
    expect(missing.detail).toMatch(/could not start: "airlock-no-such-command-xyz" was not found/);

    const crash = await t.app.control.addRemote({
      name: 'crash',
      stdio: {
        command: process.execPath,
        args: ['-e', 'console.error("config file missing: please set API_KEY"); process.exit(3)'],
      },
    });
    expect(crash.state).toBe('error');
    expect(crash.detail).toMatch(/exited with code 3.*config file missing/);

    process.env.AIRLOCK_TEST_NOT_INHERITED = 'leak-me';
    try {
      const secret = 'sk-secret-value-123456';
      const dumper = `const fs=require('node:fs');fs.writeFileSync(process.env.OUT, JSON.stringify(process.env));console.error('token is ' + process.env.API_KEY);process.exit(1)`;
      const outDir = tempDir('airlock-env-');
      const out = join(outDir, 'env.json');
      const v = await t.app.control.addRemote({
        name: 'envcheck',
        stdio: {
          command: process.execPath,
          args: ['-e', dumper],
          env: { OUT: out },
          secretEnv: { API_KEY: secret },
          sandbox: { write: [outDir] },
        },
      });
      const env = JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>;
      expect(env.API_KEY).toBe(secret);
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.AIRLOCK_TEST_NOT_INHERITED).toBeUndefined();
      // The secret is in the vault, not in settings, views or status text.
      expect(JSON.parse((await t.vault.get(envKey('envcheck')))!)).toEqual({ API_KEY: secret });
      const settingsText = readFileSync(join(t.dataDir, 'settings.json'), 'utf8');
      expect(settingsText).not.toContain(secret);
      expect(settingsText).toContain('API_KEY');
      expect(JSON.stringify(v)).not.toContain(secret);
      expect(v.detail).toMatch(/token is \[redacted\]/);
      // Its stderr reached the log, with the secret replaced.
      const logs = readdirSync(join(t.dataDir, 'logs'))
        .map((f) => readFileSync(join(t.dataDir, 'logs', f), 'utf8'))
        .join('\n');
      expect(logs).toContain('local server stderr');
      expect(logs).not.toContain(secret);
      expect(v.stdio).toMatchObject({ env: { OUT: out }, secretEnvNames: ['API_KEY'] });
      await t.app.control.removeRemote('envcheck');
      expect(await t.vault.get(envKey('envcheck'))).toBeNull();
    } finally {
      delete process.env.AIRLOCK_TEST_NOT_INHERITED;
    }
  });

  it('hot reload: an edit restarts it with the new launch, disabling ends it, enabling starts it again', async () => {
    const t = await airlock();
    const v1 = await t.app.control.addRemote({
      name: 'hot',
      stdio: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { A: '1' } },
    });
    const pid1 = v1.process!.pid!;
    const v2 = await t.app.control.updateRemote('hot', {
      stdio: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { A: '2' } },
    });
    expect(v2).toMatchObject({ state: 'ready', stdio: { env: { A: '2' } } });
    expect(v2.process!.pid).not.toBe(pid1);
    // The old process is retired once the new one serves; no core event marks its exit, so poll.
    await eventually(() => expect(groupRunning(pid1)).toBe(false));
    await expect(
      t.app.control.updateRemote('hot', { url: 'http://127.0.0.1:1/mcp' }),
    ).rejects.toThrow(/is a local server/);
    const off = await t.app.control.updateRemote('hot', { enabled: false });
    expect(off.state).toBe('disabled');
    expect(groupRunning(v2.process!.pid!)).toBe(false);
    const on = await t.app.control.updateRemote('hot', { enabled: true });
    expect(on).toMatchObject({ state: 'ready', process: { starts: 3 } });
    await t.app.control.removeRemote('hot');
    expect(groupRunning(on.process!.pid!)).toBe(false);
  });

  it('a server that never answers: bounded start-up wait, its process ended', async () => {
    // The start-up bound (30 s by default, 3 s here) on a fake clock, run out by the test once the
    // server has started and said "warming up" (Airlock logged the line): on the real clock, a
    // process slow to start on a loaded machine met the bound with no output and no pid file
    // (issue 29 item 2). Only the timers are fake: the process, its pipes and the log are real.
    // Its pids are checked from outside: no PID namespace (see the launcher test above).
    const t = await airlock({ timings: { connectMs: 3000 }, sandbox: { bwrap: undefined } });
    const { pidFile, stdio } = silentServer();
    const log = join(t.dataDir, 'logs', 'airlock.log');
    const spoke = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .some((l) => l.includes('"local server stderr"') && l.includes('warming up'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let adding: Promise<RemoteView>;
    try {
      adding = t.app.control.addRemote({ name: 'silent', stdio });
      await eventually(() => expect(spoke()).toBe(true));
      vi.advanceTimersByTime(3000);
    } finally {
      // What runs after the bound (ending the process, a retry's backoff) runs on real timers.
      vi.useRealTimers();
    }
    const hung = await adding;
    expect(hung.state).toBe('error');
    expect(hung.detail).toBe('started but did not answer within 3 s; its last output: warming up');
    // The first attempt's process (a retry may have started another since) was ended at the bound.
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    expect(groupRunning(pid)).toBe(false);
  });

  it('a server still starting holds up no other, and its process ends at once when removed', async () => {
    // The start-up bound is 10 min (FAST_REMOTE): "silent" is still starting throughout.
    const t = await airlock({ sandbox: { bwrap: undefined } });
    const { pidFile, stdio } = silentServer();
    const adding = t.app.control.addRemote({ name: 'silent', stdio }).catch(() => undefined);
    const ok = await t.app.control.addRemote({
      name: 'ev',
      stdio: {
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        sandbox: { allowUnsandboxed: true },
      },
    });
    expect(ok.state).toBe('ready');
    expect((await view(t, 'silent'))?.state).toBe('loading');
    const pids = () =>
      existsSync(pidFile)
        ? readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number)
        : [];
    await eventually(() => expect(pids()).toHaveLength(1));
    await t.app.control.removeRemote('silent');
    await adding;
    for (const p of pids()) expect(groupRunning(p)).toBe(false);
  });

  it('a server still starting that ignores SIGTERM and its stdin’s end is told, then killed, when removed', async () => {
    // Still starting (it never answers `initialize`): the removal ends it as any stop does — stdin
    // closed, SIGTERM, the grace, SIGKILL (process-group.ts endGroup) — and resolves once it is gone.
    const t = await airlock({ sandbox: { bwrap: undefined } });
    const dir = tempDir('airlock-stubborn-');
    const record = join(dir, 'record');
    const f = JSON.stringify(record);
    const code = `const fs = require('node:fs');
process.on('SIGTERM', () => fs.appendFileSync(${f}, 'SIGTERM\\n'));
process.stdin.on('end', () => fs.appendFileSync(${f}, 'stdin-end\\n'));
process.stdin.resume();
fs.appendFileSync(${f}, 'started ' + process.pid + '\\n');
setInterval(() => {}, 1000);`;
    const adding = t.app.control
      .addRemote({
        name: 'stubborn',
        stdio: {
          command: process.execPath,
          args: ['-e', code],
          sandbox: { allowUnsandboxed: true },
        },
      })
      .catch(() => undefined);
    const lines = () =>
      existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : [];
    await eventually(() => expect(lines()[0]).toMatch(/^started \d+$/));
    const pid = Number(lines()[0]!.split(' ')[1]);
    await t.app.control.removeRemote('stubborn');
    await adding;
    expect(groupRunning(pid)).toBe(false);
    expect(lines()).toContain('SIGTERM');
  });

  it('refuses a shell string and a relative working directory with a message that says what to do', async () => {
    const t = await airlock();
    await expect(
      t.app.control.addRemote({
        name: 'x',
        stdio: { command: 'npx -y @modelcontextprotocol/server-filesystem /tmp' },
      }),
    ).rejects.toThrow(/never runs a shell string/);
    await expect(
      t.app.control.addRemote({ name: 'x', stdio: { command: 'node', cwd: 'relative/dir' } }),
    ).rejects.toThrow(/absolute path/);
    await expect(
      t.app.control.addRemote({
        name: 'x',
        url: 'http://127.0.0.1:1/mcp',
        stdio: { command: 'node' },
      }),
    ).rejects.toThrow(/not both/);
  });
});
