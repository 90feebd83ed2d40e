import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bwrapArgs, probeBwrap, SANDBOX_PROXY_SOCKET, type LinuxPlan } from './bwrap.js';
import { findBwrap } from './host-facts.js';
import { FORWARDER_CODE, FORWARDER_PORT, LAUNCH_PERL } from './forwarder.js';
import { tempDir } from '../../../../test-support/temp-dir.js';

/** Issue 35: bubblewrap's command line, checked as text and, where bubblewrap exists, by running it. */
const base: LinuxPlan = {
  bwrap: '/usr/bin/bwrap',
  disableUserns: true,
  program: '/usr/bin/node',
  args: ['server.js', '--flag'],
  cwd: '/home/u/project',
  home: '/home/u',
  privateHome: '/home/u/.cache/airlock-sandboxes/x/srv',
  runtime: ['/home/u/.nvm/versions/node/v22'],
  read: ['/home/u/docs'],
  write: ['/home/u/project'],
  mask: [{ path: '/home/u/docs/.secret', dir: true }],
  network: 'none',
};
const system = [{ path: '/usr' }, { path: '/bin', link: 'usr/bin' }];
const after = (a: string[], x: string, y: string) => a.indexOf(x) < a.lastIndexOf(y);

describe('bwrapArgs', () => {
  it('isolates, binds in order (home, runtime, grants, then masks), and ends with the program', () => {
    const a = bwrapArgs(base, system);
    expect(a.slice(0, 3)).toEqual(['--die-with-parent', '--unshare-user', '--disable-userns']);
    for (const f of ['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net'])
      expect(a).toContain(f);
    expect(a.join(' ')).toContain('--cap-drop ALL');
    expect(a.join(' ')).toContain('--symlink usr/bin /bin');
    expect(a.join(' ')).toContain(`--bind ${base.privateHome} /home/u`);
    expect(a.join(' ')).toContain('--ro-bind /home/u/docs /home/u/docs');
    expect(a.join(' ')).toContain('--bind /home/u/project /home/u/project');
    expect(a.join(' ')).toContain('--tmpfs /tmp');
    expect(after(a, base.privateHome, '/home/u/project')).toBe(true);
    expect(after(a, '/home/u/docs', '/home/u/docs/.secret')).toBe(true);
    expect(a.slice(a.indexOf('--'))).toEqual(['--', '/usr/bin/node', 'server.js', '--flag']);
    expect(a).not.toContain('--new-session');
    expect(a).not.toContain('--seccomp');
  });

  it('network any keeps the host network and takes the seccomp filter', () => {
    const any = bwrapArgs({ ...base, network: 'any', seccompFd: 3 }, system);
    expect(any).not.toContain('--unshare-net');
    expect(any.join(' ')).toContain('--seccomp 3 --');
  });

  it('a host list: Perl binds the port and starts the server; without Perl, Node first', () => {
    const socket = '/tmp/p/1.sock';
    const server = ['/usr/bin/node', 'server.js', '--flag'];
    const perl = bwrapArgs(
      { ...base, network: 'hosts', proxy: { socket, perl: '/usr/bin/perl' } },
      system,
    );
    expect(perl).toContain('--unshare-net');
    expect(perl.join(' ')).toContain(`--ro-bind /tmp/p/1.sock ${SANDBOX_PROXY_SOCKET}`);
    expect(perl).not.toContain('--unsetenv');
    expect(perl.slice(perl.indexOf('--') + 1)).toEqual([
      '/usr/bin/perl',
      '-e',
      LAUNCH_PERL,
      '--',
      String(FORWARDER_PORT),
      SANDBOX_PROXY_SOCKET,
      ...server,
    ]);
    const node = bwrapArgs(
      { ...base, network: 'hosts', proxy: { socket, node: '/opt/node/bin/node' } },
      system,
    );
    expect(node.join(' ')).toContain('--unsetenv NODE_USE_ENV_PROXY --');
    expect(node.slice(node.indexOf('--') + 1)).toEqual([
      '/opt/node/bin/node',
      '-e',
      FORWARDER_CODE,
      '--',
      String(FORWARDER_PORT),
      SANDBOX_PROXY_SOCKET,
      ...server,
    ]);
  });
});

const bwrap = process.platform === 'linux' ? findBwrap() : undefined;

describe.skipIf(!bwrap)('bubblewrap itself', () => {
  it('probes as able here', async () => {
    expect(await probeBwrap(bwrap!)).toMatchObject({ ok: true });
    expect(await probeBwrap('/nonexistent/bwrap')).toMatchObject({
      ok: false,
      why: 'not installed',
    });
  });

  it('a masked path inside a granted folder shows empty; the user home is the private one', () => {
    const root = realpathSync(tempDir('airlock-bwrap-'));
    const home = join(root, 'home');
    const granted = join(home, 'granted');
    mkdirSync(join(granted, 'airlock-data'), { recursive: true });
    writeFileSync(join(granted, 'airlock-data', 'airlock.db'), 'DB');
    writeFileSync(join(granted, 'ok.txt'), 'visible');
    writeFileSync(join(home, 'key'), 'KEY');
    const privateHome = join(root, 'private');
    mkdirSync(privateHome);
    const run = (script: string) =>
      spawnSync(
        bwrap!,
        bwrapArgs({
          ...base,
          bwrap: bwrap!,
          disableUserns: false,
          program: '/bin/sh',
          args: ['-c', script],
          cwd: granted,
          home,
          privateHome,
          runtime: [],
          read: [granted],
          write: [],
          mask: [{ path: join(granted, 'airlock-data'), dir: true }],
        }),
        { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', HOME: home } },
      );
    expect(run(`cat ${join(granted, 'ok.txt')}`).stdout).toBe('visible');
    expect(run(`ls -A ${join(granted, 'airlock-data')}`).stdout).toBe('');
    expect(run(`cat ${join(home, 'key')}`).status).not.toBe(0);
    expect(run(`touch ${join(granted, 'new')}`).status).not.toBe(0);
    expect(run('touch ~/mine && echo yes').stdout.trim()).toBe('yes');
    expect(execFileSync('ls', [privateHome], { encoding: 'utf8' })).toContain('mine');
  });
});
