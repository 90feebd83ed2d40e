import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteView, SandboxInput } from '../../../../common/contract/index.js';
import {
  agentClient,
  startRemoteApp,
  until,
  type RemoteTestApp,
} from '../../../../test-support/remote-app.js';
import { groupRunning } from '../process-group.js';
import { findBwrap } from './host-facts.js';
import { tempDir } from '../../../../test-support/temp-dir.js';

/**
 * Issue 35, with the real bubblewrap: a hostile local server, started by Airlock in its sandbox,
 * tries to read ~/.ssh/id_ed25519 (a fake home's), Airlock's database, a folder it was not given;
 * to write outside its folder; to reach a loopback port and a host outside its list, and the
 * session bus's kind of socket — each refused — while what it was given works, and a crash and
 * restart keep the sandbox.
 */
const require = createRequire(import.meta.url);
const HOSTILE = fileURLToPath(
  new URL('../../../../test-support/hostile-stdio-server.mjs', import.meta.url),
);
/** The server's SDK comes from here: the user grants it read-only, as they would a project's. */
const NODE_MODULES = realpathSync(
  require.resolve('@modelcontextprotocol/server').replace(/(\/node_modules)\/.*$/, '$1'),
);
const linux = process.platform === 'linux';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Host pids of live (not zombie) processes whose command line mentions `marker`. */
function pidsOf(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmd.includes(marker) && !/^\d+ \(.*\) Z/.test(stat)) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** A home with a key, a project (the server's folder), and a folder it is not given. */
function fakeHome() {
  const home = realpathSync(tempDir('airlock-home-'));
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  mkdirSync(join(home, 'project'));
  writeFileSync(join(home, 'project', 'notes.txt'), 'project notes');
  mkdirSync(join(home, 'other'));
  writeFileSync(join(home, 'other', 'secret.txt'), 'other folder');
  return home;
}

/** A loopback listener outside the sandbox that greets and counts who reached it. */
async function listener(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server: Server = createServer((c) => {
    hits++;
    // The sandboxed client may hang up first (ECONNRESET): that is its right, not a test failure.
    c.on('error', () => {});
    c.end('hello from outside\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise((r) => server.close(r)));
  return { port: (server.address() as { port: number }).port, hits: () => hits };
}

async function airlock(home: string, extra: Parameters<typeof startRemoteApp>[0] = {}) {
  const t = await startRemoteApp({ ...extra, sandbox: { home, ...extra.sandbox } });
  cleanup.push(() => t.stop());
  const c: Client = await agentClient(t.started.mcpUrl, t.token);
  cleanup.push(() => c.close());
  const tool = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await c.callTool({ name, arguments: args });
    // The last block is the server's own (Airlock's untrusted-content note comes first).
    return (r.content as { text?: string }[]).at(-1)?.text ?? '';
  };
  return { t, c, tool };
}

async function addHostile(
  t: RemoteTestApp,
  home: string,
  sandbox: SandboxInput,
): Promise<RemoteView> {
  return t.app.control.addRemote({
    name: 'evil',
    stdio: {
      command: process.execPath,
      args: [HOSTILE],
      cwd: join(home, 'project'),
      sandbox: { read: [NODE_MODULES], ...sandbox },
    },
  });
}

describe.skipIf(!linux)('local servers in bubblewrap (issue 35)', () => {
  beforeAll(() => {
    if (!findBwrap()) throw new Error('These tests need bubblewrap: apt install bubblewrap');
  });

  it('a hostile server sees only its folder: no ~/.ssh, no database, no other folder, no writes outside', async () => {
    const home = fakeHome();
    const { t, tool } = await airlock(home);
    const v = await addHostile(t, home, { network: 'none' });
    expect(v).toMatchObject({
      state: 'ready',
      stdio: { sandbox: { status: 'sandboxed', enforcement: 'bubblewrap' } },
    });
    expect(v.stdio!.sandbox.write).toEqual([join(home, 'project')]);

    expect(await tool('evil__read', { path: join(home, 'project', 'notes.txt') })).toMatch(
      /^OK project notes/,
    );
    expect(await tool('evil__read', { path: join(home, '.ssh', 'id_ed25519') })).toMatch(
      /^ERR ENOENT/,
    );
    expect(await tool('evil__read', { path: join(t.dataDir, 'airlock.db') })).toMatch(
      /^ERR ENOENT/,
    );
    expect(await tool('evil__read', { path: join(home, 'other', 'secret.txt') })).toMatch(
      /^ERR ENOENT/,
    );
    expect(await tool('evil__read', { path: '/etc/hostname' })).not.toMatch(/^ERR EACCES/);

    // Its own folder and the project are writable; the system is not; ~ is its own folder, not yours.
    expect(await tool('evil__write', { path: join(home, 'project', 'out.txt') })).toBe(
      'OK written',
    );
    expect(readFileSync(join(home, 'project', 'out.txt'), 'utf8')).toMatch(/hostile/);
    expect(await tool('evil__write', { path: '/usr/evil' })).toMatch(/^ERR (EROFS|EACCES)/);
    expect(await tool('evil__write', { path: join(home, 'escape.txt') })).toBe('OK written');
    expect(existsSync(join(home, 'escape.txt'))).toBe(false);
    expect(existsSync(join(v.stdio!.sandbox.home!, 'escape.txt'))).toBe(true);
    expect(await tool('evil__write', { path: join(home, 'other', 'x.txt') })).toMatch(/^ERR/);
    expect(existsSync(join(home, 'other', 'x.txt'))).toBe(false);

    // A symbolic link in its folder does not lead out of the sandbox.
    symlinkSync(t.dataDir, join(home, 'project', 'data'));
    expect(
      await tool('evil__read', { path: join(home, 'project', 'data', 'settings.json') }),
    ).toMatch(/^ERR ENOENT/);
  });

  it('network none: no loopback port, no outside host', async () => {
    const home = fakeHome();
    const outside = await listener();
    const { t, tool } = await airlock(home);
    await addHostile(t, home, { network: 'none' });
    expect(await tool('evil__connect', { host: '127.0.0.1', port: outside.port })).toBe(
      'ERR ECONNREFUSED',
    );
    expect(await tool('evil__connect', { host: '192.0.2.1', port: 443 })).toBe('ERR ENETUNREACH');
    expect(outside.hits()).toBe(0);
  });

  it('a host list: only listed hosts through the proxy, nothing directly; refusals are listed', async () => {
    const home = fakeHome();
    const allowed = await listener();
    const other = await listener();
    const { t, tool } = await airlock(home);
    await addHostile(t, home, { hosts: [`127.0.0.1:${allowed.port}`] });
    expect(await tool('evil__proxy', { target: `127.0.0.1:${allowed.port}` })).toBe(
      'OK 200 hello from outside',
    );
    expect(allowed.hits()).toBe(1);
    // Another loopback port, in any spelling, and an outside host: refused by the proxy.
    for (const target of [
      `127.0.0.1:${other.port}`,
      `2130706433:${other.port}`,
      `localhost:${allowed.port}`,
      'example.com:443',
    ])
      expect(await tool('evil__proxy', { target })).toBe('OK 403');
    // Around the proxy: its own network namespace has nothing listening and no route out.
    expect(await tool('evil__connect', { host: '127.0.0.1', port: other.port })).toBe(
      'ERR ECONNREFUSED',
    );
    expect(await tool('evil__connect', { host: '192.0.2.1', port: 443 })).toBe('ERR ENETUNREACH');
    expect(other.hits()).toBe(0);
    const v = (await t.app.control.listRemotes()).find((r) => r.name === 'evil')!;
    expect(v.stdio!.sandbox.refusedHosts).toEqual(
      expect.arrayContaining([
        `127.0.0.1:${other.port}`,
        `localhost:${allowed.port}`,
        'example.com:443',
      ]),
    );
  });

  it('network any: hosts yes, the session bus kind of socket (abstract Unix) no', async () => {
    const home = fakeHome();
    const outside = await listener();
    const bus = createServer((c) => c.on('error', () => {}).end());
    const name = `airlock-test-bus-${process.pid}`;
    await new Promise<void>((r) => bus.listen(`\0${name}`, r));
    cleanup.push(() => new Promise((r) => bus.close(r)));
    const { t, tool } = await airlock(home);
    await addHostile(t, home, { network: 'any' });
    expect(await tool('evil__connect', { host: '127.0.0.1', port: outside.port })).toBe(
      'OK connected',
    );
    expect(await tool('evil__abstract', { name })).toBe('ERR EACCES');
  });

  it('never the data directory or the keychain, whatever is asked; state stays as it was', async () => {
    const home = fakeHome();
    const parent = tempDir('airlock-parent-');
    mkdirSync(join(parent, 'data'));
    const { t } = await airlock(home, { dataDir: join(parent, 'data') });
    await addHostile(t, home, { network: 'none' });
    const before = readFileSync(join(t.dataDir, 'settings.json'), 'utf8');
    symlinkSync(t.dataDir, join(home, 'shortcut'));
    const keyrings = join(home, '.local', 'share', 'keyrings');
    mkdirSync(keyrings, { recursive: true });
    const refused: [SandboxInput, RegExp][] = [
      [{ read: [t.dataDir] }, /Airlock's data directory/],
      [{ write: [join(t.dataDir, 'logs')] }, /inside Airlock's data directory/],
      [{ read: [dirname(t.dataDir)] }, /contains Airlock's data directory/],
      [{ read: [join(home, 'shortcut')] }, /Airlock's data directory/],
      [{ read: [home] }, /whole home folder/],
      [{ read: ['/'] }, /contains your whole home folder/],
      [{ read: [keyrings] }, /keychain/],
      [{ read: ['relative/path'] }, /absolute/],
      [{ write: [join(home, 'nope')] }, /does not exist/],
      [{ hosts: ['http://example.com/path'] }, /not a host/],
      [{ network: 'hosts', hosts: [] }, /at least one host/],
    ];
    for (const [sandbox, message] of refused)
      await expect(t.app.control.updateRemote('evil', { sandbox })).rejects.toThrow(message);
    expect(readFileSync(join(t.dataDir, 'settings.json'), 'utf8')).toBe(before);
  });

  it('a crash and restart keep the sandbox', async () => {
    const home = fakeHome();
    const { t, tool } = await airlock(home);
    const v = await addHostile(t, home, { network: 'none' });
    const first = v.process!.pid!;
    const inside = JSON.parse((await tool('evil__whoami')).slice(3)) as {
      pid: number;
      home: string;
    };
    // Its own PID namespace: it sees itself as a low number, not the host's pid.
    expect(inside.pid).toBeLessThan(10);
    expect(inside.home).toBe(home);
    expect(await tool('evil__crash')).toBe('OK exiting');
    await until(t.app, async () => {
      const r = (await t.app.control.listRemotes()).find((x) => x.name === 'evil');
      return r?.state === 'ready' && r.process?.pid !== undefined && r.process.pid !== first;
    });
    const again = (await t.app.control.listRemotes()).find((x) => x.name === 'evil')!;
    expect(again.process).toMatchObject({ starts: 2, lastExit: 'exited with code 3' });
    expect(await tool('evil__read', { path: join(home, '.ssh', 'id_ed25519') })).toMatch(
      /^ERR ENOENT/,
    );
    expect(await tool('evil__read', { path: join(t.dataDir, 'airlock.db') })).toMatch(
      /^ERR ENOENT/,
    );
    // bwrap, its PID 1 and the server inside: all in the group Airlock ends on removal.
    const inner = pidsOf(HOSTILE);
    expect(inner.length).toBeGreaterThanOrEqual(2);
    await t.app.control.removeRemote('evil');
    expect(groupRunning(again.process!.pid!)).toBe(false);
    expect(pidsOf(HOSTILE).filter((p) => inner.includes(p))).toEqual([]);
    expect(existsSync(v.stdio!.sandbox.home!)).toBe(false);
  });

  it('imported: the narrowest permissions that start it, and what it asked for that was not granted', async () => {
    const home = fakeHome();
    const { t, tool } = await airlock(home);
    const v = await t.app.control.addRemote({
      name: 'evil',
      origin: 'cursor',
      stdio: {
        command: process.execPath,
        args: [HOSTILE, join(home, 'other'), 'https://api.example.com/v1'],
      },
    });
    expect(v.state).toBe('ready');
    expect(v.stdio!.sandbox).toMatchObject({
      read: [],
      write: [],
      network: 'none',
      status: 'sandboxed',
    });
    expect(v.stdio!.sandbox.notGranted).toEqual([join(home, 'other'), 'api.example.com']);
    expect(await tool('evil__read', { path: join(home, 'other', 'secret.txt') })).toMatch(
      /^ERR ENOENT/,
    );
  });

  it('without bubblewrap it does not start unsandboxed unless allowed for that server', async () => {
    const home = fakeHome();
    const { t, tool } = await airlock(home, { sandbox: { bwrap: join(home, 'no-bwrap') } });
    const v = await addHostile(t, home, { network: 'none' });
    expect(v.state).toBe('error');
    expect(v.detail).toMatch(/^unsandboxed — install bubblewrap/);
    expect(v.stdio!.sandbox).toMatchObject({ status: 'blocked', enforcement: 'none' });
    expect(v.process?.starts ?? 0).toBe(0);
    const allowed = await t.app.control.updateRemote('evil', {
      sandbox: { allowUnsandboxed: true },
    });
    expect(allowed).toMatchObject({
      state: 'ready',
      stdio: { sandbox: { status: 'unsandboxed' } },
    });
    expect(allowed.stdio!.sandbox.note).toMatch(/without a sandbox/);
    // What "unsandboxed" means: it reads what you can.
    expect(await tool('evil__read', { path: join(home, '.ssh', 'id_ed25519') })).toBe(
      'OK PRIVATE KEY',
    );
  });
});
