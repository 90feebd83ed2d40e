#!/usr/bin/env node
// Issue 34: how much code one plain passthrough call runs — a count, not a time. Each step of a
// call costs what the code and data it touches cost on a core that comes back cold after the
// upstream's wait, not what its work costs (docs/performance.md, "Layer by layer", wave 3
// session 17), so the number of distinct functions a call runs is the footprint behind the added
// latency, and unlike every timed figure it does not move with the machine's load. V8's precise
// coverage (call counts per function; the Chrome DevTools Protocol's Profiler domain) is taken in
// each gateway's own process over N sequential calls of one stock agent, after a warm-up:
//
//   the JSON relay and the guarded relay (the peer bench's floors), and the real `airlock serve`
//   (the peer bench's set-up: CLI, OS keychain, server-everything over streamable HTTP, `echo`
//   run without asking), once with a 2025-era agent (SDK 1.x) and once with a 2026-07-28 one.
//
// Prints, per gateway: function calls per call, distinct functions run over the window, both ÷
// the JSON relay's, and the files (Node's own modules, the bundle's chunks, packages) with the
// most; `--functions TEXT` also lists every function of the files whose URL holds TEXT with its
// calls per call. Coverage keeps counters on every function, so the gateways run slower under it:
// no timing is taken here. Asserts nothing. Needs a build (npm run build:main).
//
//   npm run bench -- functions                       200 calls a gateway
//   npm run bench -- functions --long                1,000
//   npm run bench -- functions --functions bundle/   and each function of the bundle's files
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEverything } from './bench-lib.mjs';
import * as A from './bench-peer-airlock.mjs';
import * as G from './bench-peer-gateways.mjs';

const argv = process.argv.slice(2);
const N = argv.includes('--long') ? 1000 : 200;
const WARM = 300;
const listOf = argv.includes('--functions') ? argv[argv.indexOf('--functions') + 1] : undefined;
const hook = fileURLToPath(new URL('./function-counts-hook.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-functions-'));

/** A file's group name: Node's own module, a package, or the path's last two parts. */
function fileOf(url) {
  if (url.startsWith('node:')) return url;
  const nm = url.split('/node_modules/');
  if (nm.length > 1) {
    const parts = nm.at(-1).split('/');
    return `package ${parts[0].startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]}`;
  }
  return url.split('/').slice(-2).join('/');
}

/** Polls for a file the hook writes (the hook answers a signal; there is no other channel). */
async function written(path) {
  for (let i = 0; !existsSync(path); i++) {
    if (i > 3000) throw new Error(`no ${path} after 60 s: the coverage hook did not answer`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function measure(name, start, era) {
  const out = join(dir, `${name.replace(/\W+/g, '-')}.json`);
  const before = {
    BENCH_FUNCTIONS_OUT: process.env.BENCH_FUNCTIONS_OUT,
    NODE_OPTIONS: process.env.NODE_OPTIONS,
  };
  process.env.BENCH_FUNCTIONS_OUT = out;
  process.env.NODE_OPTIONS = `${before.NODE_OPTIONS ?? ''} --import ${hook}`.trim();
  let gw;
  try {
    gw = await start();
  } finally {
    for (const [k, v] of Object.entries(before))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  try {
    const c = await G.agent(era, gw);
    if (c.na) return { name, na: c.na };
    const call = (i) =>
      c.callTool({ name: gw.tool ?? 'echo', arguments: { message: `hello ${i}` } });
    for (let i = 0; i < WARM; i++) await call(i);
    process.kill(gw.pid, 'SIGUSR2');
    await written(`${out}.ready`);
    for (let i = 0; i < N; i++) await call(i);
    process.kill(gw.pid, 'SIGUSR2');
    await written(`${out}.done`);
    await c.close();
  } finally {
    await gw.stop();
  }
  const scripts = JSON.parse(readFileSync(out, 'utf8'));
  if (!Array.isArray(scripts)) throw new Error(`${name}: ${scripts.error}`);
  const byFile = new Map();
  const fns = [];
  let calls = 0;
  let distinct = 0;
  // Run on (nearly) every call: a one-off in the window (an expiry sweep, an idle socket's
  // close, a background fetch) adds to `distinct`, not to this.
  let everyCall = 0;
  for (const s of scripts)
    for (const f of s.functions) {
      const n = f.ranges[0].count;
      if (n === 0) continue;
      calls += n;
      distinct++;
      if (n >= 0.95 * N) everyCall++;
      const file = fileOf(s.url);
      const e = byFile.get(file) ?? { calls: 0, distinct: 0 };
      e.calls += n;
      e.distinct++;
      byFile.set(file, e);
      if (listOf && s.url.includes(listOf))
        fns.push([
          n / N,
          `${s.url.split('/').at(-1)} ${f.functionName || '(anonymous)'} @${f.ranges[0].startOffset}`,
        ]);
    }
  return { name, calls: calls / N, distinct, everyCall, byFile, fns };
}

const es = await startEverything();
const rows = [];
try {
  rows.push(
    await measure(
      'JSON relay',
      () => G.floorChild('JSON relay', es.url, 'bench-passthrough.mjs', '--relay-child'),
      '2025',
    ),
  );
  rows.push(
    await measure(
      'guarded relay',
      () => G.floorChild('guarded relay', es.url, 'bench-guarded-relay.mjs'),
      '2025',
    ),
  );
  rows.push(await measure('Airlock, 2025 agent', () => A.airlock('http', es.url), '2025'));
  rows.push(await measure('Airlock, 2026-07-28 agent', () => A.airlock('http', es.url), '2026'));
} finally {
  es.stop();
  rmSync(dir, { recursive: true, force: true });
}

const relay = rows[0];
console.log(
  `Functions one plain call runs (issue 34) — node ${process.version}, ${N} sequential calls of server-everything's echo after ${WARM} warm-up, V8 precise coverage in each gateway's process\n`,
);
console.log(
  '  gateway                        function calls / call      distinct functions run   on every call',
);
for (const r of rows) {
  if (r.na) {
    console.log(`  ${r.name.padEnd(30)} n/a: ${r.na}`);
    continue;
  }
  console.log(
    `  ${r.name.padEnd(30)} ${r.calls.toFixed(0).padStart(8)} (${(r.calls / relay.calls).toFixed(2)}×)` +
      `        ${String(r.distinct).padStart(8)} (${(r.distinct / relay.distinct).toFixed(2)}×)` +
      `   ${String(r.everyCall).padStart(8)} (${(r.everyCall / relay.everyCall).toFixed(2)}×)`,
  );
}
for (const r of rows) {
  if (r.na) continue;
  const node = [...r.byFile].filter(([k]) => k.startsWith('node:'));
  const sum = (xs, key) => xs.reduce((t, [, e]) => t + e[key], 0);
  console.log(
    `\n  ${r.name}: Node's own modules ${(sum(node, 'calls') / N).toFixed(0)} calls / call, ${sum(node, 'distinct')} functions; the rest ${((r.calls * N - sum(node, 'calls')) / N).toFixed(0)} / ${r.distinct - sum(node, 'distinct')}`,
  );
  console.log('      calls/call  functions  file');
  for (const [k, e] of [...r.byFile].sort((a, b) => b[1].distinct - a[1].distinct).slice(0, 14))
    console.log(
      `      ${(e.calls / N).toFixed(1).padStart(10)}  ${String(e.distinct).padStart(9)}  ${k}`,
    );
  if (listOf)
    for (const [n, k] of r.fns.sort((a, b) => b[0] - a[0]))
      console.log(`        ${n.toFixed(2).padStart(6)}  ${k}`);
}
process.exit(0);
