#!/usr/bin/env node
// Issue 34, "Faster than the gateways people would pick instead": Airlock (the real `airlock
// serve`) beside mcp-hub, supergateway and mcp-proxy (installed into a cache folder by
// bench-peer-install.mjs, never as dependencies), the raw byte proxy and the JSON relay of
// bench-passthrough.mjs, and no gateway at all, in ONE run, every gateway its own process; for an
// HTTP upstream (server-everything over streamable HTTP) and a stdio one (server-everything
// launched by each gateway); the guarded relay (bench-guarded-relay.mjs: the JSON relay plus the
// least per-call work Airlock's guarantees need) beside the JSON relay, and the stdio relay
// (bench-stdio-relay.mjs: the JSON relay in front of the stdio server) as the stdio legs'
// yardstick; for a 2025-era agent (the stock @modelcontextprotocol/sdk 1.x
// Client) and a 2026-07-28 one (v2 @modelcontextprotocol/client). Prints each figure with its
// ratio to the best peer and every target of the issue MET / MISSED; asserts nothing.
//
//   node scripts/bench-peers.mjs           short run (200 sequential calls per leg, 4 rounds of 8 × 25)
//   node scripts/bench-peers.mjs --long    the issue's sizes (1,000 sequential, 2 rounds of 8 clients × 250)
//   npm run bench -- --peers-only          this bench alone, under scripts/with-keyring.sh
//   … --rounds N --fixed-order --log-rounds  the order-effect experiment: N throughput rounds, the
//                                           legs in listed order every round, each round's CPU
//                                           per call printed per leg
//
// CPU and memory are the OS's: utime + stime (+ reaped children) and VmRSS summed over the
// gateway's whole process tree from /proc, read before and after each block of calls; for stdio
// the tree holds the server the gateway launched, for HTTP the shared upstream is not in it.
// Legs run round-robin in blocks of 10 calls (throughput: each leg's 8 clients in turn, in rounds),
// so load from elsewhere on a shared machine falls on every leg alike, and the order of the
// gateways is reversed every other block and round, so each has each neighbour on both sides.
// A gateway that speaks both eras (Airlock; mcp-proxy over stdio) is started once per era, each
// start its own process tree with its own stdio server, so every gateway tree compared carries
// one era's workload, as a one-era peer's does: its tree's RSS and CPU are that era's alone, and
// no leg of it runs after a sibling leg of its own tree, which measured ≈ 0.2–0.3 ms per call
// cheaper than a tree's first leg after other gateways' blocks (docs/performance.md, "The peer
// bench's order effect"). Only the yardsticks keep more than one leg on one process: direct over
// HTTP (two client libraries on the shared upstream) and the old bench's in-process App (only to
// explain the old CPU figure). Last, each Airlock's two eras are run once more with their fleets
// paced to one offered rate (an info line beside the 2026 ÷ 2025 CPU target: the closed-loop
// figure also measures how fast each era's client library can call). Linux only (/proc).
// AIRLOCK_BENCH_SEQ_DUMP=FILE writes every leg's sequential latencies, in order, as JSON (a call's
// place in its block of 10 is its index mod 10: docs/performance.md, "Across processes"), with
// its gateway's pid and each call's start (scripts/experiments/compile-burst-report.mjs).
// AIRLOCK_TIMELINE_DIR with scripts/experiments/timeline-hook.mjs preloaded splits each call
// across the agent, gateway and upstream processes (timeline-report.mjs).
import os from 'node:os';
import { startEverything, treePids, treeUsage } from './bench-lib.mjs';
import * as A from './bench-peer-airlock.mjs';
import * as G from './bench-peer-gateways.mjs';
import { installPeers, PEERS } from './bench-peer-install.mjs';
import { printCpuWhy, printTables, printTargets } from './bench-peers-report.mjs';

const LONG = process.argv.includes('--long');
const SIZES = LONG
  ? { seq: 1000, warm: 200, clients: 8, perClient: 250, rounds: 2 }
  : { seq: 200, warm: 50, clients: 8, perClient: 25, rounds: 4 };
const BLOCK = 10;
const FIXED_ORDER = process.argv.includes('--fixed-order');
const LOG_ROUNDS = process.argv.includes('--log-rounds');
const DUMP = process.env.AIRLOCK_BENCH_SEQ_DUMP;
if (process.argv.includes('--rounds'))
  SIZES.rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]);
/**
 * The legs in the order of block or round `i`: every other time the gateways' order is reversed,
 * and a gateway's own legs with it (see the header). The old bench's App keeps its extra
 * 'v2-2025' leg last, so its 2025 and 2026 legs take the first place equally often (reversing
 * three never puts the middle one first). Direct's v2 leg is reversed with its 2025 one: both
 * bases of added latency in like places.
 */
function inTurn(legs, i) {
  if (!(i % 2) || FIXED_ORDER) return legs;
  const byGateway = new Map();
  for (const l of legs) byGateway.set(l.g, [...(byGateway.get(l.g) ?? []), l]);
  return [...byGateway.values()].reverse().flatMap((ls) => {
    const extra = (l) => l.era === 'v2-2025' && ls.length > 2;
    return [...ls.filter((l) => !extra(l)).reverse(), ...ls.filter(extra)];
  });
}

if (process.argv.includes('--cpu-prof') || process.argv.includes('--heap-snapshots')) {
  console.log('  (skipped: --cpu-prof and --heap-snapshots are for bench-passthrough.mjs)');
  process.exit(0);
}
if (process.platform !== 'linux') {
  console.log('  (skipped: reads CPU and memory of process trees from /proc, Linux only)');
  process.exit(0);
}

console.log(
  `Peer gateways bench (issue 34) — node ${process.version}, ${new Date().toISOString()}, ${
    LONG ? 'long' : 'short (--long for the issue sizes)'
  } run, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}\n`,
);

const peers = installPeers((l) => console.log(l));
if (peers.error) console.log(`  peers skipped: ${peers.error}\n`);
else
  console.log(
    `  peers: ${Object.entries(PEERS)
      .map(([n, p]) => `${n}@${p.version}`)
      .join(', ')} (from ${peers.dir})`,
  );
console.log(`  Airlock: bin/airlock.js serve, vault: ${A.airlockVault().mode}\n`);

const es = await startEverything();
// The same server on the 2024-11-05 HTTP+SSE transport: the base of mcp-hub's added latency. An
// agent on that transport gets each answer on its one open event stream (the POST is a bare 202),
// which costs the agent's own library less than reading each POST's answer as Streamable HTTP
// does: subtracting a Streamable HTTP base from an HTTP+SSE leg counted that difference as the
// gateway's (mcp-hub's added p50 came out 0.14 ms, below the raw byte proxy's 0.40 in one run).
const esSse = await startEverything('sse').catch((err) => ({ failed: err.message }));
/**
 * Every gateway process tree and the agent eras it is measured with; a failed start is kept as
 * a row with its reason. A gateway that speaks both eras is added once per era (see the header).
 */
const gateways = [];
const BOTH = ['2025', '2026'];
async function add(kind, name, start, eras = BOTH) {
  try {
    const gw = await start();
    gateways.push({ ...gw, kind, name, eras });
  } catch (err) {
    gateways.push({ kind, name, eras, failed: err.message.split('\n')[0].slice(0, 160) });
  }
}
const noPeers = (kind, name, eras = BOTH) =>
  gateways.push({ kind, name, eras, failed: `not installed: ${peers.error}` });
const stdioOnly = 'n/a: bridges a stdio server only (no HTTP upstream)';

await add('http', 'direct', async () => ({ url: es.url, pid: es.pid, tool: 'echo', stop() {} }));
await add(
  'http',
  'direct (HTTP+SSE)',
  async () => {
    if (esSse.failed) throw new Error(esSse.failed);
    return { url: esSse.url, pid: esSse.pid, tool: 'echo', sse: true, stop() {} };
  },
  ['2025'],
);
const floor = (name, ...script) => G.floorChild(name, es.url, ...script);
await add('http', 'raw proxy', () => floor('raw proxy', 'bench-passthrough.mjs', '--proxy-child'));
await add('http', 'JSON relay', () =>
  floor('JSON relay', 'bench-passthrough.mjs', '--relay-child'),
);
await add('http', 'guarded relay', () => floor('guarded relay', 'bench-guarded-relay.mjs'));
if (peers.error) noPeers('http', 'mcp-hub');
else await add('http', 'mcp-hub', () => G.mcpHub(peers.bins['mcp-hub'], 'http', es.url));
gateways.push({ kind: 'http', name: 'supergateway', failed: stdioOnly });
gateways.push({ kind: 'http', name: 'mcp-proxy', failed: stdioOnly });
for (const era of BOTH) await add('http', 'Airlock', () => A.airlock('http', es.url), [era]);
await add('http', 'old bench: in-process App', () => A.appChild(es.url));
await add('stdio', 'direct', async () => {
  const d = await G.directStdio();
  return { pid: d.pid, tool: 'echo', client: d.client, stop: () => d.client.close() };
});
// The stdio legs' floor: the JSON relay in front of the same server over stdio (a yardstick, not a
// peer; 2025 only, as the HTTP relay).
await add(
  'stdio',
  'stdio relay',
  () => G.floorChild('stdio relay', undefined, 'bench-stdio-relay.mjs'),
  ['2025'],
);
for (const [name, start, eras] of [
  ['mcp-hub', (b) => G.mcpHub(b['mcp-hub'], 'stdio')],
  ['supergateway', (b) => G.supergateway(b.supergateway)],
  ['mcp-proxy', (b) => G.mcpProxy(b['mcp-proxy']), ['2025']],
  ['mcp-proxy', (b) => G.mcpProxy(b['mcp-proxy']), ['2026']],
])
  if (peers.error) noPeers('stdio', name, eras);
  else await add('stdio', name, () => start(peers.bins), eras);
// A third stdio tree, a v2 client on a 2025 session: the 2026 ÷ 2025 target compares SDK 1.x with
// the v2 client, and this leg shows what of that is the client library (an info line).
for (const era of [...BOTH, 'v2-2025'])
  await add('stdio', 'Airlock', () => A.airlock('stdio'), [era]);

const live = gateways.filter((g) => !g.failed);
for (const g of live) {
  g.pids = treePids(g.pid);
  const u = treeUsage(g.pid, g.pids);
  g.idleRss = u.rssMiB;
  g.rss = u.rssMiB;
  g.setupCpuMs = u.cpuMs; // from its start to ready, with its upstream connected: no call yet
}
const sampleRss = (g) => {
  g.pids = treePids(g.pid);
  g.rss = Math.max(g.rss, treeUsage(g.pid, g.pids).rssMiB);
  g.procs = g.pids.length;
};

// ---------------------------------------------------------------- legs: gateway × era
const legs = [];
// 'v2-2025' (v2 client, 2025 session): beside the old bench's App it splits the client's CPU
// share; on direct HTTP it is the base of every v2-client leg's added latency (the 2026 agent's
// included).
const eraOf = (g) => (/old bench|^direct$/.test(g.name) && g.kind === 'http' ? ['v2-2025'] : []);
for (const g of gateways)
  for (const era of [...(g.eras ?? BOTH), ...eraOf(g)]) {
    const leg = { g, era, kind: g.kind, name: g.name, t: [], cpu: 0, self: 0, agentCpu: 0 };
    legs.push(leg);
    if (g.failed) leg.na = g.failed;
    else if (g.client) {
      // The agent spawned this server itself: its one client, 2025 only.
      if (era === '2025') leg.c = g.client;
      else leg.na = 'n/a: server-everything offers no 2026-07-28';
    } else {
      const c = await G.agent(era, g).catch((err) => ({ na: `connect failed: ${err.message}` }));
      if (c.na) leg.na = `n/a: ${c.na}`;
      else leg.c = c;
    }
  }
let run = legs.filter((l) => l.c);

/** A leg whose gateway fails mid-run is dropped with the reason; the others go on. */
async function guarded(l, fn) {
  try {
    return await fn();
  } catch (err) {
    l.na = `failed during the run: ${String(err.message).split('\n')[0].slice(0, 140)}`;
    delete l.c;
    run = run.filter((x) => x !== l);
    return undefined;
  }
}

async function calls(leg, n, into) {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await leg.c.callTool({ name: leg.g.tool, arguments: { message: `m${i}` } });
    into?.push(performance.now() - t0);
    // For AIRLOCK_BENCH_SEQ_DUMP: when each call (warm-up included) started, on the clock
    // AIRLOCK_BENCH_SERVE_OUT stamps serve's output with.
    if (DUMP) (leg.starts ??= []).push({ at: performance.timeOrigin + t0, measured: !!into });
    if (r.isError) throw new Error(`${leg.name}: ${JSON.stringify(r.content).slice(0, 200)}`);
  }
}
/**
 * `n` calls from the leg's fleet, the k-th started no earlier than `k / rate` seconds in (each
 * client takes the next slot when it is free): an offered rate, not as fast as the clients can.
 */
async function paced(leg, n, rate) {
  const t0 = performance.now();
  let next = 0;
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  await Promise.all(
    leg.fleet.map(async (c) => {
      for (let k = next++; k < n; k = next++) {
        const due = t0 + (k * 1000) / rate - performance.now();
        if (due > 1) await wait(due);
        const r = await c.callTool({ name: leg.g.tool, arguments: { message: `p${k}` } });
        if (r.isError) throw new Error(`${leg.name}: ${JSON.stringify(r.content).slice(0, 200)}`);
      }
    }),
  );
}
/** CPU of the leg's gateway tree (and, for the old bench's App, its own reading) over `fn`. */
async function measured(leg, fn) {
  const g = leg.g;
  const s0 = g.selfCpuMs && (await g.selfCpuMs());
  const a0 = process.cpuUsage();
  const c0 = treeUsage(g.pid, g.pids).cpuMs;
  await fn();
  const c1 = treeUsage(g.pid, g.pids).cpuMs;
  const a1 = process.cpuUsage(a0);
  if (g.selfCpuMs) leg.self += (await g.selfCpuMs()) - s0;
  return { cpu: c1 - c0, agent: (a1.user + a1.system) / 1000 };
}

try {
  // 1. Sequential: warm, then round-robin blocks of 10 calls.
  for (const l of run) await guarded(l, () => calls(l, SIZES.warm));
  for (const g of live) sampleRss(g);
  for (let b = 0; b < SIZES.seq / BLOCK; b++) {
    for (const l of inTurn(run, b)) {
      const t = [];
      const m = await guarded(l, () => measured(l, () => calls(l, BLOCK, t)));
      if (!m) continue;
      l.t.push(...t);
      l.cpu += m.cpu;
      l.agentCpu += m.agent;
    }
  }
  for (const g of live) sampleRss(g);
  if (DUMP)
    (await import('node:fs')).writeFileSync(
      DUMP,
      JSON.stringify(
        run.map((l) => ({
          name: l.name,
          kind: l.kind,
          era: l.era,
          pid: l.g.pid,
          t: l.t,
          starts: l.starts,
        })),
      ),
    );
  for (const l of run) l.selfSeq = l.self;
  console.log(`  ${SIZES.seq} sequential calls per leg done; throughput next …`);

  // 2. Throughput: 8 clients per leg, each leg's fleet in turn, SIZES.rounds rounds.
  for (const l of run) {
    l.fleet = [];
    l.tput = [];
    l.cpu8 = 0;
    if (l.g.client) continue; // a stdio agent has its own server: no shared gateway to load
    await guarded(l, async () => {
      for (let i = 0; i < SIZES.clients; i++) {
        const c = await G.agent(l.era, l.g);
        if (c.na) throw new Error(c.na);
        l.fleet.push(c);
      }
      await calls({ ...l, c: l.fleet[0] }, 10);
    });
  }
  const fleets = () => run.filter((x) => x.fleet.length);
  for (const g of live) sampleRss(g);
  const perRound = SIZES.clients * SIZES.perClient;
  for (let round = 0; round < SIZES.rounds; round++) {
    for (const l of inTurn(fleets(), round)) {
      const t0 = performance.now();
      const m = await guarded(l, () =>
        measured(l, () => Promise.all(l.fleet.map((c) => calls({ ...l, c }, SIZES.perClient)))),
      );
      if (!m) continue;
      l.tput.push(perRound / ((performance.now() - t0) / 1000));
      l.cpu8 += m.cpu;
      if (LOG_ROUNDS)
        console.log(
          `  round ${round} ${l.kind} ${l.name} ${l.era}: ${(m.cpu / perRound).toFixed(3)} ms/call`,
        );
      sampleRss(l.g);
    }
  }
  // 3. One offered rate for both eras of each Airlock (issue 34's 2026 ÷ 2025 target): at 8
  // clients each calling as fast as it can, a gateway's CPU per call falls as its calls come in
  // faster (more of them per wake-up), and the rate is set by the agents' own library — the v2
  // client costs the agent more per call than SDK 1.x — so the closed-loop figure above charges
  // the gateway for its client's speed (docs/performance.md, "One offered rate for both eras").
  // Here both eras' fleets are paced to the same rate, 0.7 × the slower era's calls/s above.
  for (const kind of ['http', 'stdio']) {
    const pair = fleets().filter(
      (l) => l.name === 'Airlock' && l.kind === kind && l.era !== 'v2-2025',
    );
    if (pair.length !== 2 || pair.some((l) => !l.tput.length)) continue;
    const rate =
      0.8 * Math.min(...pair.map((l) => l.tput.reduce((a, b) => a + b, 0) / l.tput.length));
    for (const l of pair) Object.assign(l, { pacedRate: rate, pacedCpu: 0, pacedN: 0, pacedT: 0 });
    for (let round = 0; round < 2; round++) {
      for (const l of round % 2 ? [...pair].reverse() : pair) {
        const t0 = performance.now();
        const m = await guarded(l, () =>
          measured(l, () => paced(l, SIZES.clients * SIZES.perClient, rate)),
        );
        if (!m) continue;
        l.pacedT += performance.now() - t0;
        l.pacedCpu += m.cpu;
        l.pacedN += SIZES.clients * SIZES.perClient;
      }
    }
  }
  for (const l of fleets()) {
    const n = SIZES.rounds * perRound;
    l.callsPerS = l.tput.reduce((a, b) => a + b, 0) / l.tput.length;
    l.cpu8PerCall = l.cpu8 / n;
    l.self8PerCall = (l.self - l.selfSeq) / n;
    for (const c of l.fleet) await c.close().catch(() => {});
  }
  for (const l of run) {
    l.cpuPerCall = l.cpu / SIZES.seq;
    l.selfPerCall = l.selfSeq / SIZES.seq;
    l.agentPerCall = l.agentCpu / SIZES.seq;
  }
  console.log('');
  printTables(legs, SIZES);
  printCpuWhy(legs, SIZES);
  printTargets(legs, gateways);
} finally {
  for (const l of run) if (!l.g.client) await l.c.close().catch(() => {});
  for (const g of live) await Promise.resolve(g.stop()).catch(() => {});
  es.stop();
  esSse.stop?.();
}
process.exit(process.exitCode ?? 0);
