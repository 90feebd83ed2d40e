import { execFile } from 'node:child_process';
import { lstatSync, readlinkSync } from 'node:fs';
import { FORWARDER_CODE, FORWARDER_PORT, LAUNCH_PERL } from './forwarder.js';
import { SYSTEM_DIRS } from './runtime-paths.js';

/**
 * The Linux sandbox (issue 35): bubblewrap's command line for one start of a
 * local server. A new mount namespace whose root is empty but for:
 * the system folders read-only, a fresh /proc and /dev, a private /tmp, the
 * server's own folder as its home (so `npx`'s cache and whatever it writes to
 * `~` stay its own, and the user's home is nowhere), its runtime read-only,
 * the folders the user granted (read-only or read-write), and — for a host
 * list — the proxy's socket. Protected paths that lie inside any of those are
 * masked last. New user, PID, IPC, UTS and cgroup namespaces; a new network
 * namespace (loopback only) unless the network is "any"; no capabilities,
 * no further user namespaces; killed with its parent.
 *
 * Not `--new-session`: Airlock already starts bwrap as the leader of a new
 * session without a controlling terminal (process-group.ts, `detached`), so
 * there is no terminal to push input into (TIOCSTI); and staying in that
 * process group is what lets Airlock's SIGTERM reach the server itself and
 * lets "the group is gone" mean every process inside is gone.
 */
export interface LinuxPlan {
  bwrap: string;
  /** bubblewrap ≥ 0.8 knows --disable-userns. */
  disableUserns: boolean;
  program: string;
  args: readonly string[];
  cwd: string;
  /** The home path the server sees (the user's, so paths read the same). */
  home: string;
  /** The host folder bound at `home`. */
  privateHome: string;
  runtime: readonly string[];
  read: readonly string[];
  write: readonly string[];
  /** Protected paths inside a bound folder: hidden under an empty tmpfs (folder) or /dev/null (file). */
  mask: readonly { path: string; dir: boolean }[];
  network: 'none' | 'any' | 'hosts';
  /**
   * Host list: the proxy's Unix socket on the host, and what binds the forwarder's port before
   * the server starts (forwarder.ts): Perl at a system path, else the node that runs it.
   */
  proxy?: { socket: string; perl: string } | { socket: string; node: string };
  /** Network "any": the seccomp program arrives on this file descriptor. */
  seccompFd?: number;
}

/** Where the proxy socket appears inside the sandbox. */
export const SANDBOX_PROXY_SOCKET = '/run/airlock/proxy.sock';

/** How each system folder appears: bound read-only, or a symlink (merged /usr) re-created as one. */
export function systemMounts(): { path: string; link?: string }[] {
  const out: { path: string; link?: string }[] = [];
  for (const path of SYSTEM_DIRS.linux) {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isSymbolicLink()) out.push({ path, link: readlinkSync(path) });
    else if (st.isDirectory()) out.push({ path });
  }
  return out;
}

export function bwrapArgs(p: LinuxPlan, system = systemMounts()): string[] {
  const a: string[] = ['--die-with-parent', '--unshare-user'];
  if (p.disableUserns) a.push('--disable-userns');
  a.push('--cap-drop', 'ALL', '--unshare-pid', '--unshare-ipc', '--unshare-uts');
  a.push('--unshare-cgroup-try');
  if (p.network !== 'any') a.push('--unshare-net');
  for (const s of system) {
    if (s.link !== undefined) a.push('--symlink', s.link, s.path);
    else a.push('--ro-bind', s.path, s.path);
  }
  a.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  // systemd-resolved's stub: /etc/resolv.conf often points into /run.
  if (p.network === 'any') a.push('--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve');
  a.push('--bind', p.privateHome, p.home);
  for (const r of p.runtime) a.push('--ro-bind', r, r);
  for (const r of p.read) a.push('--ro-bind', r, r);
  for (const w of p.write) a.push('--bind', w, w);
  if (p.proxy) a.push('--ro-bind', p.proxy.socket, SANDBOX_PROXY_SOCKET);
  for (const m of p.mask)
    if (m.dir) a.push('--tmpfs', m.path, '--remount-ro', m.path);
    else a.push('--ro-bind', '/dev/null', m.path);
  a.push('--dir', p.cwd, '--chdir', p.cwd);
  if (p.seccompFd !== undefined) a.push('--seccomp', String(p.seccompFd));
  // The forwarder's Node starts without it (forwarder.ts); the server gets it back.
  if (p.proxy && 'node' in p.proxy) a.push('--unsetenv', 'NODE_USE_ENV_PROXY');
  a.push('--');
  const at = [String(FORWARDER_PORT), SANDBOX_PROXY_SOCKET];
  const server = [p.program, ...p.args];
  if (p.proxy && 'perl' in p.proxy) a.push(p.proxy.perl, '-e', LAUNCH_PERL, '--', ...at, ...server);
  else if (p.proxy) a.push(p.proxy.node, '-e', FORWARDER_CODE, '--', ...at, ...server);
  else a.push(p.program, ...p.args);
  return a;
}

export interface BwrapProbe {
  ok: boolean;
  /** Why not, in bubblewrap's words (or "not installed"). */
  why?: string;
  disableUserns: boolean;
}

/**
 * Can bubblewrap make a sandbox here? Runs it once with the namespaces Airlock asks for
 * (unprivileged user namespaces may be off, or AppArmor may refuse them: Ubuntu ≥ 23.10
 * allows bwrap through its own profile).
 */
export async function probeBwrap(bwrap: string): Promise<BwrapProbe> {
  const run = (args: string[]) =>
    new Promise<{ code: number | string; out: string }>((resolve) => {
      execFile(bwrap, args, { timeout: 10_000 }, (err, stdout, stderr) => {
        const code = err ? ((err as NodeJS.ErrnoException).code ?? 1) : 0;
        resolve({ code, out: `${stdout}${stderr}`.trim() });
      });
    });
  const version = await run(['--version']);
  if (version.code === 'ENOENT') return { ok: false, why: 'not installed', disableUserns: false };
  const m = /(\d+)\.(\d+)/.exec(version.out);
  const disableUserns = !!m && (Number(m[1]) > 0 || Number(m[2]) >= 8);
  const args = ['--unshare-user', ...(disableUserns ? ['--disable-userns'] : [])];
  args.push('--cap-drop', 'ALL', '--unshare-pid', '--unshare-net', '--unshare-ipc');
  for (const s of systemMounts())
    if (s.link !== undefined) args.push('--symlink', s.link, s.path);
    else args.push('--ro-bind', s.path, s.path);
  args.push('--proc', '/proc', '--dev', '/dev', '--', 'true');
  const r = await run(args);
  if (r.code === 0) return { ok: true, disableUserns };
  return { ok: false, why: r.out.split('\n')[0] || `exit ${r.code}`, disableUserns };
}
