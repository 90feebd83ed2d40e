import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Helpers for tests that drive the built CLI (bin/airlock.js → dist/) as separate processes. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const airlockBin = fileURLToPath(new URL('../bin/airlock.js', import.meta.url));

export function requireBuilt(): void {
  // bin/airlock.js runs the bundle (scripts/build-cli.mjs); tsc's per-file build is beside it.
  for (const built of ['../dist/main/bundle/cli.js', '../dist/main/cli.js']) {
    const file = fileURLToPath(new URL(built, import.meta.url));
    if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  }
}

/** An environment without the session bus: what a second shell (ssh, cron, a container exec) has. */
export function withoutBus(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.DBUS_SESSION_BUS_ADDRESS;
  return copy;
}

export interface Ready {
  event: 'ready';
  mcpUrl: string;
  url: string;
  port: number;
  pid: number;
  dataDir: string;
}

/** Starts a long-running process and resolves with its first stdout line parsed as the ready line. */
export function startUntilReady(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; ready: Ready; stdoutLines: string[]; stderr: () => string }> {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const stdoutLines: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before ready:\n${err}`)),
    );
    lines.on('line', (line) => {
      stdoutLines.push(line);
      if (stdoutLines.length === 1) {
        try {
          resolve({ child, ready: JSON.parse(line) as Ready, stdoutLines, stderr: () => err });
        } catch {
          reject(new Error(`first stdout line is not JSON: ${line}\n${err}`));
        }
      }
    });
  });
}

export function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/**
 * Runs the CLI to completion: resolves once its output is all read ('close', not 'exit', after
 * which stdout may still hold data), with the exit code (null if a signal ended it).
 */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  /** Piped to the CLI's standard input (`--bearer-stdin`, `--url-stdin`); none by default. */
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [airlockBin, ...args], {
      cwd: repoRoot,
      env,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** An MCP initialize with a bearer token: 200 when the token is accepted, 401 when not. */
export async function initializeStatus(mcpUrl: string, token: string): Promise<number> {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'readme-test', version: '1' },
      },
    }),
  });
  await res.body?.cancel();
  return res.status;
}
