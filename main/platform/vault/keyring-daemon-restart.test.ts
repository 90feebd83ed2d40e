import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

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
    const home = mkdtempSync(join(tmpdir(), 'airlock-keyring-restart-'));
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

    // Until one round has killed the daemon with a call pending (in a round
    // where the read finishes before the daemon is stopped, nothing broke):
    // every round's read must answer the value written before.
    let sawDeath = false;
    for (let round = 0; round < 5 && !sawDeath; round++) {
      const disarm = watcher.arm(daemonPids().at(-1)!);
      const out = await vault.ask('get k');
      const killedMidCall = disarm();
      expect(out.ok).toBe('before-the-crash');
      sawDeath = out.failures.some((f) => /disconnected from message bus without replying/.test(f));
      expect(sawDeath).toBe(killedMidCall);
    }
    expect(sawDeath, 'no round killed the daemon while our read was pending').toBe(true);
    expect(daemonPids().length).toBeGreaterThan(1);
    // And the fresh daemon takes writes: the keyring came back unlocked.
    expect(await vault.ask('set k after')).toMatchObject({ ok: null });
    expect(await vault.ask('get k')).toMatchObject({ ok: 'after' });
  }, 120_000);
});

/**
 * Watches the bus with dbus-monitor (an eavesdropper gets its copy in the
 * same dispatch that queues the message to its recipient). Each operation of
 * the keyring library opens a connection, opens a Secret Service session
 * (OpenSession, serial 2 after Hello; the library falls back to a plain
 * session by itself if that call fails, so it is not the call to break),
 * then makes its real calls. The watcher stops the daemon as soon as the
 * session is open, and kills it at the next call the bus routes to it: that
 * call is then pending at the bus, which answers it with NoReply.
 */
async function crashWatcher(address: string): Promise<{ arm(pid: number): () => boolean }> {
  const monitor = spawn('dbus-monitor', ['--address', address], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(monitor);
  const lines = createInterface({ input: monitor.stdout! });
  let armed: { pid: number; phase: 'opening' | 'stopped' | 'killed' } | null = null;
  let ready: (() => void) | null = null;
  const started = new Promise<void>((r) => (ready = r));
  lines.on('line', (line) => {
    // The monitor's own first messages: it is attached.
    if (/member=NameAcquired|member=NameLost/.test(line)) ready?.();
    if (!armed) return;
    if (
      armed.phase === 'opening' &&
      /^method return .*reply_serial=2\b/.test(line) &&
      !/sender=org\.freedesktop\.DBus /.test(line)
    ) {
      process.kill(armed.pid, 'SIGSTOP');
      armed.phase = 'stopped';
    } else if (
      armed.phase === 'stopped' &&
      /^method call .*destination=org\.freedesktop\.secrets/.test(line)
    ) {
      process.kill(armed.pid, 'SIGKILL');
      armed.phase = 'killed';
    }
  });
  await started;
  return {
    arm(pid) {
      const round = { pid, phase: 'opening' as 'opening' | 'stopped' | 'killed' };
      armed = round;
      return () => {
        armed = null;
        // The operation finished before the daemon was stopped between two calls.
        if (round.phase !== 'killed') killQuietly(pid, 'SIGKILL');
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
function vaultChild(address: string): { ask(line: string): Promise<Answer> } {
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
    ask: (line) =>
      new Promise<Answer>((resolve) => {
        lines.once('line', (out) => resolve(JSON.parse(out) as Answer));
        child.stdin!.write(line + '\n');
      }),
  };
}
