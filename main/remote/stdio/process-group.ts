import { spawn as nodeSpawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
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
  child.once('exit', () => live.delete(child));
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

/** True while any process of the group (POSIX) or the process itself (Windows) exists. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Ends the group: closes stdin (a well-behaved MCP server exits on EOF, spec
 * "stdio" transport, shutdown), SIGTERM, then SIGKILL after `graceMs`.
 * Resolves once the group is gone or the SIGKILL was sent.
 */
export async function endGroup(
  child: ChildProcessWithoutNullStreams,
  graceMs = 2000,
): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
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
  if (groupAlive(pid)) {
    signalGroup(pid, 'SIGKILL');
    // SIGKILL cannot be refused, but the kernel takes a moment: wait (bounded) so that "removed"
    // means "no process left" to whoever checks next.
    for (let i = 0; i < 40 && groupAlive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  }
  live.delete(child);
}

/** Synchronous SIGKILL to every live group (process 'exit' hook). */
export function endAllNow(): void {
  for (const child of live) if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
  live.clear();
}
