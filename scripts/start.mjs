#!/usr/bin/env node
// `npm start` (issue 9, item 6): the desktop app where Electron can run, otherwise the
// headless gateway — with one line saying why — so a newcomer always gets a running Airlock.
// Runs after `npm run build`: the checks live in dist/main/shell/launch-check.js.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { nodeFlags } from '../bin/node-flags.js';
import { planLaunch } from '../dist/main/shell/launch-check.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
// An Electron that dies this fast never got to the tray (missing shared libraries, no GPU, …).
const EARLY_EXIT_MS = 5000;

// The child runs in its own process group (POSIX), so Ctrl+C reaches it once — through us —
// rather than twice (terminal + forward), which would cut its graceful stop short.
const detached = process.platform !== 'win32';

function forwardSignals(child) {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
}

function headless(reason, fixes = []) {
  process.stderr.write(`airlock: running headless: ${reason}.\n`);
  for (const fix of fixes) process.stderr.write(`airlock: for the desktop app, ${fix}.\n`);
  const child = spawn(
    process.execPath,
    // The Node flags every launcher of Airlock's starts it with (bin/node-flags.js, issue 34).
    [
      ...nodeFlags(),
      fileURLToPath(new URL('../bin/airlock.js', import.meta.url)),
      'serve',
      ...args,
    ],
    {
      cwd: root,
      detached,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  forwardSignals(child);
  createInterface({ input: child.stdout }).on('line', (line) => {
    process.stdout.write(line + '\n');
    try {
      const ready = JSON.parse(line);
      if (ready.event === 'ready') {
        process.stdout.write(
          `\nAirlock is running. Open the approval page: ${ready.controlUrl}\nAgents connect to: ${ready.mcpUrl}\n`,
        );
      }
    } catch {
      // not the ready line
    }
  });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}

const plan = planLaunch();
if (plan.mode === 'headless') {
  headless(plan.reason, plan.fixes);
} else {
  const started = Date.now();
  // ELECTRON_RUN_AS_NODE from a parent shell would turn the app into plain Node.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(plan.electron, [root, ...args], {
    cwd: root,
    detached,
    stdio: ['ignore', 'inherit', 'inherit'],
    env,
  });
  forwardSignals(child);
  child.on('error', (err) => headless(`Electron could not be started (${err.message})`));
  child.on('exit', (code, signal) => {
    if (!signal && code !== 0 && Date.now() - started < EARLY_EXIT_MS) {
      headless(`Electron exited at start-up with code ${code}`, [
        'check the lines above for missing shared libraries (Debian: apt-get install libgtk-3-0 libnss3 libasound2)',
      ]);
      return;
    }
    process.exit(signal ? 1 : (code ?? 0));
  });
}
