// Why 8 concurrent clients cost Airlock more per call from a 2026-07-28 agent than from a 2025
// one (issue 34: "a 2026-07-28 agent within 1.1× of a 2025 one"; docs/performance.md, "The
// 2026-07-28 agent at 8 clients (wave 3 session 29)").
//
// One `airlock serve` per era over an HTTP server-everything, set up as the peer bench sets it up
// (bench-peer-airlock.mjs), each driven by its own fleet of agents (SDK 1.x Client on a 2025
// session; the v2 client on 2026-07-28). For each offered rate (0 = closed loop, each client
// calling as fast as it can; else the k-th call starts no earlier than k / rate s in) the eras
// run in alternating blocks, the order reversed every other block, so both see the same load.
// Per era and rate it prints the calls/s got, the gateway tree's CPU per call (/proc), the agents'
// process CPU per call, the p50, and from a preload inside the gateway
// (bench-era-rate-probe.mjs): HTTP requests, body bytes and new TCP connections per call,
// requests per event-loop turn, scavenges and GC ms per 1,000 calls, and the new space's mean
// used size after a scavenge (read late, so with what was allocated since; and exactly, in the
// GC's epilogue: the survivors, what the scavenges promoted per call, and the old space's growth
// between GCs, what was allocated straight in old space). The first block of each pair is warm-up and not counted.
//
// A measurement (like bench-era-stdio.mjs), not one of `npm run bench`'s: it reports no target.
// Needs dist/ (npm run build:main).
//
//   node scripts/bench-era-rate.mjs [--clients 8] [--calls 1200] [--blocks 6] [--rates 0,600,1000]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEverything, treeUsage } from './bench-lib.mjs';
import { airlock } from './bench-peer-airlock.mjs';
import { agent, root } from './bench-peer-gateways.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
};
if (process.argv.includes('--help')) {
  console.log(
    'node scripts/bench-era-rate.mjs [--clients 8] [--calls 1200] [--blocks 6] [--rates 0,600,1000]',
  );
  process.exit(0);
}
const CLIENTS = Number(arg('clients', 8));
const CALLS = Number(arg('calls', 1200)); // per block, over the whole fleet
const BLOCKS = Number(arg('blocks', 6));
const RATES = arg('rates', '0,600,1000').split(',').map(Number);
const ERAS = ['2025', '2026'];

const probeDir = mkdtempSync(join(tmpdir(), 'airlock-era-rate-'));
const es = await startEverything();
// The probe rides in through NODE_OPTIONS on the gateways' start only (not the agents').
const saved = process.env.NODE_OPTIONS;
process.env.NODE_OPTIONS = `${saved ?? ''} --import ${join(root, 'scripts/bench-era-rate-probe.mjs')}`;
process.env.AIRLOCK_ERA_PROBE_OUT = probeDir;
const gws = {};
try {
  for (const era of ERAS) gws[era] = await airlock('http', es.url);
} finally {
  if (saved === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = saved;
}
const fleets = {};
for (const era of ERAS) {
  fleets[era] = [];
  for (let i = 0; i < CLIENTS; i++) fleets[era].push(await agent(era, gws[era]));
}
const call = (c, era, k) =>
  c.callTool({ name: gws[era].tool, arguments: { message: `m${k}` } }).then((r) => {
    if (r.isError) throw new Error(`${era}: ${JSON.stringify(r.content).slice(0, 200)}`);
  });
/** The probe's counts since the last read. */
async function probe(era) {
  const { pid } = gws[era];
  process.kill(pid, 'SIGUSR2');
  const file = join(probeDir, `${pid}.json`);
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 20));
    try {
      const c = JSON.parse(readFileSync(file, 'utf8'));
      rmSync(file);
      return c;
    } catch {
      /* not written yet */
    }
  }
  throw new Error(`no probe counts from ${era}'s gateway`);
}
async function block(era, rate) {
  const g = gws[era];
  await probe(era);
  const cpu0 = treeUsage(g.pid).cpuMs;
  const agent0 = process.cpuUsage();
  const t0 = performance.now();
  const lat = [];
  let next = 0;
  await Promise.all(
    fleets[era].map(async (c) => {
      for (let k = next++; k < CALLS; k = next++) {
        const due = rate ? t0 + (k * 1000) / rate - performance.now() : 0;
        if (due > 1) await new Promise((r) => setTimeout(r, due));
        const q0 = performance.now();
        await call(c, era, k);
        lat.push(performance.now() - q0);
      }
    }),
  );
  const ms = performance.now() - t0;
  const cpu = treeUsage(g.pid).cpuMs - cpu0;
  const a = process.cpuUsage(agent0);
  lat.sort((x, y) => x - y);
  return {
    ms,
    cpu,
    agent: (a.user + a.system) / 1000,
    p50: lat[lat.length >> 1],
    ...(await probe(era)),
  };
}

const rows = new Map();
console.log(
  `${CLIENTS} clients, ${CALLS} calls per block, ${BLOCKS} blocks per era and rate (the first not counted)`,
);
try {
  for (let b = 0; b < BLOCKS; b++)
    for (const rate of RATES)
      for (const era of b % 2 ? [...ERAS].reverse() : ERAS) {
        const r = await block(era, rate);
        if (b === 0) continue;
        const key = `${era} @ ${rate || 'closed loop'}`;
        rows.set(key, [...(rows.get(key) ?? []), r]);
      }
  for (const [key, rs] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
    const sum = (k) => rs.reduce((x, r) => x + r[k], 0);
    const n = CALLS * rs.length;
    console.log(
      key.padEnd(22),
      JSON.stringify({
        'calls/s': Math.round(n / (sum('ms') / 1000)),
        'gateway ms/call': +(sum('cpu') / n).toFixed(3),
        'agents ms/call': +(sum('agent') / n).toFixed(3),
        'p50 ms': +(sum('p50') / rs.length).toFixed(2),
        'requests/call': +(sum('req') / n).toFixed(3),
        'body bytes/call': Math.round(sum('bytes') / n),
        'new sockets/call': +(sum('sock') / n).toFixed(4),
        'requests/turn': +(sum('req') / sum('turns')).toFixed(2),
        'scavenges/1k': +((sum('scav') / n) * 1000).toFixed(1),
        'GC ms/1k': +((sum('gcMs') / n) * 1000).toFixed(1),
        'new space after scavenge KiB': Math.round(sum('newUsed') / sum('scav') / 1024),
        // Exact, in the GC's epilogue (the probe's GCProfiler): survivors, and promoted per call.
        'survivors KiB': Math.round(sum('survived') / sum('scav') / 1024),
        'promoted KiB/call': +(sum('promoted') / n / 1024).toFixed(2),
        'old between GCs KiB/call': +(sum('oldBetween') / n / 1024).toFixed(2),
        'gateway ms/call by block': rs.map((r) => +(r.cpu / CALLS).toFixed(3)).join(' '),
      }),
    );
  }
} finally {
  for (const era of ERAS) await gws[era].stop();
  es.stop();
  rmSync(probeDir, { recursive: true, force: true });
}
process.exit(0);
