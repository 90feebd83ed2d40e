import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * Runs a `*.probe.mjs` script in a fresh Node process (a test's own process has loaded half of
 * node_modules already) and returns the JSON object it prints as its first line; anything else
 * it prints first, or its exit before printing, is thrown. `built` is a file of the build the
 * probe loads, checked first so that a missing build says what to do. `args` and `env` go to the
 * probe's process (its environment is this one's plus `env`).
 */
export async function runProbe<T>(
  script: URL,
  built: URL,
  o: { args?: string[]; env?: Record<string, string> } = {},
): Promise<T> {
  const builtPath = fileURLToPath(built);
  if (!existsSync(builtPath)) throw new Error(`${builtPath} is missing: run "npm run build" first`);
  const child = spawn(process.execPath, [fileURLToPath(script), ...(o.args ?? [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(o.env ? { env: { ...process.env, ...o.env } } : {}),
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).once('line', resolve),
  );
  const first = await Promise.race([
    line,
    exited.then((code) => `probe exited with ${code} before reporting`),
  ]);
  await exited;
  if (!first.startsWith('{')) throw new Error(first);
  return JSON.parse(first) as T;
}
