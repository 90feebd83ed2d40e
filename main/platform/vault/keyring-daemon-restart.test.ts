import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * The Secret Service dies while answering one of Airlock's calls, on a real
 * bus with a real gnome-keyring-daemon. The bus answers the pending call with
 * "Message recipient disconnected from message bus without replying"; the
 * vault must start the service again by D-Bus activation and finish the call,
 * not report KEYCHAIN_UNAVAILABLE (a CI run failed an e2e test on exactly
 * that: the daemon aborted on another client hanging up mid-request).
 *
 * The death is placed by watching the bus (see crashWatcher): the daemon is
 * stopped once the read's session is open and killed when the read's next
 * call reaches it.
 */
const real = process.env.AIRLOCK_KEYRING_TEST === '1';
if (!real)
  console.log(
    'keyring-daemon-restart.test: skipping: needs dbus-daemon and gnome-keyring (npm test runs under scripts/with-keyring.sh)',
  );

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const pid of daemonPids()) killQuietly(pid, 'SIGKILL');
});

let startsFile = '';
function daemonPids(): number[] {
  if (!startsFile || !existsSync(startsFile)) return [];
  return readFileSync(startsFile, 'utf8').split('\n').filter(Boolean).map(Number);
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

describe.skipIf(!real)('KeyringVault when the Secret Service dies mid-call', () => {
  it('starts the service again and finishes the call, on the same keyring', async () => {
    const home = tempDir('airlock-keyring-restart-');
    mkdirSync(join(home, 'services'));
    mkdirSync(join(home, 'data'));
    mkdirSync(join(home, 'run'), { mode: 0o700 });
    startsFile = join(home, 'starts');
    writeFileSync(join(home, 'pw'), 'restart-test-pw');
    // `exec` keeps the launcher's pid, so the pid written is the daemon's.
    const launcher = join(home, 'start.sh');
    writeFileSync(
      launcher,
      `#!/bin/sh\necho $$ >>'${startsFile}'\n` +
        `XDG_DATA_HOME='${home}/data' XDG_RUNTIME_DIR='${home}/run' DISPLAY= ` +
        `exec gnome-keyring-daemon --foreground --unlock --components=secrets <'${home}/pw' >/dev/null 2>&1\n`,
    );
    chmodSync(launcher, 0o700);
    writeFileSync(
      join(home, 'services', 'org.freedesktop.secrets.service'),
      `[D-BUS Service]\nName=org.freedesktop.secrets\nExec=${launcher}\n`,
    );
    const sessionConf = ['/usr/share/dbus-1/session.conf', '/etc/dbus-1/session.conf'].find(
      existsSync,
    )!;
    writeFileSync(
      join(home, 'bus.conf'),
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><servicedir>${home}/services</servicedir><include>${sessionConf}</include></busconfig>`,
    );
    const bus = spawn(
      'dbus-daemon',
      [`--config-file=${join(home, 'bus.conf')}`, '--nofork', '--print-address=1'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(bus);
    const address = await new Promise<string>((resolve) =>
      createInterface({ input: bus.stdout! }).once('line', resolve),
    );

    const watcher = await crashWatcher(address);
    const vault = vaultChild(address);
    expect(await vault.ask('set k before-the-crash')).toEqual({ ok: null, failures: [] });
    expect(daemonPids()).toHaveLength(1);

    // One read, with the daemon killed while the read's second call is pending (crashWatcher):
    // the read must still answer the value written before, from a daemon started again.
    const killed = watcher.arm(daemonPids().at(-1)!, vault.pid);
    const out = await vault.ask('get k');
    expect(killed()).toBe(true);
    expect(out.ok).toBe('before-the-crash');
    expect(
      out.failures.some((f) => /disconnected from message bus without replying/.test(f)),
      'the read did not see the daemon die',
    ).toBe(true);
    expect(daemonPids().length).toBeGreaterThan(1);
    // And the fresh daemon takes writes: the keyring came back unlocked.
    expect(await vault.ask('set k after')).toMatchObject({ ok: null });
    expect(await vault.ask('get k')).toMatchObject({ ok: 'after' });
  }, 120_000);
});

/**
 * Watches the bus with dbus-monitor (an eavesdropper gets its copy in the
 * same dispatch that queues the message to its recipient) and kills the daemon
 * while the read's second call waits at the bus. Each operation of the keyring
 * library opens its own connection, opens a Secret Service session
 * (OpenSession, serial 2 after Hello; the library falls back to a plain
 * session by itself if that call fails, so it is not the call to break), then
 * makes its real calls.
 *
 * The monitor's lines reach this process late, so nothing is decided by how
 * quickly they arrive: whichever of the two (daemon, client) could move past
 * the point is held with SIGSTOP before the other is let go.
 *   1. arm: the daemon is stopped (idle between operations).
 *   2. OpenSession seen: the client now waits for its answer; stop the client,
 *      let the daemon go.
 *   3. The daemon's answer seen: the stopped client has sent nothing since;
 *      stop the daemon, let the client go.
 *   4. The client's next call seen: it waits at the stopped daemon; kill it.
 * The bus then answers that call with NoReply. A missed line leaves a process
 * stopped and the test fails on its timeout; it cannot pass by luck.
 */
async function crashWatcher(
  address: string,
): Promise<{ arm(daemon: number, client: number): () => boolean }> {
  const monitor = spawn('dbus-monitor', ['--address', address], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(monitor);
  const lines = createInterface({ input: monitor.stdout! });
  type Phase = 'idle' | 'opening' | 'answered' | 'killed';
  let armed: { daemon: number; client: number; phase: Phase; sender?: string } | null = null;
  let ready: (() => void) | null = null;
  const started = new Promise<void>((r) => (ready = r));
  lines.on('line', (line) => {
    // The monitor's own first messages: it is attached.
    if (/member=NameAcquired|member=NameLost/.test(line)) ready?.();
    if (!armed) return;
    const call = /^method call .*sender=(\S+) -> destination=org\.freedesktop\.secrets /.exec(line);
    if (armed.phase === 'idle' && call && / serial=2 .*member=OpenSession$/.test(line)) {
      armed.sender = call[1]!;
      process.kill(armed.client, 'SIGSTOP');
      process.kill(armed.daemon, 'SIGCONT');
      armed.phase = 'opening';
    } else if (
      armed.phase === 'opening' &&
      new RegExp(
        `^method return .*-> destination=${armed.sender!.replace(/\./g, '\\.')} .*reply_serial=2$`,
      ).test(line)
    ) {
      process.kill(armed.daemon, 'SIGSTOP');
      process.kill(armed.client, 'SIGCONT');
      armed.phase = 'answered';
    } else if (armed.phase === 'answered' && call?.[1] === armed.sender) {
      process.kill(armed.daemon, 'SIGKILL');
      armed.phase = 'killed';
    }
  });
  await started;
  return {
    arm(daemon, client) {
      const round = { daemon, client, phase: 'idle' as Phase };
      process.kill(daemon, 'SIGSTOP');
      armed = round;
      return () => {
        armed = null;
        return round.phase === 'killed';
      };
    },
  };
}

interface Answer {
  ok: string | null;
  failures: string[];
}

/**
 * A child process holding one KeyringVault on `address` (the keyring library
 * keeps one D-Bus connection per process). Every backend failure the vault
 * saw, retried or not, is reported with the answer.
 */
function vaultChild(address: string): { pid: number; ask(line: string): Promise<Answer> } {
  const dist = (rel: string) =>
    fileURLToPath(new URL(`../../../dist/main/platform/vault/${rel}`, import.meta.url));
  if (!existsSync(dist('keyring-vault.js')))
    throw new Error(`${dist('keyring-vault.js')} is missing: run "npm run build" first`);
  const script = `
    import { AsyncEntry } from '@napi-rs/keyring';
    import { createInterface } from 'node:readline';
    const { KeyringVault } = await import(${JSON.stringify(pathToFileURL(dist('keyring-vault.js')).href)});
    let failures = [];
    const seen = (p) => p.catch((e) => { failures.push(String(e?.message ?? e)); throw e; });
    const vault = new KeyringVault({
      dataDir: '/airlock-restart-test',
      entryFactory: (s, a) => {
        const e = new AsyncEntry(s, a, { linux: { store: 'secret-service' } });
        return {
          getPassword: () => seen(e.getPassword()),
          setPassword: (v) => seen(e.setPassword(v)),
          deletePassword: () => seen(e.deletePassword()),
        };
      },
    });
    for await (const line of createInterface({ input: process.stdin })) {
      const [op, key, value] = line.split(' ');
      failures = [];
      const ok = await (op === 'get' ? vault.get(key) : vault.set(key, value).then(() => null))
        .catch((e) => 'ERROR ' + (e.code ?? '') + ' ' + e.message);
      console.log(JSON.stringify({ ok, failures }));
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address },
    cwd: fileURLToPath(new URL('../../../', import.meta.url)),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: Interface = createInterface({ input: child.stdout! });
  return {
    pid: child.pid!,
    ask: (line) =>
      new Promise<Answer>((resolve) => {
        lines.once('line', (out) => resolve(JSON.parse(out) as Answer));
        child.stdin!.write(line + '\n');
      }),
  };
}
