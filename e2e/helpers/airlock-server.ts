import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The project root (e2e/helpers/../..). */
export const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'airlock.js');
/** `airlock` with the e2e tool sources passed in (main() injections; issue 31: no env hook). */
const TEST_CLI = join(ROOT, 'test-support', 'airlock-test-cli.mjs');
/** The desktop entry with the same sources, for e2e/electron.spec.ts. */
export const TEST_ELECTRON_MAIN = join(ROOT, 'test-support', 'electron-main.mjs');

/** A fresh profile: its data dir, plus the test source's counter and release files next to it. */
export interface Profile {
  root: string;
  dataDir: string;
  counterFile: string;
  releaseFile: string;
}

export function newProfile(prefix = 'airlock-e2e-'): Profile {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  return {
    root,
    dataDir,
    counterFile: join(root, 'counter.log'),
    releaseFile: join(root, 'release'),
  };
}

/** Writes settings.json before the server starts (schema: main/platform/settings.ts; no secrets). */
export function writeSettings(p: Profile, settings: Record<string, unknown>): void {
  writeFileSync(join(p.dataDir, 'settings.json'), JSON.stringify(settings, null, 2));
}

function assertBuilt(): void {
  if (
    !existsSync(join(ROOT, 'dist', 'main', 'bundle', 'cli.js')) ||
    !existsSync(join(ROOT, 'dist', 'renderer', 'index.html'))
  ) {
    throw new Error('dist/ is missing: run `npm run build` before the e2e specs.');
  }
}

/** `airlock agent add NAME --json`: returns the agent's token (shown once). */
export async function addAgent(p: Profile, name: string): Promise<string> {
  assertBuilt();
  const { stdout } = await run(
    process.execPath,
    [BIN, 'agent', 'add', name, '--json', '--data-dir', p.dataDir],
    { cwd: ROOT, env: testEnv(p) },
  );
  const parsed = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { token?: string };
  if (!parsed.token) throw new Error(`agent add printed no token: ${stdout}`);
  return parsed.token;
}

export interface ReadyLine {
  event: 'ready';
  mcpUrl: string;
  controlUrl: string;
  url: string;
  port: number;
  pid: number;
}

export interface RunningServer extends ReadyLine {
  /** The control token, taken from the fragment of controlUrl. */
  controlToken: string;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM and wait for the exit. */
  stop: () => Promise<number | null>;
  /** SIGKILL (a crash) and wait for the exit. */
  kill: () => Promise<void>;
  /**
   * `p`, or a rejection naming the exit (code and stderr) as soon as the process exits first: a
   * test waiting on the server learns of a crash from the exit event, not from its own timeout.
   */
  whileRunning: <T>(p: Promise<T>) => Promise<T>;
}

function testEnv(p: Profile): NodeJS.ProcessEnv {
  return {
    ...process.env,
    AIRLOCK_TEST_COUNTER_FILE: p.counterFile,
    AIRLOCK_TEST_RELEASE_FILE: p.releaseFile,
    // A home of its own: the Agents page reads the MCP apps' config files there (issue 15), so
    // what this machine's user has installed never reaches a test or a screenshot.
    HOME: `${p.dataDir}-home`,
  };
}

/**
 * `airlock serve --port 0` (or `opts.port`) on the profile; resolves on its ready line
 * (the one JSON line on stdout), rejects if it exits first.
 */
export async function startServer(
  p: Profile,
  opts: {
    port?: number;
    timeoutMs?: number;
    /** Extra environment (e.g. a fake Google's endpoints). */ env?: Record<string, string>;
  } = {},
): Promise<RunningServer> {
  assertBuilt();
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const child = spawn(
    process.execPath,
    [TEST_CLI, 'serve', '--port', String(opts.port ?? 0), '--data-dir', p.dataDir],
    {
      cwd: ROOT,
      env: { ...testEnv(p), ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<ReadyLine>((resolveReady, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`airlock serve was not ready within ${timeoutMs} ms.\nstderr:\n${err}`)),
      timeoutMs,
    );
    lines.on('line', (line) => {
      out += line + '\n';
      try {
        const parsed = JSON.parse(line) as ReadyLine;
        if (parsed.event === 'ready') {
          clearTimeout(timer);
          resolveReady(parsed);
        }
      } catch {
        // Not JSON: keep waiting for the ready line.
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`airlock serve exited (${code}) before it was ready.\nstderr:\n${err}`));
    });
  });
  const controlToken = new URL(ready.controlUrl).hash.replace(/^#token=/, '');
  if (!controlToken) throw new Error(`controlUrl has no token: ${ready.controlUrl}`);
  return {
    ...ready,
    controlToken,
    stdout: () => out,
    stderr: () => err,
    stop: () => signal(child, 'SIGTERM', exited),
    kill: async () => void (await signal(child, 'SIGKILL', exited)),
    whileRunning: (p) =>
      Promise.race([
        p,
        exited.then((code) => {
          throw new Error(
            `airlock serve exited (${code}) while a test waited on it.\nstderr:\n${err}`,
          );
        }),
      ]),
  };
}

async function signal(
  child: ChildProcess,
  sig: NodeJS.Signals,
  exited: Promise<number | null>,
): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  return exited;
}

/** Runs any `airlock` command on the profile; rejects (with code/stdout/stderr) on a non-zero exit. */
export async function airlock(
  p: Profile | null,
  args: string[],
): Promise<{ stdout: string; stderr: string }> {
  assertBuilt();
  return run(process.execPath, [BIN, ...args], { cwd: ROOT, env: p ? testEnv(p) : process.env });
}
