#!/usr/bin/env node
// Reads a V8 .cpuprofile (node --cpu-prof; `node scripts/bench-passthrough.mjs --cpu-prof DIR`
// writes one for the Airlock process) and prints where the time went: self time by area
// (Airlock's own code, the MCP SDK, zod, undici/fetch, SQLite, node internals, GC, idle) and
// the top self-time frames.
//
//   node scripts/bench-cpuprofile.mjs FILE.cpuprofile [TOP=25]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/bench-cpuprofile.mjs FILE.cpuprofile [TOP]');
  process.exit(2);
}
const prof = JSON.parse(readFileSync(file, 'utf8'));
const TOP = Number(topArg ?? 25);

// Self time per node: samples × their intervals.
const self = new Map();
for (let i = 0; i < prof.samples.length; i++) {
  const dt = prof.timeDeltas[i + 1] ?? 0;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
}

function area(url, fn) {
  if (fn === '(idle)') return 'idle';
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(program)') return 'V8/native (program)';
  if (!url) return 'native/builtin';
  if (/\/dist\/main\//.test(url)) return 'Airlock (dist/main)';
  if (/\/dist\/common\//.test(url)) return 'Airlock (dist/common)';
  const pkg = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (pkg) return pkg.startsWith('@modelcontextprotocol/') ? `SDK ${pkg.slice(21)}` : pkg;
  if (url.startsWith('node:internal/deps/undici')) return 'undici (fetch, web streams)';
  if (url.includes('webstreams')) return 'node web streams';
  if (url.startsWith('node:')) return 'node internals';
  return 'other';
}

const byArea = new Map();
const byFrame = new Map();
let total = 0;
for (const n of prof.nodes) {
  const t = self.get(n.id) ?? 0;
  if (!t) continue;
  const { url, functionName, lineNumber } = n.callFrame;
  const fn = functionName || '(anonymous)';
  const a = area(url, fn);
  byArea.set(a, (byArea.get(a) ?? 0) + t);
  const key = `${fn}  ${url.replace(/.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}`;
  byFrame.set(key, (byFrame.get(key) ?? 0) + t);
  total += t;
}
const idle = byArea.get('idle') ?? 0;
const busy = total - idle;
console.log(
  `${file}\n  ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (shares below are of busy time)\n`,
);
console.log('By area:');
for (const [a, t] of [...byArea].filter(([a]) => a !== 'idle').sort((x, y) => y[1] - x[1]))
  console.log(
    `  ${((100 * t) / busy).toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(6)} ms  ${a}`,
  );
console.log(`\nTop ${TOP} self-time frames:`);
for (const [k, t] of [...byFrame]
  .filter(([k]) => !k.startsWith('(idle)'))
  .sort((x, y) => y[1] - x[1])
  .slice(0, TOP))
  console.log(`  ${((100 * t) / busy).toFixed(1).padStart(5)}%  ${k}`);
