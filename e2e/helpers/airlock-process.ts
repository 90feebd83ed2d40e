import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

/** Drives the real `airlock` CLI (built into dist/) as a child process. */
export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'airlock.js');

export interface Ready {
  event: 'ready';
  mcpUrl: string;
  controlUrl: string;
  url: string;
  port: number;
  pid: number;
}

export interface RunningAirlock {
  proc: ChildProcess;
  ready: Ready;
  dataDir: string;
  controlToken: string;
  stderr: () => string;
  /** Sends the signal and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'airlock-e2e-'));
}

export async function airlock(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, cwd: ROOT });
}

export async function addAgent(dataDir: string, name: string): Promise<{ name: string; token: string; mcpUrl: string }> {
  const { stdout } = await airlock(['agent', 'add', name, '--json', '--data-dir', dataDir]);
  return JSON.parse(stdout) as { name: string; token: string; mcpUrl: string };
}

/** Starts `airlock serve --port 0` and resolves on its ready line (no sleeps). */
export async function startAirlock(opts: { dataDir?: string; env?: NodeJS.ProcessEnv; args?: string[] } = {}): Promise<RunningAirlock> {
  const dataDir = opts.dataDir ?? newDataDir();
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, ...(opts.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const ready = await new Promise<Ready>((resolveReady, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    lines.once('line', (line) => resolveReady(JSON.parse(line) as Ready));
    void exited.then((code) => reject(new Error(`airlock serve exited (${code}) before it was ready:\n${err}`)));
  });
  return {
    proc,
    ready,
    dataDir,
    controlToken: new URL(ready.controlUrl).hash.replace('#token=', ''),
    stderr: () => err,
    stop: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}
