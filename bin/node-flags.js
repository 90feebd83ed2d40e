#!/usr/bin/env node
// The Node flags Airlock's own launchers start its headless process with (issue 34: CPU per call
// against peer gateways). One source of truth for scripts/up.sh, the `airlock` launcher
// scripts/setup.sh writes, scripts/start.mjs and the benches. `node bin/airlock.js` run by hand
// works the same, only without these flags: they are start-up flags (V8 and Node read them before
// any script runs), and a re-exec to add them would cost a second Node start
// (main/platform/young-generation.ts says why the project avoids that).
//
// Like bin/airlock.js this file parses and runs on old Nodes (no top-level await, no optional
// chaining, no `node:` imports): setup.sh may ask it about whatever Node it found.
//
//   node bin/node-flags.js   prints the flags for the Node running it, space-separated (or an
//                            empty line), for the shell launchers.
import { realpathSync } from 'fs';
import { fileURLToPath } from 'url';

// AsyncLocalStorage (main/remote/relay/relay-scope.ts) on V8's continuation-preserved embedder
// data instead of async_hooks. Without it Node 22 turns on V8's promise hooks for every promise
// in the process once an AsyncLocalStorage is used: 3-4 % of `airlock serve`'s busy time under
// passthrough load (promiseInitHook, emitInitScript, _propagate, executionAsyncResource), and
// -6 % CPU per call with it (docs/performance.md, "AsyncLocalStorage without promise hooks").
// Added in Node 22.7.0 (doc/api/cli.md, "--experimental-async-context-frame"), but usable from
// 22.9.0: on 22.7 and 22.8 the first AsyncLocalStorage.run() under it throws "Method
// Map.prototype.set called on incompatible receiver #<AsyncContextFrame>" (nodejs/node#54503,
// fixed by nodejs/node#54510 in 22.9.0). Node 24 made it the default (nodejs/node#55552, "lib:
// make ALS default to AsyncContextFrame", renamed --async-context-frame with
// --no-async-context-frame to opt out), so nothing is passed there.
export const ASYNC_CONTEXT_FRAME = '--experimental-async-context-frame';

// V8's platform worker threads (concurrent marking and sweeping, background compiles), 4 by
// Node's default. Each thread that allocates gets its own glibc malloc arena, which keeps what it
// once held: 1.4–2.5 MiB resident per arena in `airlock serve` under the peer bench's stdio leg.
// Two threads measured 2–4 MiB less at the process's highest reading, CPU per call within the
// runs' spread (docs/performance.md, "The stdio tree's memory, wave 3 session 19"). On Node 22+
// (what bin/airlock.js runs on) that lists it.
export const V8_POOL_SIZE = '--v8-pool-size=2';

/**
 * The flags for a Node of this version that accepts these flags (process.allowedNodeEnvironmentFlags
 * lists the flags a Node accepts; a build without the flag, or a fork, gets none rather than a
 * "bad option" at start).
 * @param {string} [version] process.versions.node
 * @param {{ has(flag: string): boolean } | undefined} [allowed] process.allowedNodeEnvironmentFlags
 * @returns {string[]}
 */
export function nodeFlags(version, allowed) {
  const v = version === undefined ? process.versions.node : version;
  const accepted = allowed === undefined ? process.allowedNodeEnvironmentFlags : allowed;
  const parts = String(v).split('.');
  const major = Number(parts[0]);
  const minor = Number(parts[1]);
  if (!Number.isInteger(major) || !Number.isInteger(minor) || !accepted) return [];
  const flags = [];
  const beforeDefault = (major === 22 && minor >= 9) || major === 23;
  if (beforeDefault && accepted.has(ASYNC_CONTEXT_FRAME)) flags.push(ASYNC_CONTEXT_FRAME);
  if (major >= 22 && accepted.has('--v8-pool-size')) flags.push(V8_POOL_SIZE);
  return flags;
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) process.stdout.write(nodeFlags().join(' ') + '\n');
