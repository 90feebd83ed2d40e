// Throwaway (review of h-surv): surv-renew-empty.mjs for a Set whose members are the calls
// (mcp-endpoint's per-agent Sets of relays), where no value can be blanked first.
//
//   node --expose-gc scripts/experiments/surv-renew-empty-set.mjs [N] [MODE: none|delete|reverse|drop]
import v8 from 'node:v8';

const n = Number(process.argv[2] ?? 8);
const mode = process.argv[3] ?? 'delete';
const old = () =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
const minor = () => globalThis.gc({ type: 'minor', execution: 'sync' });

let set = new Set([-1]);
minor();
minor(); // the Set and its table now in old space
set.delete(-1);
for (let i = 0; i < 4 * n; i++) {
  set.add(i);
  set.delete(i);
}
const calls = Array.from({ length: n }, () => ({ buf: new Array(8192).fill(0) }));
const before0 = old();
for (const c of calls) set.add(c);
if (mode !== 'none') {
  const left = set;
  set = new Set(left);
  if (mode === 'reverse') for (const v of [...left].reverse()) left.delete(v);
  else if (mode !== 'drop') for (const v of [...left]) left.delete(v);
}
for (const c of calls) set.delete(c);
calls.length = 0; // no reference left but the containers'
const before = old();
minor();
minor();
console.log(
  JSON.stringify({
    n,
    mode,
    'promoted KiB': Math.round((old() - before) / 1024),
    pre: before - before0,
  }),
);
