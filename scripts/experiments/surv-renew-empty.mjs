// Throwaway (review of h-surv, issue 34): what a renewal's way of emptying the Map it leaves keeps
// alive at a scavenge, when that Map's table is already in old space. A byte count, no timing.
// A Map's table is promoted; N young "calls" (64 KiB each) are put in it; the Map is renewed
// (copied to a new Map, the old one emptied by MODE); the calls then finish (deleted from the new
// Map, no other reference); two minor GCs; old-space growth = what the left table pinned.
//
//   node --expose-gc scripts/experiments/surv-renew-empty.mjs [N] [MODE: none|delete|reverse|blank|drop|clear]
import v8 from 'node:v8';

const n = Number(process.argv[2] ?? 8);
const mode = process.argv[3] ?? 'delete';
const old = () =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
const minor = () => globalThis.gc({ type: 'minor', execution: 'sync' });

let map = new Map();
map.set(-1, null);
minor();
minor(); // the Map and its table now in old space
map.delete(-1);
const call = () => ({ buf: new Array(8192).fill(0) }); // ≈ 64 KiB young, one object graph a call
// Prime: enough keys that the table grows (a rehash in old space) and is used like the hot path's.
for (let i = 0; i < 4 * n; i++) {
  map.set(i, null);
  map.delete(i);
}
for (let i = 0; i < n; i++) map.set(1000 + i, call());
if (mode !== 'none') {
  const left = map;
  map = new Map(left);
  if (mode === 'blank') for (const k of left.keys()) left.set(k, null);
  if (mode === 'clear') left.clear();
  else if (mode === 'reverse') for (const k of [...left.keys()].reverse()) left.delete(k);
  else if (mode !== 'drop') for (const k of [...left.keys()]) left.delete(k);
}
for (let i = 0; i < n; i++) map.delete(1000 + i);
const before = old();
minor();
minor();
console.log(JSON.stringify({ n, mode, 'promoted KiB': Math.round((old() - before) / 1024) }));
