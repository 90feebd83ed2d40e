import { spawn as nodeSpawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import crossSpawn from 'cross-spawn';

/**
 * Starting and ending a local server's whole process tree (issue 15).
 *
 * POSIX: the child is spawned `detached`, which makes it the leader of a new
 * process group; ending it signals the group (`kill(-pid)`), so a launcher
 * such as `npx` or `uvx` and the server it started go together — signalling
 * only the launcher's pid leaves the real server running as an orphan.
 *
 * Windows: `npx`, `uvx` and friends are `.cmd` shims that CreateProcess
 * cannot run directly; cross-spawn finds the shim on PATH/PATHEXT and runs it
 * through `cmd.exe /d /s /c` with its arguments escaped for cmd's rules
 * (CVE-2024-27980 is why Node refuses to spawn `.cmd` files without a shell).
 * The tree is ended with `taskkill /T /F`.
 */
export interface Launch {
  command: string;
  args: readonly string[];
  cwd?: string;
  env: Record<string, string>;
}

/** Every child still running, so a hard exit of Airlock can still end them (see `endAllNow`). */
const live = new Set<ChildProcessWithoutNullStreams>();
let hooked = false;

/**
 * `extraStdio`: data for file descriptors 3, 4, … of the child, each written once and closed
 * (the sandbox's seccomp program, issue 35).
 */
export function spawnGroup(
  l: Launch,
  extraStdio: readonly Buffer[] = [],
): ChildProcessWithoutNullStreams {
  const child = crossSpawn(l.command, [...l.args], {
    cwd: l.cwd,
    env: l.env,
    stdio: ['pipe', 'pipe', 'pipe', ...extraStdio.map(() => 'pipe' as const)],
    detached: process.platform !== 'win32',
    windowsHide: true,
    shell: false,
  }) as ChildProcessWithoutNullStreams;
  extraStdio.forEach((data, i) => {
    const fd = child.stdio[3 + i] as NodeJS.WritableStream & {
      on: (e: 'error', f: () => void) => void;
    };
    // The child may exit before reading it; its exit is reported, not the broken pipe.
    fd.on('error', () => {});
    fd.end(data);
  });
  live.add(child);
  // The leader ending is not the group ending: a server under `sh -c` or a launcher that ignores
  // SIGTERM runs on after the leader, and a hard exit during the stop's grace (a second Ctrl+C,
  // cli/stop-signals.ts) must still reach it. endGroup, which every close runs, takes it out then.
  child.once('exit', () => {
    if (child.pid === undefined || !groupRunning(child.pid)) live.delete(child);
  });
  child.once('error', () => live.delete(child));
  if (!hooked) {
    hooked = true;
    // A last resort for `process.exit()` without App.stop(): synchronous, so it can only signal.
    process.once('exit', endAllNow);
  }
  return child;
}

/** Signals the child's whole process group (tree on Windows). True if there was something to signal. */
export function signalGroup(pid: number, signal: 'SIGTERM' | 'SIGKILL'): boolean {
  if (process.platform === 'win32') {
    const args = ['/pid', String(pid), '/T', ...(signal === 'SIGKILL' ? ['/F'] : [])];
    nodeSpawn('taskkill', args, { stdio: 'ignore', windowsHide: true }).on('error', () => {});
    return true;
  }
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: the group is gone already.
    return false;
  }
}

/** True while any process of the group (POSIX) or the process itself (Windows) exists, zombies included. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True while a process of the group still runs: `groupAlive` without the zombies. A killed
 * process stays in its group as a zombie until its parent reaps it, and for the server's own
 * children that parent is the host's init, which in a container may never reap (the process is
 * gone all the same: no code runs, nothing is held but its pid). Linux reads /proc; elsewhere (no
 * /proc, where launchd reaps) it is `groupAlive`. A zombie is a process none of whose threads
 * runs: /proc/PID/stat shows the thread-group leader's own thread, "Z" once that thread has ended
 * (pthread_exit) while the others run on (proc(5), /proc/PID/task).
 */
export function groupRunning(pid: number): boolean {
  if (!groupAlive(pid)) return false;
  if (process.platform !== 'linux') return true;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // /proc unreadable: count the zombies rather than miss a live process
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // proc(5): "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pid && (!ended(state) || threadRuns(entry))) return true;
  }
  return false;
}

const ended = (state: string | undefined): boolean => state === 'Z' || state === 'X';

/** Some thread of the process whose leader shows "Z" still runs (its own /proc/PID/task/TID/stat). */
function threadRuns(pid: string): boolean {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return false; // reaped meanwhile
  }
  return tids.some((tid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return !ended(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]);
    } catch {
      return false; // ended meanwhile
    }
  });
}

/** Between two looks at groups that were sent SIGKILL. */
const GONE_POLL_MS = 25;
/**
 * Only a safety net: the kernel ends a SIGKILLed process in milliseconds, but one in
 * uninterruptible sleep (a hung network file system) waits for its I/O. Reaching it is logged by
 * the caller; nothing is expected to reach it.
 */
const GONE_SAFETY_NET_MS = 10_000;

/**
 * Resolves true once no process of these groups runs (`groupRunning`), false if some still does
 * after `safetyNetMs`. Polls: the kernel announces only a child's own exit, and the server's
 * children are not Airlock's. What removal, disabling and stopping wait on, so that when they
 * resolve no process of the server is left (what the tests then check, with the same function).
 */
export async function groupsGone(
  pids: readonly number[],
  safetyNetMs = GONE_SAFETY_NET_MS,
): Promise<boolean> {
  const deadline = Date.now() + safetyNetMs;
  while (pids.some(groupRunning)) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, GONE_POLL_MS));
  }
  return true;
}

/**
 * Ends the group: closes stdin (a well-behaved MCP server exits on EOF, spec
 * "stdio" transport, shutdown), SIGTERM, then SIGKILL after `graceMs`.
 * Resolves once no process of the group runs (`groupsGone`): false only if one
 * outlived the SIGKILL by the safety net.
 */
export async function endGroup(
  child: ChildProcessWithoutNullStreams,
  graceMs = 2000,
): Promise<boolean> {
  const pid = child.pid;
  if (pid === undefined) return true;
  child.stdin.end();
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    exited,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(timer);
  // The leader may have exited while a grandchild ignores SIGTERM: the group still gets SIGKILL.
  let gone = true;
  if (groupRunning(pid)) {
    signalGroup(pid, 'SIGKILL');
    // SIGKILL cannot be refused, but the kernel takes a moment: "removed" means "no process
    // left" to whoever checks next.
    gone = await groupsGone([pid]);
  }
  live.delete(child);
  return gone;
}

/** Synchronous SIGKILL to every live group (process 'exit' hook). */
export function endAllNow(): void {
  for (const child of live) if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
  live.clear();
}
